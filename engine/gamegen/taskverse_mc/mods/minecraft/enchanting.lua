-- Enchanting for Silk Touch (data.enchanting, from the knowledge's enchanting.yaml): a pickaxe used on an enchanting
-- table with bookshelves around it (Minecraft's ring, data.ring, each with a node of data.transmitters between it
-- and the table: Minecraft 1.20's enchantment_power_transmitter tag, air and the replaceable blocks; a flower, a
-- crop or a torch there stops the bookshelf counting, though a placed block would replace a flower)
-- takes 3 lapis lazuli and comes back as its Silk Touch tool with the chance the knowledge computes for the
-- level-30 offer of 15 bookshelves; otherwise it comes back plain, its other enchantments ground off at the
-- grindstone the player carries or stands near. Stand-ins: the tool is used on the table (no enchanting screen),
-- experience levels are not needed, and fewer bookshelves give no offer (this game models only the level 30 one).
-- The table's `_taskverse_blocking(pos)` names the cells between it and a bookshelf of its ring that stop the
-- bookshelf's power, for a scripted player to dig away (the harness's `clear`).
-- A try the table refuses takes nothing: the player is told why in the chat, and the table's
-- `_taskverse_refusal(player)` gives that reason to a scripted player (the harness), once, after the try.
-- A try the table takes (the lapis paid) calls the tool's `_on_used_on(itemstack, user, pointed_thing)` (the
-- pointed thing is the table), which the taskverse runtime logs as the table used holding the tool; the table's
-- `_taskverse_work_reports_use` tells the runtime that a right-click on it is no use by itself, so a refused try
-- is no enchanting.

return function(ench)
	if ench.station == nil or #ench.tools == 0 then
		return
	end
	local by_tool = {}
	for _, t in ipairs(ench.tools) do
		by_tool[t.tool] = t
	end

	-- Minecraft's integer division (towards zero): the block between a bookshelf and the table
	local function half(d)
		return d >= 0 and math.floor(d / 2) or -math.floor(-d / 2)
	end

	local transmitter = {}
	for _, name in ipairs(ench.transmitters) do
		transmitter[name] = true
	end

	local function transmits(pos)
		return transmitter[minetest.get_node(pos).name] == true
	end

	-- the bookshelves of the ring around the table at pos whose power reaches it, and the cells that stop the
	-- power of the others (each once: two bookshelves may share one)
	local function bookshelves(pos)
		local count, blocking, seen = 0, {}, {}
		for _, o in ipairs(ench.ring) do
			local shelf = {x = pos.x + o[1], y = pos.y + o[2], z = pos.z + o[3]}
			local between = {x = pos.x + half(o[1]), y = pos.y + o[2], z = pos.z + half(o[3])}
			if minetest.get_node(shelf).name == ench.bookshelf then
				if transmits(between) then
					count = count + 1
				elseif not seen[minetest.hash_node_position(between)] then
					seen[minetest.hash_node_position(between)] = true
					blocking[#blocking + 1] = between
				end
			end
		end
		return count, blocking
	end

	-- the reason the table gave each player for its last try refused, until the harness takes it
	local refused = {}

	local function refuse(user, why)
		local name = user:get_player_name()
		refused[name] = why
		minetest.chat_send_player(name, "The enchanting table: " .. why)
	end

	-- One try: the tool back as its Silk Touch tool (the same wear) or plain; nil when the table refuses.
	local function enchant(itemstack, user, pos)
		refused[user:get_player_name()] = nil
		local entry = by_tool[itemstack:get_name()]
		local inv = user:get_inventory()
		local lapis = ItemStack(ench.lapis .. " " .. ench.lapis_count)
		local shelves = bookshelves(pos)
		if shelves < ench.bookshelves then
			return refuse(user, shelves .. " bookshelves around it, " .. ench.bookshelves .. " needed")
		end
		if not inv:contains_item("main", lapis) then
			return refuse(user, ench.lapis_count .. " " .. ench.lapis .. " needed")
		end
		if not inv:contains_item("main", ench.reset) and minetest.find_node_near(pos, 6, {ench.reset}, true) == nil then
			return refuse(user, "a " .. ench.reset .. " is needed to grind off a missed try")
		end
		inv:remove_item("main", lapis)
		local def = minetest.registered_items[itemstack:get_name()]
		if def ~= nil and def._on_used_on ~= nil then
			def._on_used_on(ItemStack(itemstack), user,
				{type = "node", under = pos, above = {x = pos.x, y = pos.y + 1, z = pos.z}})
		end
		if math.random() < entry.chance then
			local out = ItemStack(entry.enchanted)
			out:set_wear(itemstack:get_wear())
			return out
		end
		return itemstack
	end

	if minetest.registered_nodes[ench.station] ~= nil then
		minetest.override_item(ench.station, {
			_taskverse_work_reports_use = true,
			-- the cells between the table and a bookshelf of its ring that stop its power (a flower, a torch):
			-- what a scripted player digs away before a try
			_taskverse_blocking = function(pos)
				local _, blocking = bookshelves(pos)
				return blocking
			end,
			_taskverse_refusal = function(player)
				local name = player:get_player_name()
				local why = refused[name]
				refused[name] = nil
				return why
			end,
		})
	end

	for tool in pairs(by_tool) do
		local def = minetest.registered_items[tool]
		if def ~= nil then
			local place = def.on_place or minetest.item_place
			minetest.override_item(tool, {
				_on_used_on = def._on_used_on or function() end,
				on_place = function(itemstack, placer, pointed_thing)
					if pointed_thing.type == "node" and placer ~= nil and placer:is_player() and
							minetest.get_node(pointed_thing.under).name == ench.station then
						return enchant(itemstack, placer, pointed_thing.under) or itemstack
					end
					return place(itemstack, placer, pointed_thing)
				end,
			})
		end
	end
end
