-- Feeding, breeding and taming (data.animals, from the knowledge's breeding.yaml): an item an animal eats, used on
-- it (a right-click with the item in hand), goes through mobs_redo's mobs:feed_tame (the item taken, health back,
-- a baby grows). An adult fed its breeding food is in love and mates with a partner in love within LOVE_RADIUS
-- nodes (its own kind; a horse and a donkey make a mule); the baby appears between them BABY_SECONDS later.
-- Taming food tames one try in `one_in`. A container an adult fills (data.milking: a bucket used on a cow) becomes
-- the filled item. An animal that lays (data.laying: a chicken's egg every 300 to 600 s) drops the item beside it
-- when its own clock runs out, then draws the next wait; a baby lays none. `_taskverse_pass(self, seconds)` lets
-- that much time pass on the clock (a scripted player waiting beside the animal: the harness's `tend`). See
-- taskverse.engine.gamegen.content (animals, laying) for how this differs from Minecraft.

local LOVE_RADIUS = 8 -- Minecraft's breeding partners are looked for within 8 blocks
local BABY_SECONDS = 3 -- Minecraft's lovers make the baby after 60 ticks together
local LOVE_SECONDS = 30 -- mobs_redo's HORNY_TIME: how long an animal stays in love
local MATED = LOVE_SECONDS + 1 -- a hornytimer past that: mobs_redo counts the parents through their cooldown

return function(data)
	local mobs_api = rawget(_G, "mobs")
	if mobs_api == nil or mobs_api.feed_tame == nil then
		return
	end

	local function set_of(list)
		local out = {}
		for _, name in ipairs(list or {}) do
			out[name] = true
		end
		return out
	end

	local function in_love(ent)
		return ent.horny == true and not ent.child and (ent.hornytimer or 0) <= LOVE_SECONDS
	end

	local function make_baby(pos, name)
		local obj = minetest.add_entity(pos, name)
		local baby = obj and obj:get_luaentity()
		if baby == nil then
			return
		end
		local size, box = baby.base_size, baby.base_colbox
		obj:set_properties({
			visual_size = {x = size.x * 0.5, y = size.y * 0.5},
			collisionbox = {box[1] * 0.5, box[2] * 0.5, box[3] * 0.5, box[4] * 0.5, box[5] * 0.5, box[6] * 0.5},
		})
		baby.child = true
		baby.hornytimer = 0
	end

	-- The fed animal, in love, looks for a partner in love; found, both have mated and the baby follows.
	local function mate(self, spec)
		local pos = self.object:get_pos()
		for _, obj in ipairs(minetest.get_objects_inside_radius(pos, LOVE_RADIUS)) do
			local ent = obj:get_luaentity()
			local baby = ent ~= nil and obj ~= self.object and spec.partners[ent.name] or nil
			if baby ~= nil and in_love(ent) then
				self.hornytimer, ent.hornytimer = MATED, MATED
				local other = obj:get_pos()
				local at = {x = (pos.x + other.x) / 2, y = math.max(pos.y, other.y) + 0.5, z = (pos.z + other.z) / 2}
				minetest.after(BABY_SECONDS, make_baby, at, baby)
				return
			end
		end
	end

	for name, spec in pairs(data.laying or {}) do
		local def = rawget(minetest.registered_entities, name)
		if def ~= nil then
			local function wait()
				return spec.seconds[1] + math.random() * (spec.seconds[2] - spec.seconds[1])
			end
			-- the time passes on the animal's clock: the item beside it each time the clock runs out
			local function pass(self, seconds)
				if self.child then
					return
				end
				local left = (self._lay_in or wait()) - seconds
				local pos = self.object:get_pos()
				while left <= 0 and pos ~= nil do
					minetest.add_item(pos, ItemStack(spec.item))
					left = left + wait()
				end
				self._lay_in = left
			end
			local custom = def.do_custom
			def.do_custom = function(self, dtime)
				pass(self, dtime)
				if custom ~= nil then
					return custom(self, dtime)
				end
			end
			def._taskverse_pass = pass
		end
	end

	for name, spec in pairs(data.animals) do
		local def = rawget(minetest.registered_entities, name) -- the mob's prototype: its instances read it
		if def ~= nil and #spec.food > 0 then
			local breeds, tames = set_of(spec.breed), spec.tame and set_of(spec.tame.food) or {}
			spec.partners = spec.partners or {}
			def.follow = spec.food
			def.on_rightclick = function(self, clicker)
				if clicker == nil or not clicker:is_player() then
					return
				end
				local item = clicker:get_wielded_item():get_name()
				local filled = (data.milking[name] or {})[item]
				if filled ~= nil and not self.child then -- a bucket used on a cow: milk, the cow stays
					local held = clicker:get_wielded_item()
					held:take_item()
					if held:is_empty() then
						clicker:set_wielded_item(ItemStack(filled))
					else
						clicker:set_wielded_item(held)
						local left = clicker:get_inventory():add_item("main", ItemStack(filled))
						if not left:is_empty() then
							minetest.add_item(clicker:get_pos(), left)
						end
					end
					return
				end
				local breeding = breeds[item] == true and not self.child and next(spec.partners) ~= nil
				if not mobs_api:feed_tame(self, clicker, 1, breeding, false) then
					return
				end
				if spec.returns ~= "" then
					local left = clicker:get_inventory():add_item("main", ItemStack(spec.returns))
					if not left:is_empty() then
						minetest.add_item(clicker:get_pos(), left)
					end
				end
				if tames[item] and not self.tamed and math.random(spec.tame.one_in) == 1 then
					self.tamed = true
					self.owner = clicker:get_player_name()
				end
				if breeding and in_love(self) then
					mate(self, spec)
				end
			end
		end
	end
end
