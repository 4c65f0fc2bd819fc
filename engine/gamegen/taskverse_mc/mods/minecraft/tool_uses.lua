-- Tools used on blocks (data.tool_uses, from the knowledge's tool_uses.yaml): a hoe used on grass or dirt turns it
-- into farmland, a shovel into a dirt path, shears carve a pumpkin (its seeds dropped), only with air above the
-- block; the tool wears one use, as the axe's stripping does. Used on another block, the tool does what that block
-- does on a right-click (a bee nest's harvest).

return function(tool_uses, wear_one_use)
	for _, group in ipairs(tool_uses) do
		local function use_on(itemstack, placer, pointed_thing)
			if pointed_thing.type ~= "node" then
				return itemstack
			end
			local pos = pointed_thing.under
			local node = minetest.get_node(pos)
			local becomes = group.pairs[node.name]
			if becomes == nil then
				local def = minetest.registered_nodes[node.name]
				if def ~= nil and def.on_rightclick ~= nil then
					return def.on_rightclick(pos, node, placer, itemstack, pointed_thing)
				end
				return itemstack
			end
			local name = placer and placer:get_player_name() or ""
			if minetest.get_node({x = pos.x, y = pos.y + 1, z = pos.z}).name ~= "air" or minetest.is_protected(pos, name) then
				return itemstack
			end
			minetest.swap_node(pos, {name = becomes, param2 = node.param2})
			for item, count in pairs(group.drops[node.name] or {}) do
				minetest.add_item({x = pos.x, y = pos.y + 1, z = pos.z}, ItemStack(item .. " " .. count))
			end
			wear_one_use(itemstack, placer)
			return itemstack
		end
		for _, tool in ipairs(group.tools) do
			if minetest.registered_items[tool] ~= nil then
				minetest.override_item(tool, {on_place = use_on})
			end
		end
	end
end
