-- The game taskverse generates from its game knowledge: every Minecraft 1.20 block and item as minecraft:<name>,
-- recipes with their counts, smelting and fuels, dig groups and tool tiers, drops, a flat map with Minecraft's
-- biomes, ores and trees, and Minecraft's mobs through the mobs_redo API. All of it is data (data.json, written by
-- `taskverse engine game build`); this file only registers that data. See docs/engine.md, "The generated game".

local modpath = minetest.get_modpath(minetest.get_current_modname())
local file = assert(io.open(modpath .. "/data.json", "rb"))
local data = minetest.parse_json(file:read("*a"))
file:close()
assert(data ~= nil and data.format == 1, "minecraft: data.json is not a game data file of format 1")

local WHITE = "taskverse_mc_white.png"

-- A plain colour on the one white tile (colours are "#rrggbb", checked when data.json is written).
local function tile(colour)
	return WHITE .. "^[colorize:" .. colour .. ":255"
end

minetest.register_item(":", {
	type = "none",
	wield_image = WHITE,
	wield_scale = {x = 1, y = 1, z = 2.5},
	tool_capabilities = data.hand,
})

-- Nodes -------------------------------------------------------------------------------------------------------

local function register_liquid(def, groups)
	local name = def.name
	local flowing = name .. "_flowing"
	local lava = name:sub(-4) == "lava"
	local common = {
		tiles = {tile(def.color)},
		special_tiles = {{name = tile(def.color), backface_culling = false}},
		use_texture_alpha = "blend",
		paramtype = "light",
		walkable = false,
		pointable = false,
		diggable = false,
		buildable_to = true,
		is_ground_content = false,
		drop = "",
		drowning = lava and 0 or 1,
		liquid_alternative_flowing = flowing,
		liquid_alternative_source = name,
		liquid_viscosity = lava and 7 or 1,
		liquid_renewable = not lava,
		light_source = lava and 14 or 0,
		damage_per_second = lava and 8 or 0,
		post_effect_color = {a = 100, r = 40, g = 60, b = 200},
	}
	local source = table.copy(common)
	source.description = def.description
	source.drawtype = "liquid"
	source.liquidtype = "source"
	source.groups = groups
	minetest.register_node(":" .. name, source)
	local flow = table.copy(common)
	flow.description = def.description .. " (flowing)"
	flow.drawtype = "flowingliquid"
	flow.liquidtype = "flowing"
	flow.paramtype2 = "flowingliquid"
	flow.groups = {not_in_creative_inventory = 1}
	minetest.register_node(":" .. flowing, flow)
end

local function place_as(block)
	return function(itemstack, placer, pointed_thing)
		local _, placed = minetest.item_place_node(ItemStack(block), placer, pointed_thing)
		if placed ~= nil and not minetest.is_creative_enabled(placer and placer:get_player_name() or "") then
			itemstack:take_item()
		end
		return itemstack
	end
end

for _, def in ipairs(data.nodes) do
	local groups = def.groups
	if def.drawtype == "liquid" then
		register_liquid(def, groups)
	else
		local plant = def.drawtype == "plantlike"
		minetest.register_node(":" .. def.name, {
			description = def.description,
			drawtype = def.drawtype,
			tiles = {tile(def.color)},
			inventory_image = plant and tile(def.color) or nil,
			paramtype = plant and "light" or nil,
			sunlight_propagates = plant or nil,
			walkable = not plant,
			buildable_to = plant or nil, -- a block placed on a plant replaces it
			diggable = groups.unbreakable == nil,
			is_ground_content = true,
			groups = groups,
			drop = def.drop,
			stack_max = def.stack,
			on_use = def.food and minetest.item_eat(def.food) or nil,
		})
	end
end

-- Items and tools -------------------------------------------------------------------------------------------

for _, def in ipairs(data.items) do
	local fields = {
		description = def.description,
		inventory_image = tile(def.color),
		stack_max = def.stack,
		tool_capabilities = def.tool_capabilities,
		on_use = def.food and minetest.item_eat(def.food, def.returns) or nil,
		on_place = def.places and place_as(def.places) or nil,
	}
	if def.type == "tool" then
		minetest.register_tool(":" .. def.name, fields)
	else
		minetest.register_craftitem(":" .. def.name, fields)
	end
end

-- Recipes, smelting, fuels ------------------------------------------------------------------------------------

for _, recipe in ipairs(data.crafts) do
	minetest.register_craft(recipe)
end

dofile(modpath .. "/furnace.lua")(data.furnace, tile)

-- The map: flat ground, Minecraft's biomes, ores and surface blocks ---------------------------------------------

for alias, target in pairs(data.mapgen_aliases) do
	minetest.register_alias(alias, target)
end

minetest.clear_registered_biomes()
minetest.clear_registered_ores()
minetest.clear_registered_decorations()

for _, biome in ipairs(data.biomes) do
	minetest.register_biome(biome)
end

for _, ore in ipairs(data.ores) do
	minetest.register_ore(ore)
end

-- A tree: a trunk four nodes high under a 3x3x2 crown of leaves, placed on the biome's ground.
local function tree_schematic(trunk, leaves)
	local size = {x = 3, y = 6, z = 3}
	local cells = {}
	for z = 0, 2 do
		for y = 0, 5 do
			for x = 0, 2 do
				local centre = x == 1 and z == 1
				local name = "air"
				if centre and y < 4 then
					name = trunk
				elseif y >= 3 and y <= 4 then
					name = leaves
				elseif y == 5 and centre then
					name = leaves
				end
				cells[#cells + 1] = {name = name, prob = name == "air" and 0 or 254}
			end
		end
	end
	return {size = size, data = cells}
end

local grounds = {}
for _, biome in ipairs(data.biomes) do
	grounds[biome.name] = biome.node_top
end

-- What the floors of the other dimensions are made of: their stone and their biomes' grounds.
local floors = {}
for _, biome in ipairs(data.biomes) do
	for name, layer in pairs(data.dimensions) do
		if biome.y_min == layer.y_min then
			floors[name] = floors[name] or {}
			table.insert(floors[name], biome.node_top)
			table.insert(floors[name], biome.node_stone)
		end
	end
end

for _, deco in ipairs(data.decorations) do
	local place_on = {}
	for _, biome in ipairs(deco.biomes) do
		place_on[#place_on + 1] = grounds[biome]
	end
	if deco.layer ~= nil then -- anywhere on the floor of another dimension's cavern
		place_on = floors[deco.layer]
	end
	local def = {
		name = deco.name,
		place_on = place_on,
		biomes = #deco.biomes > 0 and deco.biomes or nil,
		sidelen = 16,
		fill_ratio = deco.fill_ratio,
		y_min = deco.y_min or -31000,
		y_max = deco.y_max or 31000,
		-- in the Nether and the End: on the floors of their caverns, which the map generator carves
		flags = deco.floors and "all_floors" or nil,
	}
	if deco.deco_type == "tree" then
		def.deco_type = "schematic"
		def.schematic = tree_schematic(deco.trunk, deco.leaves)
		def.flags = "place_center_x, place_center_z" .. (deco.floors and ", all_floors" or "")
	else
		def.deco_type = "simple"
		def.decoration = deco.decoration
	end
	minetest.register_decoration(def)
end

dofile(modpath .. "/portals.lua")(data)

-- Mobs: through the mobs_redo API when it is loaded (load_mod_mobs = true) ------------------------------------

local mobs_api = rawget(_G, "mobs")
if mobs_api ~= nil and mobs_api.register_mob ~= nil then
	for _, mob in ipairs(data.mobs) do
		local texture = tile(mob.color)
		mobs_api:register_mob(":" .. mob.name, {
			type = mob.hostile and "monster" or "animal",
			passive = not mob.hostile,
			attack_type = "dogfight",
			damage = mob.damage,
			hp_min = mob.hp,
			hp_max = mob.hp,
			armor = 100,
			visual = "cube",
			visual_size = {x = 0.8, y = 0.8},
			collisionbox = {-0.4, -0.4, -0.4, 0.4, 0.4, 0.4},
			textures = {{texture, texture, texture, texture, texture, texture}},
			walk_velocity = 0,
			run_velocity = 0,
			walk_chance = 0,
			jump = false,
			fear_height = 0,
			water_damage = 0,
			lava_damage = 0,
			light_damage = 0,
			fall_damage = false,
			knock_back = false,
			makes_footstep_sound = false,
			drops = mob.drops,
		})
	end
end
