-- Items used from the hand whose use Minecraft counts only when it happens (data.hand_uses, from the knowledge's
-- shooting.yaml, throwing.yaml and hooking.yaml; Minecraft Wiki, Statistics: minecraft:used). A right-click
-- (on_secondary_use, or on_place pointing at a block) with:
-- * a bow shoots the first arrow of the inventory (used up outside creative); with none nothing happens
--   (BowItem.releaseUsing awards the bow's use when the arrow is shot);
-- * a trident is thrown and picked up again at once (TridentItem.releaseUsing awards the use when it is thrown);
-- * a fishing rod is cast, its bobber in front of the player, or reeled in when it is out (FishingRodItem.use awards
--   the use for the cast only). Whether the rod is out is kept in the rod's own item meta, so a rod given anew (a
--   new episode's start) is cast again; the bobber goes when its rod is reeled in or no longer held.
-- The moment the use happens the item's `_on_counted_use(itemstack, user)` field is called: it does nothing here;
-- the taskverse runtime wraps it to log the use, so a right-click that does nothing (no arrow) is no use.

local PROJECTILE = "minecraft:projectile"
local FLIGHT = 1.0 -- seconds a shot arrow or a thrown trident is shown before it is gone
local SPEED = 20

return function(uses)
	minetest.register_entity(":" .. PROJECTILE, {
		initial_properties = {
			physical = false,
			pointable = false,
			collisionbox = {0, 0, 0, 0, 0, 0},
			visual = "sprite",
			visual_size = {x = 0.4, y = 0.4},
			textures = {"taskverse_mc_white.png"},
			static_save = false,
		},
		on_step = function(self, dtime)
			self._age = (self._age or 0) + dtime
			if self._rod ~= nil then -- a bobber: there while its rod is held and out
				local owner = minetest.get_player_by_name(self._owner or "")
				local held = owner and owner:get_wielded_item()
				if held == nil or held:get_name() ~= self._rod or held:get_meta():get_string("cast") ~= self._cast then
					self.object:remove()
				end
			elseif self._age > FLIGHT then
				self.object:remove()
			end
		end,
	})

	local function counted(itemstack, user)
		local def = minetest.registered_items[itemstack:get_name()]
		if def ~= nil and def._on_counted_use ~= nil then
			def._on_counted_use(itemstack, user)
		end
	end

	local function launch(user, item, speed)
		local dir = user:get_look_dir()
		local pos = vector.add(user:get_pos(), {x = dir.x, y = 1.5 + dir.y, z = dir.z})
		local obj = minetest.add_entity(pos, PROJECTILE)
		if obj == nil then
			return nil
		end
		local def = minetest.registered_items[item]
		if def ~= nil and def.inventory_image ~= nil and def.inventory_image ~= "" then
			obj:set_properties({textures = {def.inventory_image}})
		end
		obj:set_velocity(vector.multiply(dir, speed))
		return obj
	end

	local function creative(user)
		return minetest.is_creative_enabled(user:get_player_name())
	end

	local function shoot(bow)
		return function(itemstack, user)
			local inv = user:get_inventory()
			for _, arrow in ipairs(bow.ammo) do
				if inv:contains_item("main", arrow) then
					if not creative(user) then
						inv:remove_item("main", arrow)
					end
					launch(user, arrow, SPEED)
					counted(itemstack, user)
					return itemstack
				end
			end
			return itemstack
		end
	end

	local function throw(itemstack, user)
		launch(user, itemstack:get_name(), SPEED)
		counted(itemstack, user)
		return itemstack
	end

	local casts = 0
	local function cast(itemstack, user)
		local meta = itemstack:get_meta()
		if meta:get_string("cast") ~= "" then -- reeled in: the bobber goes (its rod is no longer out)
			meta:set_string("cast", "")
			return itemstack
		end
		casts = casts + 1
		local mark = tostring(casts)
		meta:set_string("cast", mark)
		local bobber = launch(user, itemstack:get_name(), 0)
		if bobber ~= nil then
			local entity = bobber:get_luaentity()
			entity._owner, entity._rod, entity._cast = user:get_player_name(), itemstack:get_name(), mark
			bobber:set_pos(vector.add(user:get_pos(), vector.multiply(user:get_look_dir(), 4)))
		end
		counted(itemstack, user)
		return itemstack
	end

	local function install(item, use)
		if minetest.registered_items[item] == nil then
			return
		end
		local function secondary(itemstack, user, _)
			if user == nil or not user:is_player() then
				return itemstack
			end
			return use(itemstack, user)
		end
		-- pointing at a block: the block's own right-click first (a chest opens), else the item's use
		local function place(itemstack, user, pointed_thing)
			if pointed_thing.type == "node" and user ~= nil and not user:get_player_control().sneak then
				local node = minetest.get_node(pointed_thing.under)
				local def = minetest.registered_nodes[node.name]
				if def ~= nil and def.on_rightclick ~= nil then
					return def.on_rightclick(pointed_thing.under, node, user, itemstack, pointed_thing)
				end
			end
			return secondary(itemstack, user, pointed_thing)
		end
		minetest.override_item(item, {
			on_secondary_use = secondary,
			on_place = place,
			_on_counted_use = function() end,
		})
	end

	for _, bow in ipairs(uses.shoot) do
		install(bow.item, shoot(bow))
	end
	for _, item in ipairs(uses.throw) do
		install(item, throw)
	end
	for _, rod in ipairs(uses.cast) do
		install(rod, cast)
	end
end
