-- taskverse_dump: write the game's registry (items, recipes, fuels, ores, biomes, decorations, entities,
-- aliases) to <world>/taskverse_registry.json, then shut the server down.
--
-- Read by taskverse.engine.profile (Python), which normalises what minetest.write_json cannot say: it writes
-- every number as a float and every empty table as null. Tables here therefore hold only strings, numbers,
-- booleans and tables with either string keys or keys 1..n (never both, never holes).

local OUTPUT = "taskverse_registry.json"
local FORMAT = 1

local function translated(text)
	if type(text) ~= "string" or text == "" then
		return ""
	end
	return minetest.strip_colors(minetest.get_translated_string("en", text))
end

-- Keys of a table, sorted, so the JSON is the same on every run.
local function sorted_keys(t)
	local keys = {}
	for key in pairs(t) do
		keys[#keys + 1] = key
	end
	table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
	return keys
end

-- A copy keeping only string keys with number, string or boolean values (groups, damage_groups).
local function scalars(t)
	local out = {}
	for key, value in pairs(t or {}) do
		local kind = type(value)
		if type(key) == "string" and (kind == "number" or kind == "string" or kind == "boolean") then
			out[key] = value
		end
	end
	return out
end

-- A name or a list of names (ore wherein, decoration place_on), always as a list.
local function name_list(value)
	if type(value) == "string" then
		return {value}
	end
	local out = {}
	if type(value) == "table" then
		for _, name in ipairs(value) do
			out[#out + 1] = tostring(name)
		end
	end
	return out
end

local function tool_capabilities(caps)
	if type(caps) ~= "table" then
		return nil
	end
	local groupcaps = {}
	for group, cap in pairs(caps.groupcaps or {}) do
		local times = {}
		-- times are indexed by rating and often have holes (pick_wood: only [3]), so key them as strings
		for rating, seconds in pairs(cap.times or {}) do
			times[tostring(rating)] = seconds
		end
		groupcaps[group] = {
			times = times,
			uses = cap.uses or 0,
			maxlevel = cap.maxlevel or 0,
		}
	end
	return {
		full_punch_interval = caps.full_punch_interval or 1,
		max_drop_level = caps.max_drop_level or 0,
		groupcaps = groupcaps,
		damage_groups = scalars(caps.damage_groups),
	}
end

-- A node's drop: a plain item string, or {max_items, items = {{items, rarity, tools}}}.
local function drop_definition(drop)
	if type(drop) == "string" then
		return drop
	end
	if type(drop) ~= "table" then
		return nil
	end
	local items = {}
	for _, entry in ipairs(drop.items or {}) do
		items[#items + 1] = {
			items = name_list(entry.items),
			rarity = entry.rarity or 1,
			tools = name_list(entry.tools),
			inherit_color = entry.inherit_color or false,
		}
	end
	return {max_items = drop.max_items or 0, items = items}
end

-- What the item does beyond the engine's defaults when used, placed, right-clicked or punched: the fields its
-- own definition sets (the defaults come from a metatable). A task compiler needs these to know which "use"
-- and "interact" goals the game can observe.
local function callbacks(def)
	local out = {}
	for _, field in ipairs({"on_use", "on_place", "on_secondary_use", "on_rightclick", "on_punch"}) do
		if rawget(def, field) ~= nil then
			out[#out + 1] = field
		end
	end
	return out
end

local function item_entry(name, def)
	local entry = {
		name = name,
		type = def.type or "none",
		description = translated(def.description),
		groups = scalars(def.groups),
		stack_max = def.stack_max or 99,
		tool_capabilities = tool_capabilities(def.tool_capabilities),
	}
	entry.callbacks = callbacks(def)
	if def.type == "node" then
		-- nil means the node drops itself; "" means it drops nothing
		entry.drop = drop_definition(def.drop)
		entry.walkable = def.walkable ~= false
		entry.liquidtype = def.liquidtype or "none"
		entry.light_source = def.light_source or 0
	end
	return entry
end

-- Recipe cells are indexed 1..9 with holes for empty cells: fill them with "".
local function dense_cells(items)
	local last = 0
	for index in pairs(items or {}) do
		if type(index) == "number" and index > last then
			last = index
		end
	end
	local cells = {}
	for index = 1, last do
		cells[index] = items[index] or ""
	end
	return cells
end

-- "default:wood 4" -> "default:wood", 4 (without the ItemStack global: luacheck knows only minetest and core)
local function split_itemstring(text)
	local name, count = (text or ""):match("^(%S*)%s*(%d*)")
	return name or "", tonumber(count) or 1
end

-- Engine 5.6 quirks: a cooking recipe carries its cook time in `width` (whole seconds, rounded down; every
-- minetest_game cook time is whole), and fuel definitions come back as method "cooking" with an empty output
-- and the burn time in `width`. Fuels are listed on their own, with exact times from get_craft_result.
local function recipe_entry(recipe)
	local output, count = split_itemstring(recipe.output)
	if output == "" then
		return nil
	end
	local entry = {
		method = recipe.method,
		width = recipe.width or 0,
		items = dense_cells(recipe.items),
		output = output,
		count = count,
	}
	if recipe.method == "cooking" then
		entry.cooktime = entry.width
		entry.width = 1
	end
	return entry
end

local function fuel_entry(name)
	local result, leftover = minetest.get_craft_result({method = "fuel", width = 1, items = {name}})
	if not result or result.time <= 0 then
		return nil
	end
	local replacement = leftover and leftover.items and leftover.items[1]
	return {
		item = name,
		burntime = result.time,
		replacement = replacement and replacement:get_name() or "",
	}
end

local function ore_entry(def)
	return {
		ore = def.ore or "",
		ore_type = def.ore_type or "scatter",
		wherein = name_list(def.wherein),
		y_min = def.y_min or -31000,
		y_max = def.y_max or 31000,
		clust_scarcity = def.clust_scarcity or 0,
		clust_num_ores = def.clust_num_ores or 0,
		clust_size = def.clust_size or 0,
		biomes = name_list(def.biomes),
	}
end

local function biome_entry(def)
	return {
		name = def.name or "",
		node_top = def.node_top or "",
		depth_top = def.depth_top or 0,
		node_filler = def.node_filler or "",
		depth_filler = def.depth_filler or 0,
		node_stone = def.node_stone or "",
		node_water_top = def.node_water_top or "",
		node_riverbed = def.node_riverbed or "",
		node_dust = def.node_dust or "",
		y_min = def.y_min or -31000,
		y_max = def.y_max or 31000,
		heat_point = def.heat_point or 0,
		humidity_point = def.humidity_point or 0,
	}
end

local function decoration_entry(def)
	local entry = {
		name = def.name or "",
		deco_type = def.deco_type or "simple",
		place_on = name_list(def.place_on),
		decoration = name_list(def.decoration),
		schematic = "",
		biomes = name_list(def.biomes),
		y_min = def.y_min or -31000,
		y_max = def.y_max or 31000,
	}
	if type(def.schematic) == "string" then
		entry.schematic = def.schematic:match("([^/]+)$") or def.schematic
	elseif type(def.schematic) == "table" then
		entry.schematic = "<table>"
		-- a schematic given as a table names its nodes itself: list them (sorted, without air), as for .mts files
		local seen, nodes = {}, {}
		for _, cell in ipairs(def.schematic.data or {}) do
			local node = cell.name
			if node ~= nil and node ~= "air" and node ~= "ignore" and not seen[node] then
				seen[node] = true
				nodes[#nodes + 1] = node
			end
		end
		table.sort(nodes)
		if #nodes > 0 then
			entry.schematic_nodes = nodes
		end
	end
	return entry
end

local function entity_entry(name, def)
	local props = def.initial_properties or def
	return {
		name = name,
		visual = props.visual or "",
		physical = props.physical or false,
		hp_max = props.hp_max or 0,
	}
end

local function collect()
	local items, recipes, fuels = {}, {}, {}
	for _, name in ipairs(sorted_keys(minetest.registered_items)) do
		items[#items + 1] = item_entry(name, minetest.registered_items[name])
		for _, recipe in ipairs(minetest.get_all_craft_recipes(name) or {}) do
			recipes[#recipes + 1] = recipe_entry(recipe) -- nil (a fuel) adds nothing
		end
		fuels[#fuels + 1] = fuel_entry(name) -- nil when not a fuel
	end
	-- ores, biomes and decorations are keyed by opaque handles: pairs, never ipairs
	local ores, biomes, decorations = {}, {}, {}
	for _, def in pairs(minetest.registered_ores) do
		ores[#ores + 1] = ore_entry(def)
	end
	for _, def in pairs(minetest.registered_biomes) do
		biomes[#biomes + 1] = biome_entry(def)
	end
	for _, def in pairs(minetest.registered_decorations) do
		decorations[#decorations + 1] = decoration_entry(def)
	end
	local entities = {}
	for _, name in ipairs(sorted_keys(minetest.registered_entities)) do
		entities[#entities + 1] = entity_entry(name, minetest.registered_entities[name])
	end
	local aliases = {}
	for alias, target in pairs(minetest.registered_aliases) do
		aliases[#aliases + 1] = {alias = alias, target = target}
	end
	return {
		format = FORMAT,
		game = {
			mods = minetest.get_modnames(),
			mapgen = minetest.get_mapgen_setting("mg_name") or "",
		},
		items = items,
		recipes = recipes,
		fuels = fuels,
		ores = ores,
		biomes = biomes,
		decorations = decorations,
		entities = entities,
		aliases = aliases,
	}
end

local function dump()
	local text, err = minetest.write_json(collect())
	if not text then
		error("taskverse_dump: cannot serialise the registry: " .. tostring(err))
	end
	local path = minetest.get_worldpath() .. "/" .. OUTPUT
	if not minetest.safe_file_write(path, text) then
		error("taskverse_dump: cannot write " .. path)
	end
	minetest.log("action", "[taskverse_dump] wrote " .. path)
	minetest.request_shutdown("taskverse_dump done", false, 0)
end

-- Crafts are final once every mod has loaded; the first server step also has the map generator's settings.
minetest.register_on_mods_loaded(function()
	minetest.after(0, dump)
end)
