-- Storing: the containers of `storing.containers` (a chest, a trapped chest, a barrel, the shulker boxes) hold
-- their slots as the node's `main` list, nine a row. A player puts stacks in through the node's screen (its
-- formspec); the engine asks `allow_metadata_inventory_put` how many it takes and then runs
-- `on_metadata_inventory_put`, which the task runtime watches (the `store` event). A container is dug only when
-- empty (its items are not dropped). One the map generator placed (a structure's) runs no on_construct: it is
-- given its slots when its block loads.

return function(storing)
	local names = {}
	for name, slots in pairs(storing.containers) do
		if minetest.registered_nodes[name] ~= nil then
			names[#names + 1] = name
			local rows = math.ceil(slots / 9)
			local formspec = "size[9," .. (rows + 5) .. "]list[context;main;0,0.3;9," .. rows .. ";]" ..
				"list[current_player;main;0," .. (rows + 0.85) .. ";8,4;]listring[context;main]" ..
				"listring[current_player;main]"
			minetest.override_item(name, {
				on_construct = function(pos)
					local meta = minetest.get_meta(pos)
					meta:set_string("formspec", formspec)
					meta:get_inventory():set_size("main", slots)
				end,
				allow_metadata_inventory_put = function(_, listname, _, stack)
					return listname == "main" and stack:get_count() or 0
				end,
				on_metadata_inventory_put = function()
				end,
				can_dig = function(pos)
					return minetest.get_meta(pos):get_inventory():is_empty("main")
				end,
			})
		end
	end
	table.sort(names)
	minetest.register_lbm({
		label = "minecraft: containers the map generated get their slots",
		name = "minecraft:container_slots",
		nodenames = names,
		run_at_every_load = true,
		action = function(pos, node)
			local inv = minetest.get_meta(pos):get_inventory()
			if inv:get_size("main") == 0 then
				minetest.registered_nodes[node.name].on_construct(pos)
			end
		end,
	})
end
