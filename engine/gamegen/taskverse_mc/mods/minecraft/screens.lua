-- Blocks whose screen a right-click opens (data.screens, from the knowledge's screens.yaml: the blocks Minecraft
-- counts opening as a custom statistic, open_chest, interact_with_furnace...). The click is the node's
-- on_rightclick, which the taskverse runtime logs as the block's interact event. A node with a form of its own
-- (a furnace, a brewing stand) shows that form; another shows the player's inventory under the block's name.
-- Not modelled: a container's own slots.

local FORM = "minecraft:screen"

local function screen_of(pos, node)
	local own = minetest.get_meta(pos):get_string("formspec")
	if own ~= "" then
		return (own:gsub("context;", "nodemeta:" .. pos.x .. "," .. pos.y .. "," .. pos.z .. ";"))
	end
	local def = minetest.registered_nodes[node.name] or {}
	return "size[8,5]label[0,0;" .. minetest.formspec_escape(def.description or node.name) .. "]" ..
		"list[current_player;main;0,1;8,4;]"
end

return function(screens)
	for _, name in ipairs(screens) do
		local def = minetest.registered_nodes[name]
		if def ~= nil then
			local original = def.on_rightclick
			minetest.override_item(name, {
				on_rightclick = function(pos, node, clicker, itemstack, pointed_thing)
					if clicker ~= nil and clicker:is_player() then
						minetest.show_formspec(clicker:get_player_name(), FORM, screen_of(pos, node))
					end
					if original ~= nil then
						return original(pos, node, clicker, itemstack, pointed_thing)
					end
					return itemstack
				end,
			})
		end
	end
end
