-- Structures: a small, plain stand-in of each structure the knowledge places (data.structures, written by
-- taskverse.engine.gamegen.content.structures): one marker node that the map generator places as a decoration in
-- the structure's biomes (on another dimension's cavern floor: anywhere on it). A marker with a loot table is the
-- structure's chest: opened the first time, it draws the table (Minecraft's pools: uniform rolls, weighted
-- entries, uniform counts; the weight of the entries the knowledge leaves out draws nothing), gives the items to
-- the player (with what the structure holds outside its chest, each by its share: an end city's elytra) and
-- becomes the looted marker, which gives nothing more. A chest of each further kind the structure's chests draw
-- from (structure.chests: a stronghold's library chest, a bastion's treasure chest) stands beside the marker and
-- is opened the same way with its own table; a kind only a share of the structures hold is in that share of the
-- stand-ins (each variant its own decoration, by fill ratio). The stronghold is its end portal room: the
-- marker at a corner of a ring of 12 end portal frames around a 3 x 3 hole; an eye of ender used on a frame fills
-- it, and the 12 filled open the end portal in the hole (portals.lua takes a player in it to the End). An
-- archaeology structure's suspicious block stands beside its marker: a brush used on it draws the structure's
-- archaeology table, gives it to the player, turns the block into its plain form and wears the brush one use.
-- What the structure holds (structure.holds: a node at x, z from the marker; a bed, a TNT, bookshelves) stands
-- beside the stand-in's own cells, in every schematic of it.

return function(data, look, grounds, floors)
	local function draw(pools)
		local out = {}
		for _, pool in ipairs(pools) do
			for _ = 1, math.random(pool.rolls[1], pool.rolls[2]) do
				local pick = math.random(1, pool.total_weight)
				for _, entry in ipairs(pool.entries) do
					pick = pick - entry.weight
					if pick <= 0 then
						out[#out + 1] = ItemStack(entry.item .. " " .. math.random(entry.count, entry.max))
						break
					end
				end
			end
		end
		return out
	end

	local function give(player, pos, stacks)
		local inv = player:get_inventory()
		for _, stack in ipairs(stacks) do
			local left = inv:add_item("main", stack)
			if not left:is_empty() then
				minetest.add_item(pos, left)
			end
		end
	end

	-- A chest (the marker, or a further kind's beside it: chest.node) drawing chest.pools, then chest.looted.
	local function looter(chest)
		return function(pos, _, clicker, itemstack)
			if clicker ~= nil and clicker:is_player() then
				minetest.swap_node(pos, {name = chest.looted})
				local stacks = draw(chest.pools)
				for _, held in ipairs(chest.held or {}) do -- what the structure holds outside its chests
					if math.random() < held.chance then
						stacks[#stacks + 1] = ItemStack(held.item)
					end
				end
				give(clicker, pos, stacks)
			end
			return itemstack
		end
	end

	-- The 12 frames around a hole's centre (x, z offsets), and the 5 x 5 room: frames, the hole, the marker.
	local RING = {}
	for k = -1, 1 do
		for _, side in ipairs({{k, -2}, {k, 2}, {-2, k}, {2, k}}) do
			RING[#RING + 1] = side
		end
	end

	local function portal_room(structure)
		local room = structure.portal_room
		local cells = {}
		for z = -2, 2 do
			for x = -2, 2 do
				local cell = {name = "air", prob = 0} -- the room's corners keep the ground's air (or plants)
				if math.abs(x) <= 1 and math.abs(z) <= 1 then
					cell = {name = "air", prob = 254} -- the hole
				elseif math.abs(x) == 2 and math.abs(z) == 2 then
					if x == -2 and z == -2 then
						cell = {name = structure.node, prob = 254}
					end
				else
					cell = {name = room.frame, prob = 254}
				end
				cells[#cells + 1] = cell
			end
		end
		minetest.register_node(":" .. room.filled, {
			description = "End Portal Frame with an Eye of Ender",
			tiles = look(room.filled, "#3b6e4f"),
			groups = {unbreakable = 1, not_in_creative_inventory = 1},
			diggable = false,
			drop = "",
			is_ground_content = false,
		})
		local function complete(centre)
			for _, offset in ipairs(RING) do
				local at = {x = centre.x + offset[1], y = centre.y, z = centre.z + offset[2]}
				if minetest.get_node(at).name ~= room.filled then
					return false
				end
			end
			return true
		end
		local function open(pos)
			for dz = -2, 2 do
				for dx = -2, 2 do
					local centre = {x = pos.x + dx, y = pos.y, z = pos.z + dz}
					if complete(centre) then
						for hz = -1, 1 do
							for hx = -1, 1 do
								minetest.set_node({x = centre.x + hx, y = centre.y, z = centre.z + hz},
									{name = room.portal})
							end
						end
						return
					end
				end
			end
		end
		minetest.override_item(room.eye, {
			on_place = function(itemstack, placer, pointed_thing)
				if pointed_thing.type ~= "node" or minetest.get_node(pointed_thing.under).name ~= room.frame then
					return itemstack
				end
				minetest.swap_node(pointed_thing.under, {name = room.filled})
				if not minetest.is_creative_enabled(placer and placer:get_player_name() or "") then
					itemstack:take_item()
				end
				open(pointed_thing.under)
				return itemstack
			end,
		})
		return {size = {x = 5, y = 1, z = 5}, data = cells}
	end

	-- The schematic with the structure's blocks beside its own cells (offsets from the marker at cell 0, 0); the
	-- cells between keep what the ground has there.
	local function with_held(schematic, holds)
		if #holds == 0 then
			return schematic
		end
		local size = {x = schematic.size.x, y = 1, z = schematic.size.z}
		for _, held in ipairs(holds) do
			size.x = math.max(size.x, held.x + 1)
			size.z = math.max(size.z, held.z + 1)
		end
		local cells = {}
		for i = 1, size.x * size.z do
			cells[i] = {name = "air", prob = 0}
		end
		for z = 0, schematic.size.z - 1 do
			for x = 0, schematic.size.x - 1 do
				cells[z * size.x + x + 1] = schematic.data[z * schematic.size.x + x + 1]
			end
		end
		for _, held in ipairs(holds) do
			cells[held.z * size.x + held.x + 1] = {name = held.node, prob = 254}
		end
		return {size = size, data = cells}
	end

	-- Brushing: per suspicious block, the structures that hold it; the one whose marker is beside the block is
	-- the one brushed (elsewhere the block gives nothing).
	local brushed, brushes = {}, {}
	local function brush_use(itemstack, user, pointed_thing)
		if pointed_thing.type ~= "node" or user == nil or not user:is_player() then
			return itemstack
		end
		local pos = pointed_thing.under
		local block = minetest.get_node(pos).name
		local found = brushed[block]
		if found == nil then
			return itemstack
		end
		local markers = {}
		for _, structure in ipairs(found) do
			markers[#markers + 1] = structure.node
		end
		local near = minetest.find_node_near(pos, 1, markers)
		minetest.swap_node(pos, {name = found[1].brush.becomes})
		if near ~= nil then
			local marker = minetest.get_node(near).name
			for _, structure in ipairs(found) do
				if structure.node == marker then -- its loot taken: the looted marker
					minetest.swap_node(near, {name = structure.looted})
					give(user, pos, draw(structure.brush.pools))
				end
			end
		end
		local uses = found[1].brush.uses
		if uses > 0 and not minetest.is_creative_enabled(user:get_player_name()) then
			itemstack:add_wear(math.ceil(65535 / uses))
		end
		return itemstack
	end

	-- A chest node and its looted form: the marker (its description the structure's), or a further kind's chest.
	local function register_chest(chest, color, description)
		local common = {
			tiles = look(chest.node, color),
			groups = {not_in_creative_inventory = 1},
			diggable = false,
			drop = "",
			is_ground_content = false,
		}
		local looted = table.copy(common)
		looted.tiles = look(chest.looted, color)
		looted.description = description .. ", looted"
		minetest.register_node(":" .. chest.looted, looted)
		local full = table.copy(common)
		full.description = description
		if #chest.pools > 0 then
			full.on_rightclick = looter(chest)
		end
		minetest.register_node(":" .. chest.node, full)
	end

	-- The schematics of a decoration with the structure's further kinds of chest on the marker's row: a kind
	-- held by a share of the structures (a bastion's treasure room) is in that share of the stand-ins, by the
	-- fill ratio of each variant ({schematic, share}).
	local function with_chests(schematic, chests)
		local variants = {{{}, 1}}
		for _, chest in ipairs(chests) do
			local cell = {node = chest.node, x = chest.x, z = 0}
			local more = {}
			for _, variant in ipairs(variants) do
				local with = table.copy(variant[1])
				with[#with + 1] = cell
				more[#more + 1] = {with, variant[2] * chest.share}
				if chest.share < 1 then
					more[#more + 1] = {variant[1], variant[2] * (1 - chest.share)}
				end
			end
			variants = more
		end
		local out = {}
		for _, variant in ipairs(variants) do
			out[#out + 1] = {with_held(schematic, variant[1]), variant[2]}
		end
		return out
	end

	for _, structure in ipairs(data.structures) do
		register_chest(structure, structure.color, structure.description)
		for _, chest in ipairs(structure.chests) do
			register_chest(chest, structure.color, structure.description .. ", its " .. chest.kind .. " chest")
		end

		local plain = {size = {x = 1, y = 1, z = 1}, data = {{name = structure.node, prob = 254}}}
		-- the structure's decorations: {biomes, schematic}; a suspicious block only in the biomes of its table
		local placed = {{structure.biomes, plain}}
		if structure.brush ~= nil then
			local brush = structure.brush
			brushed[brush.block] = brushed[brush.block] or {}
			table.insert(brushed[brush.block], structure)
			brushes[brush.tool] = true
			local with_block = {size = {x = 2, y = 1, z = 1},
				data = {{name = structure.node, prob = 254}, {name = brush.block, prob = 254}}}
			if #brush.biomes == 0 then
				placed = {{structure.biomes, with_block}}
			else
				local holds, rest = {}, {}
				for _, biome in ipairs(brush.biomes) do
					holds[biome] = true
				end
				for _, biome in ipairs(structure.biomes) do
					if not holds[biome] then
						rest[#rest + 1] = biome
					end
				end
				placed = {{brush.biomes, with_block}}
				if #rest > 0 then
					placed[2] = {rest, plain}
				end
			end
		elseif structure.portal_room ~= nil then
			placed = {{structure.biomes, portal_room(structure)}}
		end
		local variants = {}
		for _, decoration in ipairs(placed) do
			for _, variant in ipairs(with_chests(decoration[2], structure.chests)) do
				variants[#variants + 1] = {decoration[1], with_held(variant[1], structure.holds or {}), variant[2]}
			end
		end
		for index, decoration in ipairs(variants) do
			local biomes, schematic = decoration[1], decoration[2]
			local place_on, y_min, y_max, flags = {}, -31000, 31000, "force_placement"
			if structure.layer ~= nil then -- on the floor of the dimension's cavern, which is no surface of the map
				flags = flags .. ", all_floors"
				place_on = floors[structure.layer]
				y_min = data.dimensions[structure.layer].floor
				y_max = y_min + 1
			else
				for _, biome in ipairs(biomes) do
					place_on[#place_on + 1] = grounds[biome]
				end
			end
			minetest.register_decoration({
				name = structure.node .. (index > 1 and "_" .. index or ""),
				deco_type = "schematic",
				place_on = place_on,
				biomes = #biomes > 0 and biomes or nil,
				sidelen = 16,
				fill_ratio = structure.fill_ratio * decoration[3],
				y_min = y_min,
				y_max = y_max,
				schematic = schematic,
				flags = flags,
			})
		end
	end
	-- A held block the map generator places is not constructed as a placed one is: one with an on_construct (a
	-- furnace's or a brewing stand's inventory) is constructed once its chunk is generated.
	local constructed, seen = {}, {}
	for _, structure in ipairs(data.structures) do
		for _, held in ipairs(structure.holds or {}) do
			local def = minetest.registered_nodes[held.node]
			if not seen[held.node] and def ~= nil and def.on_construct ~= nil then
				seen[held.node] = true
				constructed[#constructed + 1] = held.node
			end
		end
	end
	if #constructed > 0 then
		minetest.register_on_generated(function(minp, maxp)
			for _, pos in ipairs(minetest.find_nodes_in_area(minp, maxp, constructed)) do
				local meta = minetest.get_meta(pos):to_table()
				if next(meta.fields) == nil and next(meta.inventory) == nil then -- not constructed yet
					minetest.registered_nodes[minetest.get_node(pos).name].on_construct(pos)
				end
			end
		end)
	end
	for tool in pairs(brushes) do
		if minetest.registered_items[tool] ~= nil then
			minetest.override_item(tool, {on_place = brush_use})
		end
	end
end
