-- The Nether and the End are layers far below the overworld (data.dimensions); portals take a player there.
-- Flint and steel used on obsidian opens a nether portal above it (on another block, a fire); a player standing in
-- a nether portal goes to the Nether's floor below (or, from the Nether, up to the overworld's ground), one in an
-- end portal to the End's floor (or, from the End, back to the overworld).

return function(data)
	local dims = data.dimensions
	local nether, the_end = data.portals.nether, data.portals["end"]
	local GROUND = 9 -- where a player stands on the overworld's flat ground

	local function dimension_at(y)
		for name, layer in pairs(dims) do
			if y >= layer.y_min and y <= layer.y_max then
				return name
			end
		end
		return "overworld"
	end

	local function landing(pos, dimension)
		local y = dimension == "overworld" and GROUND or dims[dimension].floor + 1
		return {x = math.floor(pos.x + 0.5) + 2, y = y, z = math.floor(pos.z + 0.5)}
	end

	local function travel(player, target)
		local to = landing(player:get_pos(), target)
		minetest.emerge_area(vector.subtract(to, 4), vector.add(to, 4), function(_, _, remaining)
			if remaining == 0 and player:is_player() then
				for up = 0, 1 do -- room to stand in, wherever the landing is
					local p = {x = to.x, y = to.y + up, z = to.z}
					if minetest.get_node(p).name ~= "air" then
						minetest.remove_node(p)
					end
				end
				player:set_pos(to)
			end
		end)
	end

	minetest.override_item(nether.lighter, {
		-- on the frame it opens a portal; on any other block it lights a fire on top (Minecraft's use of it)
		on_place = function(itemstack, _, pointed_thing)
			if pointed_thing.type ~= "node" then
				return itemstack
			end
			local above = pointed_thing.above
			if minetest.get_node(above).name ~= "air" then
				return itemstack
			end
			if minetest.get_node(pointed_thing.under).name == nether.frame then
				minetest.set_node(above, {name = nether.portal})
			elseif minetest.registered_nodes[nether.fire] ~= nil then
				minetest.set_node(above, {name = nether.fire})
			else
				return itemstack
			end
			itemstack:add_wear(65535 / 64)
			return itemstack
		end,
	})

	-- a player goes through a portal by stepping into it (below) or by using it (right-click)
	local function through(portal)
		return function(_, _, clicker)
			if clicker ~= nil and clicker:is_player() then
				local from = dimension_at(clicker:get_pos().y)
				local target = portal == nether.portal and "nether" or "end"
				travel(clicker, from == target and "overworld" or target)
			end
		end
	end
	for _, portal in ipairs({nether.portal, the_end.portal}) do
		minetest.override_item(portal, {walkable = false, drawtype = "glasslike", paramtype = "light",
			on_rightclick = through(portal)})
	end

	local clock = 0
	minetest.register_globalstep(function(dtime)
		clock = clock + dtime
		if clock < 0.25 then
			return
		end
		clock = 0
		for _, player in ipairs(minetest.get_connected_players()) do
			local pos = player:get_pos()
			local here = minetest.get_node({x = pos.x, y = pos.y + 0.5, z = pos.z}).name
			local from = dimension_at(pos.y)
			if here == nether.portal then
				travel(player, from == "nether" and "overworld" or "nether")
			elseif here == the_end.portal then
				travel(player, from == "end" and "overworld" or "end")
			end
		end
	end)
end
