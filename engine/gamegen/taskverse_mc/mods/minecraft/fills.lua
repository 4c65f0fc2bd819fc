-- Containers filled at a block (data.fills, from the knowledge's brewing.yaml and buckets.yaml): a glass bottle used
-- on a water source becomes a water bottle and the water stays; a bucket used on a water, lava or powder snow
-- source becomes the filled bucket and takes the source. Used on another block, the container does what that
-- block does on a right-click (a cauldron, a brewing stand).

return function(fills)
	for container, at in pairs(fills) do
		minetest.override_item(container, {
			liquids_pointable = true,
			on_place = function(itemstack, placer, pointed_thing)
				if pointed_thing.type ~= "node" then
					return itemstack
				end
				local node = minetest.get_node(pointed_thing.under)
				local fill = at[node.name]
				if fill == nil then
					local def = minetest.registered_nodes[node.name]
					if def ~= nil and def.on_rightclick ~= nil then
						return def.on_rightclick(pointed_thing.under, node, placer, itemstack, pointed_thing)
					end
					return itemstack
				end
				if fill.takes then
					minetest.remove_node(pointed_thing.under)
				end
				local filled = ItemStack(fill.gives)
				itemstack:take_item()
				if itemstack:is_empty() then
					return filled
				end
				local inv = placer ~= nil and placer:get_inventory() or nil
				local left = inv ~= nil and inv:add_item("main", filled) or filled
				if not left:is_empty() and placer ~= nil then
					minetest.add_item(placer:get_pos(), left)
				end
				return itemstack
			end,
		})
	end
end
