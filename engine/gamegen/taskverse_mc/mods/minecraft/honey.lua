-- Honey: bee nests and beehives hold a honey level (node meta `honey_level`, 0 to `honey.full`). A nest the map
-- generates is full (the game has no bees to fill it: a generated nest stands for one its bees have filled); a
-- placed one starts empty. An item of `honey.harvests` used on a full one (right-click: shears, a glass bottle)
-- gives what the harvest gives, wears the tool or uses the item up, and empties it.
-- `_taskverse_ready(pos)` tells a scripted player which of them can be harvested now (the full ones).

return function(honey)
	local FULL = honey.full
	local harvests = {}
	for _, harvest in ipairs(honey.harvests) do
		harvests[harvest.tool] = harvest
	end

	local function level(pos)
		return minetest.get_meta(pos):get_int("honey_level")
	end

	local function give(player, item)
		local left = player:get_inventory():add_item("main", item)
		if not left:is_empty() then
			minetest.add_item(player:get_pos(), left)
		end
	end

	local function harvest(pos, _, clicker, itemstack)
		if clicker == nil or not clicker:is_player() or itemstack == nil then
			return itemstack
		end
		local way = harvests[itemstack:get_name()]
		if way == nil or level(pos) < FULL or minetest.is_protected(pos, clicker:get_player_name()) then
			return itemstack
		end
		minetest.get_meta(pos):set_int("honey_level", 0)
		if not minetest.is_creative_enabled(clicker:get_player_name()) then
			if way.uses_up then
				itemstack:take_item()
			elseif way.wears > 0 then
				local caps = itemstack:get_tool_capabilities()
				local uses = 0
				for _, cap in pairs(caps.groupcaps or {}) do
					uses = math.max(uses, cap.uses or 0)
				end
				if uses > 0 then
					itemstack:add_wear(math.ceil(65535 * way.wears / uses))
				end
			end
		end
		give(clicker, ItemStack(way.gives .. " " .. way.count))
		return itemstack
	end

	for _, block in ipairs(honey.blocks) do
		if minetest.registered_nodes[block] ~= nil then
			minetest.override_item(block, {
				on_construct = function(pos)
					minetest.get_meta(pos):set_int("honey_level", 0)
				end,
				on_rightclick = harvest,
				_taskverse_ready = function(pos)
					return level(pos) >= FULL
				end,
			})
		end
	end

	-- the nests the map generator placed in a new area are full
	if minetest.registered_nodes[honey.natural] ~= nil then
		minetest.register_on_generated(function(minp, maxp)
			for _, pos in ipairs(minetest.find_nodes_in_area(minp, maxp, {honey.natural})) do
				minetest.get_meta(pos):set_int("honey_level", FULL)
			end
		end)
	end
end
