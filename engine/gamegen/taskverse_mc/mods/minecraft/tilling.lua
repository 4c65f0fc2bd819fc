-- Tilling (data.tilling, from the knowledge's tilling.yaml): a hoe used on grass or dirt turns it into farmland, a
-- shovel into a dirt path, only with air above the block; the tool wears one use, as the axe's stripping does.

return function(tilling, wear_one_use)
	for _, group in ipairs(tilling) do
		local function till(itemstack, placer, pointed_thing)
			if pointed_thing.type ~= "node" then
				return itemstack
			end
			local pos = pointed_thing.under
			local becomes = group.pairs[minetest.get_node(pos).name]
			local name = placer and placer:get_player_name() or ""
			if becomes == nil or minetest.get_node({x = pos.x, y = pos.y + 1, z = pos.z}).name ~= "air" or
					minetest.is_protected(pos, name) then
				return itemstack
			end
			minetest.swap_node(pos, {name = becomes})
			wear_one_use(itemstack, placer)
			return itemstack
		end
		for _, tool in ipairs(group.tools) do
			if minetest.registered_items[tool] ~= nil then
				minetest.override_item(tool, {on_place = till})
			end
		end
	end
end
