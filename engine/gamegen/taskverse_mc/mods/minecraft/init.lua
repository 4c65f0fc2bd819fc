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

-- A name's tiles from the game's texture table (engine/games/taskverse_mc/textures.yaml: top, bottom, sides;
-- the files are copied into textures/ by the game build), else its plain colour.
local TEXTURES = data.textures or {}
local function look(name, colour)
	return TEXTURES[name] or {tile(colour)}
end

minetest.register_item(":", {
	type = "none",
	wield_image = data.hand_image or WHITE,
	wield_scale = {x = 1, y = 1, z = 2.5},
	tool_capabilities = data.hand,
})

-- Nodes -------------------------------------------------------------------------------------------------------

local function register_liquid(def, groups)
	local name = def.name
	local flowing = name .. "_flowing"
	local lava = name:sub(-4) == "lava"
	local common = {
		tiles = look(name, def.color),
		special_tiles = {{name = look(name, def.color)[1], backface_culling = false}},
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
			tiles = look(def.name, def.color),
			inventory_image = plant and look(def.name, def.color)[1] or nil,
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
		inventory_image = look(def.name, def.color)[1],
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

-- Block variants: an item placed against a wall or into a block --------------------------------------------------

-- A block placed in the variant's form, as if the item were that block (the engine's own placement: the
-- on_placenode callbacks see the variant); the item is used up and what the variant gives back is given.
local function place_form(itemstack, placer, variant, pointed_thing)
	local _, placed = minetest.item_place_node(ItemStack(variant.block), placer, pointed_thing)
	if placed == nil then
		return false
	end
	if not minetest.is_creative_enabled(placer and placer:get_player_name() or "") then
		itemstack:take_item()
		local inv = placer and placer:get_inventory()
		for _, item in ipairs(variant.returns) do
			local left = inv and inv:add_item("main", item) or ItemStack(item)
			if not left:is_empty() then
				minetest.add_item(placer:get_pos(), left)
			end
		end
	end
	return true
end

-- On a wall (the pointed face is a side): the wall form. On the block it goes into (a cake, a flower pot, a
-- cauldron): that block becomes the variant. Anything else: the item's own placement.
local function place_variants(variants, fallback)
	return function(itemstack, placer, pointed_thing)
		if pointed_thing.type == "node" then
			local under = pointed_thing.under
			local target = minetest.get_node(under).name
			for _, variant in ipairs(variants) do
				if variant.into == target then
					minetest.remove_node(under)
					local into = {type = "node", under = {x = under.x, y = under.y - 1, z = under.z}, above = under}
					if not place_form(itemstack, placer, variant, into) then
						minetest.set_node(under, {name = target})
					end
					return itemstack
				end
			end
			for _, variant in ipairs(variants) do
				if variant.wall and pointed_thing.above.y == under.y then
					place_form(itemstack, placer, variant, pointed_thing)
					return itemstack
				end
			end
		end
		return fallback(itemstack, placer, pointed_thing)
	end
end

local variants_of = {}
for _, variant in ipairs(data.variants) do
	variants_of[variant.item] = variants_of[variant.item] or {}
	table.insert(variants_of[variant.item], variant)
end
for item, variants in pairs(variants_of) do
	local def = minetest.registered_items[item]
	if def ~= nil then
		minetest.override_item(item, {on_place = place_variants(variants, def.on_place or minetest.item_place)})
	end
end

-- Changes: blocks that turn into others by themselves (concrete powder in water, coral out of it) --------------

local WATER = {[data.water] = true, [data.water .. "_flowing"] = true}
local FACES = {
	{x = 1, y = 0, z = 0}, {x = -1, y = 0, z = 0}, {x = 0, y = 1, z = 0},
	{x = 0, y = -1, z = 0}, {x = 0, y = 0, z = 1}, {x = 0, y = 0, z = -1},
}

local function touches_water(pos)
	for _, face in ipairs(FACES) do
		if WATER[minetest.get_node(vector.add(pos, face)).name] then
			return true
		end
	end
	return false
end

-- Whether a block may change where it is: touching water, or away from it, as the change asks.
local function may_change(change, pos)
	return touches_water(pos) == (change.water == "touching")
end

local powders = {}
for _, change in ipairs(data.changes) do
	local function become(pos)
		if minetest.get_node(pos).name == change.block and may_change(change, pos) then
			minetest.swap_node(pos, {name = change.becomes, param2 = minetest.get_node(pos).param2})
		end
	end
	minetest.override_item(change.block, {
		on_construct = function(pos)
			if not may_change(change, pos) then
				return
			end
			if change.seconds > 0 then
				minetest.get_node_timer(pos):start(change.seconds)
			else
				become(pos)
			end
		end,
		on_timer = function(pos)
			become(pos)
			return false
		end,
	})
	if change.water == "touching" and change.seconds == 0 then
		powders[change.block] = change.becomes
	end
end

-- Water that reaches a block later (flowing onto concrete powder) changes it too, within a second.
local powder_names = {}
for name in pairs(powders) do
	powder_names[#powder_names + 1] = name
end
if #powder_names > 0 then
	minetest.register_abm({
		label = "concrete powder hardens in water",
		nodenames = powder_names,
		neighbors = {data.water, data.water .. "_flowing"},
		interval = 1,
		chance = 1,
		action = function(pos, node)
			if touches_water(pos) then
				minetest.swap_node(pos, {name = powders[node.name], param2 = node.param2})
			end
		end,
	})
end

-- Stripping: an axe used on a log strips it (one use of the axe) ---------------------------------------------

-- A tool used on a block (not digging it) wears one of its uses, as in survival; nothing in creative.
local function wear_one_use(itemstack, user)
	if minetest.is_creative_enabled(user and user:get_player_name() or "") then
		return
	end
	local uses = 0
	for _, cap in pairs(itemstack:get_tool_capabilities().groupcaps or {}) do
		uses = math.max(uses, cap.uses or 0)
	end
	if uses > 0 then
		itemstack:add_wear(math.ceil(65535 / uses))
	end
end

local function strip(itemstack, placer, pointed_thing)
	if pointed_thing.type ~= "node" then
		return itemstack
	end
	local node = minetest.get_node(pointed_thing.under)
	local stripped = data.stripping.pairs[node.name]
	if stripped == nil or minetest.is_protected(pointed_thing.under, placer and placer:get_player_name() or "") then
		return itemstack
	end
	minetest.swap_node(pointed_thing.under, {name = stripped, param2 = node.param2})
	wear_one_use(itemstack, placer)
	return itemstack
end

for _, tool in ipairs(data.stripping.tools) do
	if minetest.registered_items[tool] ~= nil then
		minetest.override_item(tool, {on_place = strip})
	end
end

-- Recipes, smelting, fuels ------------------------------------------------------------------------------------

for _, recipe in ipairs(data.crafts) do
	minetest.register_craft(recipe)
end

dofile(modpath .. "/furnace.lua")(data.furnace, look)
dofile(modpath .. "/brewing.lua")(data.brewing, look)
dofile(modpath .. "/tool_uses.lua")(data.tool_uses, wear_one_use)
dofile(modpath .. "/fills.lua")(data.fills)
dofile(modpath .. "/hand_uses.lua")(data.hand_uses)
dofile(modpath .. "/enchanting.lua")(data.enchanting)
dofile(modpath .. "/screens.lua")(data.screens or {})

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

-- A tree: a trunk four nodes high under a 3x3x2 crown of leaves, placed on the biome's ground; a bee nest, if
-- given, on the trunk's south side just under the leaves (where Minecraft's BeehiveDecorator puts it).
local function tree_schematic(trunk, leaves, nest)
	local size = {x = 3, y = 6, z = 3}
	local cells = {}
	for z = 0, 2 do
		for y = 0, 5 do
			for x = 0, 2 do
				local centre = x == 1 and z == 1
				local name = "air"
				if centre and y < 4 then
					name = trunk
				elseif nest ~= nil and x == 1 and z == 2 and y == 2 then
					name = nest
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
		def.schematic = tree_schematic(deco.trunk, deco.leaves, deco.nest)
		def.flags = "place_center_x, place_center_z" .. (deco.floors and ", all_floors" or "")
	else
		def.deco_type = "simple"
		def.decoration = deco.decoration
	end
	minetest.register_decoration(def)
end

dofile(modpath .. "/structures.lua")(data, look, grounds, floors)

dofile(modpath .. "/portals.lua")(data)
dofile(modpath .. "/honey.lua")(data.honey)
dofile(modpath .. "/storing.lua")(data.storing)

-- Mobs: through the mobs_redo API when it is loaded (load_mod_mobs = true) ------------------------------------

local mobs_api = rawget(_G, "mobs")
if mobs_api ~= nil and mobs_api.register_mob ~= nil then
	for _, mob in ipairs(data.mobs) do
		-- a humanoid wears the player's model, every other mob the body the game build generated for it (its mesh
		-- in models/, its picture in textures/), sized by its plan: `box` is its collision box in nodes
		local tiles = look(mob.name, mob.color)
		local humanoid = mob.box == nil
		mobs_api:register_mob(":" .. mob.name, {
			type = mob.hostile and "monster" or "animal",
			passive = not mob.hostile,
			attack_type = "dogfight",
			damage = mob.damage,
			hp_min = mob.hp,
			hp_max = mob.hp,
			armor = 100,
			visual = "mesh",
			mesh = mob.model,
			visual_size = humanoid and {x = 0.8, y = 0.8} or {x = 1, y = 1},
			collisionbox = mob.box or {-0.4, -0.4, -0.4, 0.4, 0.4, 0.4},
			textures = {{tiles[1]}},
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

dofile(modpath .. "/animals.lua")(data)
local on_buttons, shows_form = dofile(modpath .. "/buttons.lua")
dofile(modpath .. "/trading.lua")(data.trading, on_buttons)
dofile(modpath .. "/stonecutting.lua")(data.stonecutting or {}, on_buttons, shows_form)
dofile(modpath .. "/anvil.lua")(data.anvil or {}, on_buttons, shows_form)
