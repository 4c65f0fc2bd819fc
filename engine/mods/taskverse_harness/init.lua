-- taskverse_harness: plays a scripted plan as the connected player, through the engine's own code paths.
--
-- Reads <world>/taskverse_plan.json (written by `taskverse engine run`), waits until the taskverse runtime has
-- set up the player's start, then runs the steps one per server step: digging with minetest.node_dig, placing
-- with the item's on_place, crafting on the player's craft grid (get_craft_result + on_craft), cooking in a
-- real furnace and brewing in a real brewing stand (their own node timers), punching mobs, picking up drops,
-- eating, using items, right-clicking, moving. After the plan (or when the task is done) it writes
-- <world>/taskverse_result.json and shuts the server down. The plan format is documented in docs/engine.md.
-- With the server setting `taskverse_interactive`, an agent plays the same actions one at a time (agent.lua).
-- With `taskverse_plans_in_turn`, plans of the task are played one after another in this server: plan n is
-- <world>/taskverse_plan_<n>.json and its result taskverse_result_<n>.json; after a result the harness waits for the
-- next plan and starts the episode again from its start (the runtime's api.restart) before playing it, or, when
-- this server cannot give the start back whole, writes that plan's result with `fresh` (and the reason) and shuts
-- down: the runner plays it on a fresh world.

local PLAN_FILE = "taskverse_plan.json"
local RESULT_FILE = "taskverse_result.json"
local PLANS_IN_TURN = minetest.settings:get_bool("taskverse_plans_in_turn", false)
local READY_TIMEOUT = 20.0
local FORMAT = 1

local runtime = rawget(_G, "taskverse")
local json = runtime.json

local function worldfile(name)
	return minetest.get_worldpath() .. "/" .. name
end

local turn = 1 -- the plan played (plans in turn)

local function plan_file()
	return PLANS_IN_TURN and ("taskverse_plan_" .. turn .. ".json") or PLAN_FILE
end

local function read_plan()
	local file = plan_file()
	local handle = io.open(worldfile(file), "r")
	if handle == nil then
		return nil, "no " .. file .. " in the world folder"
	end
	local text = handle:read("*a")
	handle:close()
	local plan = minetest.parse_json(text)
	if type(plan) ~= "table" or type(plan.steps) ~= "table" then
		return nil, file .. " is not a plan (a JSON object with a steps list)"
	end
	return plan
end

-- The runner writes the plan after the server has started, before the player joins: read it on join.
local plan
local result = {format = FORMAT, steps = {}, completed = false}
local started = nil
local clock = 0.0
local player_name = nil -- the player playing the plans
local awaiting = false  -- plans in turn: a result is written, the next plan is looked for

local next_plan -- defined below, with the plan's steps

minetest.register_globalstep(function(dtime)
	clock = clock + dtime
	if awaiting then
		local handle = io.open(worldfile(plan_file()), "r")
		if handle ~= nil then
			handle:close()
			awaiting = false
			next_plan()
		end
	end
end)

local function finish()
	result.status = runtime.status()
	result.seconds = started and (clock - started) or 0
	local file = PLANS_IN_TURN and ("taskverse_result_" .. turn .. ".json") or RESULT_FILE
	minetest.safe_file_write(worldfile(file), json.encode(result) .. "\n")
	if PLANS_IN_TURN and not result.fresh and player_name ~= nil and minetest.get_player_by_name(player_name) then
		turn = turn + 1
		awaiting = true
		return
	end
	minetest.request_shutdown("taskverse: episode done", false, 0)
end

-- The next plan, read into `plan`; false when there is none (the result says why, and the episode finishes).
local function take_plan()
	local err
	plan, err = read_plan()
	if plan == nil then
		result.error = err
		finish()
		return false
	end
	return true
end

-------------------------------------------------------------------------------------------------------------
-- Helpers
-------------------------------------------------------------------------------------------------------------

local function vec(list)
	return {x = list[1], y = list[2], z = list[3]}
end

local function feet(player)
	return vector.round(player:get_pos())
end

-- Put a stack of `item` (or an empty slot for "") in the hand; false if the inventory has none.
local function wield(player, item)
	local inv = player:get_inventory()
	local index = player:get_wield_index()
	local current = inv:get_stack("main", index)
	if (item == "" and current:is_empty()) or (item ~= "" and current:get_name() == item) then
		return true
	end
	for i, stack in ipairs(inv:get_list("main")) do
		if i ~= index and ((item == "" and stack:is_empty()) or (item ~= "" and stack:get_name() == item)) then
			inv:set_stack("main", index, stack)
			inv:set_stack("main", i, current)
			return true
		end
	end
	return false
end

local function tool_caps(player)
	local stack = player:get_wielded_item()
	return stack:get_tool_capabilities()
end

-- Whether a node is ready for what the player does to it: a game may say a node is not, for now (its definition's
-- `_taskverse_ready(pos)`: an emptied bee nest), and the player then looks for another.
local function ready(pos, name)
	local def = minetest.registered_nodes[name]
	return def == nil or def._taskverse_ready == nil or def._taskverse_ready(pos)
end

-- The ready node nearest to `base` of those at `positions`.
local function nearest_ready(positions, base, name)
	local best, best_d
	for _, pos in ipairs(positions) do
		local d = vector.distance(pos, base)
		if (best == nil or d < best_d) and ready(pos, name) then
			best, best_d = pos, d
		end
	end
	return best
end

local function find_node(player, step, ready_only)
	if step.pos ~= nil then
		return vec(step.pos)
	end
	local base = feet(player)
	if step.at ~= nil then
		return vector.add(base, vec(step.at))
	end
	local def = minetest.registered_nodes[step.node or ""]
	if ready_only and def ~= nil and def._taskverse_ready ~= nil then
		local r = step.radius or 8
		return nearest_ready(minetest.find_nodes_in_area(vector.subtract(base, r), vector.add(base, r), {step.node}),
			base, step.node)
	end
	return minetest.find_node_near(base, step.radius or 8, {step.node}, true)
end

-- The game's own name of the biome at a position ("" where there is none).
local function game_biome(pos)
	local data = minetest.get_biome_data(pos)
	return data ~= nil and data.biome ~= nil and minetest.get_biome_name(data.biome) or ""
end

-- The nearest object of entity `name` within `radius` (12), for which `keep(entity)` holds when given.
local function find_object(player, name, radius, keep)
	local pos = player:get_pos()
	local best, best_d
	for _, obj in ipairs(minetest.get_objects_inside_radius(pos, radius or 12)) do
		local entity = obj:get_luaentity()
		if entity ~= nil and entity.name == name and (keep == nil or keep(entity)) then
			local d = vector.distance(pos, obj:get_pos())
			if best == nil or d < best_d then
				best, best_d = obj, d
			end
		end
	end
	return best
end

-- A free spot near the player with something solid below (to place a block or a furnace), nearest first,
-- never the player's own feet or head, nor on a block that does something when used (a structure's chest: a
-- place pointed at it would open it instead).
local function free_spot(player)
	local base = feet(player)
	local best, best_d
	local r = 4
	local air = minetest.find_nodes_in_area(vector.subtract(base, r), vector.add(base, r), {"air"})
	for _, spot in ipairs(air) do
		local below = minetest.registered_nodes[minetest.get_node({x = spot.x, y = spot.y - 1, z = spot.z}).name]
		local d = vector.distance(spot, base)
		local own = spot.x == base.x and spot.z == base.z and (spot.y == base.y or spot.y == base.y + 1)
		if not own and d >= 1 and below ~= nil and below.walkable and below.on_rightclick == nil and
				(best == nil or d < best_d) then
			best, best_d = spot, d
		end
	end
	return best
end

local SIDES = {{x = 1, y = 0, z = 0}, {x = -1, y = 0, z = 0}, {x = 0, y = 0, z = 1}, {x = 0, y = 0, z = -1}}

-- Whether a right-click on the node at pos opens it (a chest, a grindstone: the game's screens), which a click that
-- places a block against it would do instead of placing.
local function opens(pos)
	local def = minetest.registered_nodes[minetest.get_node(pos).name]
	return def ~= nil and def.on_rightclick ~= nil
end

-- Whether a block placed against the node at pos goes into it instead (air, water, a plant: the engine's
-- item_place_node puts a block into a buildable_to node it points at), not beside it.
local function replaced(pos)
	local def = minetest.registered_nodes[minetest.get_node(pos).name]
	return def == nil or def.buildable_to == true
end

-- Where a block placed at spot is pointed at: against the node below, unless a right-click opens that one (a
-- player would not click it) or the block would go into it (a dip, a crop: one below spot); then against a solid
-- side of spot that does not open; else into spot itself, which is replaceable (air, a crop), as a click on a
-- replaceable node puts the block in its place.
local function pointed_at(spot)
	local below = {x = spot.x, y = spot.y - 1, z = spot.z}
	if not opens(below) and not replaced(below) then
		return {type = "node", under = below, above = spot}
	end
	for _, d in ipairs(SIDES) do
		local pos = vector.add(spot, d)
		local def = minetest.registered_nodes[minetest.get_node(pos).name]
		if def ~= nil and def.walkable and not opens(pos) then
			return {type = "node", under = pos, above = spot}
		end
	end
	return {type = "node", under = spot, above = {x = spot.x, y = spot.y + 1, z = spot.z}}
end

local function place_at(player, item, spot, under)
	if not wield(player, item) then
		return false, "no " .. item .. " in the inventory"
	end
	local stack = player:get_wielded_item()
	local def = stack:get_definition()
	local pointed = under ~= nil and {type = "node", under = under, above = spot} or pointed_at(spot)
	local before = stack:get_count()
	local on_place = def.on_place or minetest.item_place
	local out = on_place(stack, player, pointed)
	if out ~= nil then
		player:set_wielded_item(out)
	end
	local after = player:get_wielded_item()
	if after:get_name() == item and after:get_count() >= before then
		return false, "placing " .. item .. " at " .. minetest.pos_to_string(spot) .. " did nothing"
	end
	return true
end

-------------------------------------------------------------------------------------------------------------
-- Actions: each calls done(ok, error) once, now or later
-------------------------------------------------------------------------------------------------------------

local actions = {}

function actions.wield(player, step, done)
	if wield(player, step.item or "") then
		return done(true)
	end
	done(false, "no " .. tostring(step.item) .. " in the inventory")
end

-- How often a dig that has used up the nodes in reach walks on to more of them (a dig with a search radius of
-- at least SEARCH_RADIUS, which follows a goto_node: scattered blocks such as a badlands' terracotta).
local DIG_WALKS = 5
local SEARCH_RADIUS = 12
-- A dig for a chance drop (step.item: gravel until it gives flint) gives up after this many nodes per item,
-- unless the step says how many tries it takes (step.tries, from the drop's chance).
local CHANCE_DIGS = 60
-- Hits a kill gives at most (the ender dragon's 200 health takes 200 punches of the hand).
local MAX_HITS = 1000
-- A kill for a chance drop (step.item: skeletons until one drops a bone) gives up after this many kills per item,
-- unless the step says how many (step.tries).
local CHANCE_KILLS = 40

local function held_count(player, item)
	local total = 0
	for _, stack in ipairs(player:get_inventory():get_list("main")) do
		if stack:get_name() == item then
			total = total + stack:get_count()
		end
	end
	return total
end

-- Dig one node of the step's kind near the player: true, or false and why.
-- The furnaces `cook` uses (minetest_game's, taskverse_mc's), by name.
local FURNACES = {"default:furnace", "default:furnace_active", "minecraft:furnace"}
local furnace_names = {}
for _, name in ipairs(FURNACES) do
	furnace_names[name] = true
end

local function dig_one(player, step, pos)
	local node = minetest.get_node(pos)
	if step.node ~= nil and node.name ~= step.node then
		return false, "the node at " .. minetest.pos_to_string(pos) .. " is " .. node.name
	end
	local def = minetest.registered_nodes[node.name]
	if def == nil or node.name == "air" then
		return false, "nothing to dig at " .. minetest.pos_to_string(pos)
	end
	local params = minetest.get_dig_params(def.groups or {}, tool_caps(player))
	if not params.diggable then
		-- as the client does: what the wielded item cannot dig, the hand may
		params = minetest.get_dig_params(def.groups or {}, minetest.registered_items[""].tool_capabilities)
	end
	if not params.diggable then
		return false, "cannot dig " .. node.name .. " with " ..
			(player:get_wielded_item():get_name() ~= "" and player:get_wielded_item():get_name() or "bare hands")
	end
	if furnace_names[node.name] then
		-- the input and fuel an earlier cook left in a furnace come back to the player first (a player empties it
		-- through its form; the furnace cannot be dug holding them)
		local furnace_inv = minetest.get_meta(pos):get_inventory()
		for _, list in ipairs({"src", "fuel"}) do
			for index, stack in ipairs(furnace_inv:get_list(list) or {}) do
				if not stack:is_empty() then
					furnace_inv:set_stack(list, index, ItemStack(""))
					local left = player:get_inventory():add_item("main", stack)
					if not left:is_empty() then
						minetest.add_item(player:get_pos(), left)
					end
				end
			end
		end
	end
	if not minetest.node_dig(pos, node, player) then
		return false, "the engine refused to dig " .. node.name
	end
	runtime.poll(player)
	return true
end

-- `count` nodes, or (with step.item) nodes until `count` more of that item are held.
function actions.dig(player, step, done, record, progress)
	if step.tool ~= nil and not wield(player, step.tool) then
		return done(false, "no " .. step.tool .. " to dig with")
	end
	progress = progress or {walks = 0, dug = 0, goal = step.item and held_count(player, step.item) + (step.count or 1)}
	local function finished()
		if progress.goal ~= nil then
			return held_count(player, step.item) >= progress.goal
		end
		return progress.dug >= (step.count or 1)
	end
	while not finished() do
		if progress.goal ~= nil and progress.dug >= (step.tries or CHANCE_DIGS * (step.count or 1)) then
			return done(false, progress.dug .. " " .. tostring(step.node) .. " dug and still fewer than " ..
				(step.count or 1) .. " " .. step.item)
		end
		local pos = find_node(player, step)
		if pos == nil and step.node ~= nil and (step.radius or 8) >= SEARCH_RADIUS and progress.walks < DIG_WALKS then
			progress.walks = progress.walks + 1
			return actions.goto_node(player, {node = step.node, radius = 32, vertical = 12}, function(ok, err)
				if not ok then
					return done(false, err)
				end
				local current = minetest.get_player_by_name(player:get_player_name())
				if current ~= nil then
					actions.dig(current, step, done, record, progress)
				end
			end, record)
		end
		if pos == nil then
			return done(false, "no " .. tostring(step.node) .. " within " .. (step.radius or 8) .. " nodes")
		end
		local ok, err = dig_one(player, step, pos)
		if not ok then
			return done(false, err)
		end
		progress.dug = progress.dug + 1
	end
	done(true)
end

function actions.place(player, step, done, record)
	for _ = 1, step.count or 1 do
		local spot, against
		if step.on ~= nil then
			-- point at a node (a rail for a cart): the item's on_place decides where it goes
			local under = minetest.find_node_near(feet(player), step.radius or 6, {step.on}, true)
			if under == nil then
				return done(false, "no " .. step.on .. " to place " .. step.item .. " on")
			end
			local ok, err = place_at(player, step.item, {x = under.x, y = under.y + 1, z = under.z}, under)
			if not ok then
				return done(false, err)
			end
			runtime.poll(player)
			return done(true)
		elseif step.beside ~= nil then
			-- beside a node (concrete powder beside water): a spot next to it on solid ground, air or something
			-- the item replaces (flowing water)
			local node = minetest.find_node_near(feet(player), step.radius or 6, {step.beside}, true)
			if node == nil then
				return done(false, "no " .. step.beside .. " to place " .. step.item .. " beside")
			end
			for _, d in ipairs({{x = 1, y = 0, z = 0}, {x = -1, y = 0, z = 0}, {x = 0, y = 0, z = 1}, {x = 0, y = 0, z = -1}}) do
				local side = vector.add(node, d)
				local def = minetest.registered_nodes[minetest.get_node(side).name]
				local below = minetest.registered_nodes[minetest.get_node({x = side.x, y = side.y - 1, z = side.z}).name]
				if spot == nil and def ~= nil and def.buildable_to and below ~= nil and
						below.walkable then
					spot = side
				end
			end
			if spot == nil then
				return done(false, "no spot beside " .. step.beside .. " to place " .. step.item .. " on")
			end
		elseif step.wall then
			-- against a wall: the side of the ground in a pocket opened beside the player, as a hole dug there
			-- would be (no items, no events; the step's record says `opened`): the item's on_place sees a side
			local above = free_spot(player)
			local pocket = above and {x = above.x, y = above.y - 1, z = above.z}
			local under
			for _, d in ipairs({{x = 1, y = 0, z = 0}, {x = -1, y = 0, z = 0}, {x = 0, y = 0, z = 1}, {x = 0, y = 0, z = -1}}) do
				local side = pocket and vector.add(pocket, d)
				local def = side and minetest.registered_nodes[minetest.get_node(side).name]
				if under == nil and def ~= nil and def.walkable then
					under = side
				end
			end
			if under == nil then
				return done(false, "no ground beside the player to place " .. step.item .. " against")
			end
			minetest.remove_node(pocket)
			record.opened = (record.opened or 0) + 1
			spot, against = pocket, under
		elseif step.pos ~= nil then
			spot = vec(step.pos)
		elseif step.at ~= nil then
			spot = vector.add(feet(player), vec(step.at))
		else
			spot = free_spot(player)
		end
		if spot == nil then
			return done(false, "no free spot to place " .. step.item)
		end
		minetest.load_area(vector.subtract(spot, 1), vector.add(spot, 1)) -- as for a cook
		local there = minetest.get_node(spot)
		local there_def = minetest.registered_nodes[there.name]
		if (step.at ~= nil or step.pos ~= nil) and there.name ~= "air" and there_def ~= nil and
				not there_def.buildable_to then
			-- something stands where the block goes (a pumpkin at the start): the player digs it away first
			minetest.node_dig(spot, there, player)
			runtime.poll(player)
		end
		local ok, err = place_at(player, step.item, spot, against)
		if not ok then
			return done(false, err)
		end
		runtime.poll(player)
	end
	done(true)
end

-- The inventory items that fill a recipe cell (an item name or "group:a,b").
local function fits(name, wanted)
	if wanted:sub(1, 6) ~= "group:" then
		return name == wanted
	end
	for group in wanted:sub(7):gmatch("[^,]+") do
		if minetest.get_item_group(name, group) == 0 then
			return false
		end
	end
	return true
end

-- Lay one recipe out on the craft grid from the main inventory; nil and a reason if something is missing.
-- A group cell takes the first of `prefer` that fits, else the fitting item held most (then the last by name).
local function lay_out(inv, recipe, prefer)
	local grid = {}
	for i = 1, 9 do
		grid[i] = ""
	end
	local taken = {}
	local main = inv:get_list("main")
	local counts = {}
	for i, stack in ipairs(main) do
		counts[i] = stack:get_count()
	end
	local width = recipe.width or 0
	local next_cell = 1
	for i = 1, 9 do
		local wanted = recipe.items[i]
		if wanted ~= nil and wanted ~= "" then
			local cell
			if width == 0 then
				cell = next_cell
				next_cell = next_cell + 1
			else
				cell = math.floor((i - 1) / width) * 3 + (i - 1) % width + 1
			end
			-- of the items that fit: a preferred one, else the one held most (then the last by name)
			local totals = {}
			for slot, stack in ipairs(main) do
				if counts[slot] > 0 and fits(stack:get_name(), wanted) then
					totals[stack:get_name()] = (totals[stack:get_name()] or 0) + counts[slot]
				end
			end
			local best
			for _, name in ipairs(prefer or {}) do
				if totals[name] ~= nil then
					best = name
					break
				end
			end
			if best == nil then
				for name, total in pairs(totals) do
					if best == nil or total > totals[best] or (total == totals[best] and name > best) then
						best = name
					end
				end
			end
			local found = nil
			for slot, stack in ipairs(main) do
				if best ~= nil and counts[slot] > 0 and stack:get_name() == best then
					found = slot
					break
				end
			end
			if found == nil then
				return nil, "no " .. wanted
			end
			counts[found] = counts[found] - 1
			grid[cell] = main[found]:get_name()
			taken[#taken + 1] = found
		end
	end
	return grid, taken
end

-- Recipes of an item, those made only of preferred items (and groups) first: where a game has one recipe per
-- material (taskverse_mc's sticks from each kind of planks), the plan names the material it set aside.
local function recipes_for(item, prefer)
	local recipes = minetest.get_all_craft_recipes(item) or {}
	if prefer == nil or #prefer == 0 then
		return recipes
	end
	local wanted = {}
	for _, name in ipairs(prefer) do
		wanted[name] = true
	end
	local first, rest = {}, {}
	for _, recipe in ipairs(recipes) do
		local own = true
		for _, cell in pairs(recipe.items or {}) do
			if cell ~= "" and cell:sub(1, 6) ~= "group:" and not wanted[cell] then
				own = false
			end
		end
		local list = own and first or rest
		list[#list + 1] = recipe
	end
	for _, recipe in ipairs(rest) do
		first[#first + 1] = recipe
	end
	return first
end

local function craft_once(player, item, prefer)
	local inv = player:get_inventory()
	local recipes = recipes_for(item, prefer)
	local missing = "no recipe"
	for _, recipe in ipairs(recipes) do
		if recipe.method == "normal" then
			local grid, taken = lay_out(inv, recipe, prefer)
			if grid == nil then
				missing = taken
			else
				local stacks = {}
				for i = 1, 9 do
					stacks[i] = ItemStack(grid[i])
				end
				local output, decremented = minetest.get_craft_result({method = "normal", width = 3, items = stacks})
				if output.item:get_name() == item then
					for _, slot in ipairs(taken) do
						local stack = inv:get_stack("main", slot)
						stack:take_item(1)
						inv:set_stack("main", slot, stack)
					end
					inv:set_size("craft", 9)
					inv:set_width("craft", 3)
					inv:set_list("craft", stacks)
					local old = inv:get_list("craft")
					local crafted = minetest.on_craft(output.item, player, old, inv)
					for _, rest in ipairs(decremented.items) do
						if not rest:is_empty() then
							inv:add_item("main", rest)
						end
					end
					inv:set_list("craft", {})
					local left = inv:add_item("main", crafted)
					if not left:is_empty() then
						minetest.add_item(player:get_pos(), left)
					end
					return true
				end
				missing = "the grid does not make " .. item
			end
		end
	end
	return false, "cannot craft " .. item .. ": " .. missing
end

function actions.craft(player, step, done)
	for _ = 1, step.count or 1 do
		local ok, err = craft_once(player, step.item, step.ingredients)
		if not ok then
			return done(false, err)
		end
		runtime.poll(player)
	end
	done(true)
end

-- minetest_game's furnace (two nodes: idle and active) and taskverse_mc's; the first registered one is placed

-- How far away a furnace the player set up is still used (a dig may walk on to more blocks after it was placed).
local FURNACE_WALK = 64

local function furnace_item()
	for _, name in ipairs(FURNACES) do
		if minetest.registered_nodes[name] ~= nil then
			return name
		end
	end
	return FURNACES[1]
end

local function fuel_in(inv, wanted)
	for _, stack in ipairs(inv:get_list("main")) do
		if not stack:is_empty() and (wanted == nil or stack:get_name() == wanted) then
			local fuel = minetest.get_craft_result({method = "fuel", width = 1, items = {ItemStack(stack:get_name())}})
			if fuel.time > 0 then
				return stack:get_name(), fuel.time
			end
		end
	end
	return nil
end

function actions.cook(player, step, done)
	local count = step.count or 1
	local inv = player:get_inventory()
	-- back at the start after a long way, the map there may have been unloaded (unused for 29 s): load it
	minetest.load_area(vector.subtract(feet(player), 6), vector.add(feet(player), 6))
	local pos = minetest.find_node_near(feet(player), 6, FURNACES, true)
	if pos == nil and not inv:contains_item("main", furnace_item()) then
		-- the furnace the player set up before walking on to more blocks of a dig: it goes back to it
		pos = minetest.find_node_near(feet(player), FURNACE_WALK, FURNACES, true)
	end
	if pos == nil then
		local spot = free_spot(player)
		if spot == nil and inv:contains_item("main", furnace_item()) then
			-- in a one-wide shaft (an ore dug out deep down) there is no free spot: clear one beside the feet
			spot = vector.add(feet(player), {x = 1, y = 0, z = 0})
			minetest.remove_node(spot)
		end
		if spot == nil or not inv:contains_item("main", furnace_item()) then
			return done(false, "no furnace nearby and none to place")
		end
		local ok, err = place_at(player, furnace_item(), spot)
		if not ok then
			return done(false, err)
		end
		pos = spot
	end
	if inv:get_stack("main", player:get_wield_index()):get_name() == furnace_item() then
		wield(player, "")
	end
	local cooked = minetest.get_craft_result({method = "cooking", width = 1, items = {ItemStack(step.item)}})
	if cooked.time == 0 then
		return done(false, step.item .. " does not cook into anything")
	end
	if not inv:contains_item("main", ItemStack(step.item .. " " .. count)) then
		return done(false, "fewer than " .. count .. " " .. step.item .. " in the inventory")
	end
	-- the fuel, kind by kind with how many of each burn: the step's `fuels` (per cooking), else as many of `fuel`
	-- (or of the first fuel held) as the cooking takes
	local burns = {}
	if step.fuels ~= nil then
		local kinds = {}
		for kind in pairs(step.fuels) do
			kinds[#kinds + 1] = kind
		end
		table.sort(kinds)
		for _, kind in ipairs(kinds) do
			local burn = minetest.get_craft_result({method = "fuel", width = 1, items = {ItemStack(kind)}}).time
			if burn == 0 then
				return done(false, kind .. " does not burn")
			end
			burns[#burns + 1] = {name = kind, count = step.fuels[kind] * count, time = burn}
		end
	else
		local fuel, burn = fuel_in(inv, step.fuel)
		if fuel == nil then
			return done(false, "no fuel" .. (step.fuel and (" " .. step.fuel) or "") .. " in the inventory")
		end
		burns[1] = {name = fuel, count = math.ceil(cooked.time * count / burn), time = burn}
	end
	for _, fuel in ipairs(burns) do
		if not inv:contains_item("main", ItemStack(fuel.name .. " " .. fuel.count)) then
			return done(false, "not enough fuel: " .. fuel.count .. " " .. fuel.name .. " needed")
		end
	end
	local furnace_inv = minetest.get_meta(pos):get_inventory()
	-- A slot holds one kind of item: what an earlier cook left in it (fuel the furnace did not need, still
	-- burning the last) comes back to the player first, so the new input and fuel go in and none is lost.
	local function fill(list, stack)
		for index, held in ipairs(furnace_inv:get_list(list)) do
			if not held:is_empty() and held:get_name() ~= stack:get_name() then
				furnace_inv:set_stack(list, index, ItemStack(""))
				inv:add_item("main", held)
			end
		end
		local rest = furnace_inv:add_item(list, inv:remove_item("main", stack))
		if not rest:is_empty() then
			inv:add_item("main", rest)
		end
	end
	fill("src", ItemStack(step.item .. " " .. count))
	-- one kind after another into the fuel slot, each burning out on the furnace's own timer before the next goes
	-- in; the last burns as long as the cooking still takes
	for index, fuel in ipairs(burns) do
		fill("fuel", ItemStack(fuel.name .. " " .. fuel.count))
		local seconds = index < #burns and fuel.count * fuel.time or cooked.time * count + 1
		minetest.registered_nodes[minetest.get_node(pos).name].on_timer(pos, seconds)
	end
	local def = minetest.registered_nodes[minetest.get_node(pos).name]
	local got = 0
	for index, stack in ipairs(furnace_inv:get_list("dst")) do
		if not stack:is_empty() then
			furnace_inv:set_stack("dst", index, ItemStack(""))
			local left = inv:add_item("main", stack)
			if not left:is_empty() then
				minetest.add_item(player:get_pos(), left)
			end
			if def.on_metadata_inventory_take ~= nil then
				def.on_metadata_inventory_take(pos, "dst", index, stack, player)
			end
			got = got + stack:get_count()
		end
	end
	runtime.poll(player)
	if got == 0 then
		return done(false, "the furnace cooked nothing")
	end
	if got < count * cooked.item:get_count() then
		-- what cooked is the player's, and the step says how far it got: a step half done is not done
		return done(false, "the furnace cooked " .. got .. " of " .. count * cooked.item:get_count() .. " " ..
			cooked.item:get_name() .. " (the fuel burnt out)")
	end
	done(true)
end

-- A brewing stand: the node with a brewing time (`_brew_seconds`; taskverse_mc's, from the knowledge's brewing
-- table). The bottles and the ingredient go in, the fuel too when the step names one, the stand's node timer is
-- run for one brew, and the bottles are taken out.
local function brewing_stand()
	for name, def in pairs(minetest.registered_nodes) do
		if def._brew_seconds ~= nil then
			return name, def
		end
	end
	return nil
end

function actions.brew(player, step, done)
	local stand, stand_def = brewing_stand()
	if stand == nil then
		return done(false, "the game has no brewing stand")
	end
	local count = step.count or 1
	local inv = player:get_inventory()
	local pos = minetest.find_node_near(feet(player), 6, {stand}, true)
	if pos == nil then
		local spot = free_spot(player)
		if spot == nil or not inv:contains_item("main", stand) then
			return done(false, "no brewing stand nearby and none to place")
		end
		local ok, err = place_at(player, stand, spot)
		if not ok then
			return done(false, err)
		end
		pos = spot
	end
	if inv:get_stack("main", player:get_wield_index()):get_name() == stand then
		wield(player, "")
	end
	local wanted = {ItemStack(step.item .. " " .. count), ItemStack(step.ingredient)}
	if step.fuel ~= nil then
		table.insert(wanted, ItemStack(step.fuel))
	end
	local total = {}
	for _, stack in ipairs(wanted) do
		total[stack:get_name()] = (total[stack:get_name()] or 0) + stack:get_count()
	end
	for name, n in pairs(total) do
		if not inv:contains_item("main", ItemStack(name .. " " .. n)) then
			return done(false, "fewer than " .. n .. " " .. name .. " in the inventory")
		end
	end
	local stand_inv = minetest.get_meta(pos):get_inventory()
	if count > stand_inv:get_size("bottles") then
		return done(false, "the brewing stand holds " .. stand_inv:get_size("bottles") .. " bottles")
	end
	-- What an earlier brew left in the stand comes back first (the fuel stays: it burns for later brews).
	for _, list in ipairs({"bottles", "ingredient"}) do
		for index, stack in ipairs(stand_inv:get_list(list)) do
			if not stack:is_empty() then
				stand_inv:set_stack(list, index, ItemStack(""))
				inv:add_item("main", stack)
			end
		end
	end
	for index = 1, count do
		stand_inv:set_stack("bottles", index, inv:remove_item("main", ItemStack(step.item)))
	end
	stand_inv:set_stack("ingredient", 1, inv:remove_item("main", ItemStack(step.ingredient)))
	if step.fuel ~= nil then
		local rest = stand_inv:add_item("fuel", inv:remove_item("main", ItemStack(step.fuel)))
		if not rest:is_empty() then
			inv:add_item("main", rest)
		end
	end
	stand_def.on_timer(pos, stand_def._brew_seconds + 1)
	local brewed = 0
	for index, stack in ipairs(stand_inv:get_list("bottles")) do
		if not stack:is_empty() then
			stand_inv:set_stack("bottles", index, ItemStack(""))
			if stack:get_name() ~= step.item then
				brewed = brewed + 1
			end
			local left = inv:add_item("main", stack)
			if not left:is_empty() then
				minetest.add_item(player:get_pos(), left)
			end
		end
	end
	local ingredient = stand_inv:get_stack("ingredient", 1)
	if not ingredient:is_empty() then
		stand_inv:set_stack("ingredient", 1, ItemStack(""))
		inv:add_item("main", ingredient)
	end
	runtime.poll(player)
	if brewed == 0 then
		return done(false, "the brewing stand brewed nothing from " .. step.item .. " and " .. step.ingredient)
	end
	done(true)
end

-- Enchanting (taskverse_mc): the tool used on the table (its on_place, as a player's right-click), a try at a
-- time, until `count` more of step.item are held (at most step.tries tries), or `count` tries without step.item.
-- A try the table refuses (too few bookshelves, no lapis or no grindstone) takes nothing and ends it, with the
-- table's reason when its game gives one (the node's `_taskverse_refusal(player)`: taskverse_mc's enchanting.lua).
local function inventory_total(player)
	local total = 0
	for _, stack in ipairs(player:get_inventory():get_list("main")) do
		total = total + stack:get_count()
	end
	return total
end

function actions.enchant(player, step, done, record)
	local reach = step.radius or 8
	minetest.load_area(vector.subtract(feet(player), reach), vector.add(feet(player), reach)) -- as for a cook
	local pos = minetest.find_node_near(feet(player), reach, {step.node}, true)
	if pos == nil then
		return done(false, "no " .. step.node .. " within " .. reach .. " nodes")
	end
	local count = step.count or 1
	local goal = step.item and held_count(player, step.item) + count
	local limit = step.item and (step.tries or CHANCE_DIGS * count) or count
	local tries = 0
	while goal == nil and tries < limit or goal ~= nil and held_count(player, step.item) < goal do
		if tries >= limit then
			return done(false, tries .. " tries and still fewer than " .. count .. " " .. step.item)
		end
		if not wield(player, step.tool) then
			return done(false, "no " .. step.tool .. " to enchant")
		end
		local stack = player:get_wielded_item()
		local on_place = stack:get_definition().on_place
		if on_place == nil then
			return done(false, step.tool .. " cannot be used on " .. step.node)
		end
		local before = inventory_total(player)
		local out = on_place(stack, player, {type = "node", under = pos, above = {x = pos.x, y = pos.y + 1, z = pos.z}})
		if out ~= nil then
			player:set_wielded_item(out)
		end
		runtime.poll(player)
		if inventory_total(player) >= before then
			local refusal = minetest.registered_nodes[step.node]._taskverse_refusal
			local why = refusal ~= nil and refusal(player) or nil
			return done(false, step.node .. " took nothing for " .. step.tool .. " (try " .. (tries + 1) .. ")" ..
				(why ~= nil and (": " .. why) or ""))
		end
		tries = tries + 1
		record.tries = tries
	end
	done(true)
end

-- Clearing a station's surroundings (taskverse_mc's enchanting table): the node within `radius` names the cells
-- that stop what powers it (its `_taskverse_blocking(pos)`: a flower between it and a bookshelf), and the player digs
-- each away, as a player clears the gap; nothing to clear is done at once.
function actions.clear(player, step, done, record)
	local reach = step.radius or 8
	minetest.load_area(vector.subtract(feet(player), reach), vector.add(feet(player), reach))
	local pos = minetest.find_node_near(feet(player), reach, {step.node}, true)
	if pos == nil then
		return done(false, "no " .. step.node .. " within " .. reach .. " nodes")
	end
	local blocking = minetest.registered_nodes[step.node]._taskverse_blocking
	for _, cell in ipairs(blocking ~= nil and blocking(pos) or {}) do
		local ok, err = dig_one(player, {}, cell)
		if not ok then
			return done(false, err)
		end
		record.cleared = (record.cleared or 0) + 1
	end
	done(true)
end

-- Stands in for Minecraft's natural spawning (the generated game spawns no mobs): the mob, added on a free spot
-- beside the player. The scripted player first goes where Minecraft spawns it; the step's note says so.
local function spawn_beside(player, name)
	local spot = free_spot(player)
	if spot == nil then -- no open ground (flowing water all around): beside the player's head
		local pos = vector.round(player:get_pos())
		spot = {x = pos.x + 1, y = pos.y, z = pos.z}
	end
	local obj = minetest.add_entity({x = spot.x, y = spot.y + 0.5, z = spot.z}, name)
	if obj == nil then
		return nil, "the game has no entity " .. name
	end
	return obj
end

function actions.spawn(player, step, done)
	local obj, err = spawn_beside(player, step.entity)
	if obj == nil then
		return done(false, err)
	end
	runtime.poll(player)
	done(true)
end

local function collect_drops(player, radius)
	for _, obj in ipairs(minetest.get_objects_inside_radius(player:get_pos(), radius or 6)) do
		local entity = obj:get_luaentity()
		if entity ~= nil and entity.name == "__builtin:item" then
			obj:punch(player, 1.0, {full_punch_interval = 1.0, damage_groups = {}}, nil)
		end
	end
	runtime.poll(player)
end

-- `count` mobs (one by default) killed by hitting, or (with step.item) mobs killed and their drops picked up until
-- `count` more of that item are held (a chance drop); with step.spawn another is spawned beside the player for each
-- further kill, standing in for Minecraft's natural spawning as the `spawn` step does. A plan's run of kills of one
-- mob is one step: the player stays where it is and does not travel to the mob's biome again for each.
function actions.kill(player, step, done, record, progress)
	progress = progress or {kills = 0, goal = step.item and held_count(player, step.item) + (step.count or 1)}
	if progress.goal ~= nil and held_count(player, step.item) >= progress.goal then
		return done(true)
	end
	if progress.goal ~= nil and progress.kills >= (step.tries or CHANCE_KILLS * (step.count or 1)) then
		return done(false, progress.kills .. " " .. step.entity .. " killed and still fewer than " ..
			(step.count or 1) .. " " .. step.item)
	end
	local obj = find_object(player, step.entity, step.radius)
	if obj == nil and step.spawn then
		local err
		obj, err = spawn_beside(player, step.entity)
		if obj == nil then
			return done(false, err)
		end
		record.spawned = (record.spawned or 0) + 1
	end
	if obj == nil then
		return done(false, "no " .. step.entity .. " within " .. (step.radius or 12) .. " nodes")
	end
	if step.tool ~= nil and not wield(player, step.tool) then
		return done(false, "no " .. step.tool .. " to fight with")
	end
	for _ = 1, step.max_hits or MAX_HITS do
		if obj:get_luaentity() == nil then
			break
		end
		local dir = vector.direction(player:get_pos(), obj:get_pos())
		obj:punch(player, 10.0, tool_caps(player), dir)
	end
	runtime.poll(player)
	if obj:get_luaentity() ~= nil then
		return done(false, step.entity .. " is still alive")
	end
	progress.kills = progress.kills + 1
	if progress.goal == nil and progress.kills >= (step.count or 1) then
		if progress.kills > 1 then
			record.kills = progress.kills
		end
		return done(true)
	end
	record.kills = progress.kills
	minetest.after(0.1, function()
		local current = minetest.get_player_by_name(player:get_player_name())
		if current == nil then
			return
		end
		collect_drops(current, step.radius)
		actions.kill(current, step, done, record, progress)
	end)
end

-- Trade with a villager (or any entity whose game trades through `_taskverse_trade(self, player, item)`): the
-- game takes the price from the inventory and gives the item, `count` times, with the nearest one that trades it.
-- With step.spawn, when none nearby trades it (a wandering trader whose drawn offers lack it), another is spawned
-- beside the player and tried, standing in for the next one met as the `spawn` step does, until `tries` of them
-- were tried (the nearby ones count); the step's record says how many were `spawned`.
function actions.trade(player, step, done, record)
	local left, first_err = step.count or 1, nil
	local function trade_with(entity)
		if entity._taskverse_trade == nil then
			return false, step.entity .. " does not trade in this game"
		end
		while left > 0 do
			local ok, err = entity:_taskverse_trade(player, step.item)
			runtime.poll(player)
			if not ok then
				first_err = first_err or err
				return false
			end
			left = left - 1
		end
		return true
	end
	local pos = player:get_pos()
	local traders = {}
	for _, obj in ipairs(minetest.get_objects_inside_radius(pos, step.radius or 12)) do
		local entity = obj:get_luaentity()
		if entity ~= nil and entity.name == step.entity then
			traders[#traders + 1] = {entity = entity, d = vector.distance(pos, obj:get_pos())}
		end
	end
	if #traders == 0 and not step.spawn then
		return done(false, "no " .. step.entity .. " nearby")
	end
	table.sort(traders, function(a, b)
		return a.d < b.d
	end)
	for _, trader in ipairs(traders) do
		local ok, err = trade_with(trader.entity)
		if ok then
			return done(true)
		elseif err ~= nil then
			return done(false, err)
		end
	end
	local count = #traders
	while step.spawn and count < (step.tries or 1) do
		local obj, err = spawn_beside(player, step.entity)
		if obj == nil then
			return done(false, err)
		end
		record.spawned = (record.spawned or 0) + 1
		count = count + 1
		local ok, refused = trade_with(obj:get_luaentity())
		if ok then
			return done(true)
		elseif refused ~= nil then
			return done(false, refused)
		end
	end
	done(false, first_err or ("no " .. step.entity .. " nearby"))
end

-- A station's own work, `count` times: step.item from a step.node station (the one nearby, else the held one placed
-- beside the player) through the node's `field` function (pos, player, item) -> ok, err; `none` ends the error when
-- the node has no such work in this game.
local function station_work(player, step, done, field, none)
	local def = minetest.registered_nodes[step.node]
	if def == nil or def[field] == nil then
		return done(false, step.node .. none)
	end
	local pos = minetest.find_node_near(feet(player), 6, {step.node}, true)
	if pos == nil then
		local spot = free_spot(player)
		if spot == nil or not player:get_inventory():contains_item("main", step.node) then
			return done(false, "no " .. step.node .. " nearby and none to place")
		end
		local hand = player:get_wielded_item():get_name()
		local ok, err = place_at(player, step.node, spot)
		if not ok then
			return done(false, err)
		end
		wield(player, hand) -- the station placed, the hand holds again what the work is done with (an anvil's material)
		pos = spot
	end
	for _ = 1, step.count or 1 do
		local ok, err = def[field](pos, player, step.item)
		runtime.poll(player)
		if not ok then
			return done(false, err)
		end
	end
	done(true)
end

-- Cut: `count` times, step.item cut at a step.node stonecutter (the one nearby, else the held one placed beside the
-- player) through the node's `_taskverse_cut(pos, player, item)`: taskverse_mc's stonecutter takes one item of a
-- cut's input from the inventory, gives the cut's count of the item and runs the craft callbacks (the craft event).
function actions.cut(player, step, done)
	return station_work(player, step, done, "_taskverse_cut", " cuts nothing in this game")
end

-- Anvil: `count` times, step.item taken from a step.node anvil (the one nearby, else the held one placed beside the
-- player) through the node's `_taskverse_anvil(pos, player, item)`: taskverse_mc's anvil renames or combines an item
-- of the inventory into step.item (a named or enchanted item, run as a craft), or repairs step.item with a unit of
-- its material or a second one (the anvil used holding it).
function actions.anvil(player, step, done)
	return station_work(player, step, done, "_taskverse_anvil", " is no anvil in this game")
end

-- Store: `count` of step.item moved from the player's inventory into the `main` list of a step.node container
-- (the one nearby, else the held one placed beside the player), as the engine moves a stack the player puts into
-- a container's slot: allow_metadata_inventory_put says how many it takes, the stack moves, and
-- on_metadata_inventory_put runs (the task runtime watches it: the store event).
function actions.store(player, step, done)
	local inv = player:get_inventory()
	local count = step.count or 1
	local here = feet(player)
	local pos, nearest
	for _, at in ipairs(minetest.find_nodes_in_area(vector.subtract(here, 6), vector.add(here, 6), {step.node})) do
		local d = vector.distance(at, here)
		if minetest.get_meta(at):get_inventory():get_size("main") > 0 and (nearest == nil or d < nearest) then
			pos, nearest = at, d
		end
	end
	if pos == nil then
		local spot = free_spot(player)
		if spot == nil or not inv:contains_item("main", step.node) then
			return done(false, "no " .. step.node .. " with slots nearby and none to place")
		end
		local ok, err = place_at(player, step.node, spot)
		if not ok then
			return done(false, err)
		end
		pos = spot
	end
	local stack = ItemStack(step.item .. " " .. count)
	if not inv:contains_item("main", stack) then
		return done(false, "fewer than " .. count .. " " .. step.item .. " in the inventory")
	end
	local def = minetest.registered_nodes[step.node]
	local slots = minetest.get_meta(pos):get_inventory()
	local index
	for i, slot in ipairs(slots:get_list("main") or {}) do
		if slot:is_empty() then
			index = i
			break
		end
	end
	if index == nil then
		return done(false, "the " .. step.node .. " has no inventory or no empty slot")
	end
	local allowed = def.allow_metadata_inventory_put ~= nil and
		def.allow_metadata_inventory_put(pos, "main", index, stack, player) or count
	if allowed < count then
		return done(false, "the " .. step.node .. " takes no " .. step.item)
	end
	local moved = inv:remove_item("main", stack)
	slots:set_stack("main", index, moved)
	if def.on_metadata_inventory_put ~= nil then
		def.on_metadata_inventory_put(pos, "main", index, moved, player)
	end
	runtime.poll(player)
	done(true)
end

function actions.collect(player, step, done)
	collect_drops(player, step.radius)
	done(true)
end

-- Beside the nearest `entity` (within `radius`), time passes on the animal's own clock (its `_taskverse_pass`:
-- taskverse_mc's laying) TEND_SECONDS at a time until it has laid `count` more `item` (a chicken's egg, every 300 to
-- 600 s), each picked up, as a player waits beside a chicken for its egg; at most TEND_MOST seconds an item. A
-- baby lays nothing (the nearest adult is waited beside), and an egg needs room in the inventory to be picked up.
local TEND_SECONDS = 30
local TEND_MOST = 3600

function actions.tend(player, step, done)
	local obj = find_object(player, step.entity, step.radius, function(entity)
		return not entity.child
	end)
	local animal = obj and obj:get_luaentity()
	if animal == nil then
		local baby = find_object(player, step.entity, step.radius) ~= nil
		return done(false, "no " .. (baby and "adult " or "") .. step.entity .. " nearby")
	end
	if animal._taskverse_pass == nil then
		return done(false, step.entity .. " lays nothing in this game")
	end
	local inv = player:get_inventory()
	local goal = held_count(player, step.item) + (step.count or 1)
	local passed = 0
	while held_count(player, step.item) < goal do
		if not inv:room_for_item("main", ItemStack(step.item)) then
			return done(false, "no room for " .. step.item .. " in the inventory")
		end
		if passed >= TEND_MOST * (step.count or 1) then
			return done(false, step.entity .. " gave no " .. step.item .. " in " .. passed .. " s")
		end
		animal:_taskverse_pass(TEND_SECONDS)
		passed = passed + TEND_SECONDS
		local pos = obj:get_pos()
		if pos == nil then
			return done(false, "the " .. step.entity .. " is gone")
		end
		for _, near in ipairs(minetest.get_objects_inside_radius(pos, 2)) do
			local entity = near:get_luaentity()
			if entity ~= nil and entity.name == "__builtin:item" and ItemStack(entity.itemstring):get_name() == step.item then
				near:punch(player, 1.0, {full_punch_interval = 1.0, damage_groups = {}}, nil)
			end
		end
	end
	runtime.poll(player)
	done(true)
end

function actions.eat(player, step, done)
	if not wield(player, step.item) then
		return done(false, "no " .. step.item .. " to eat")
	end
	local stack = player:get_wielded_item()
	local def = stack:get_definition()
	if def.on_use == nil then
		return done(false, step.item .. " cannot be eaten")
	end
	local out = def.on_use(stack, player, {type = "nothing"})
	if out ~= nil then
		player:set_wielded_item(out)
	end
	runtime.poll(player)
	done(true)
end

local function pointed_for(player, step, ready_only)
	if step.node ~= nil or step.at ~= nil or step.pos ~= nil then
		local pos = find_node(player, step, ready_only)
		if pos == nil then
			return nil, "no " .. tostring(step.node) .. " within " .. (step.radius or 8) .. " nodes"
		end
		return {type = "node", under = pos, above = {x = pos.x, y = pos.y + 1, z = pos.z}}
	elseif step.entity ~= nil then
		local obj = find_object(player, step.entity, step.radius)
		if obj == nil then
			return nil, "no " .. step.entity .. " nearby"
		end
		return {type = "object", ref = obj}
	end
	return {type = "nothing"}
end

-- Mobs an item was used on this episode (right-clicked with it), so feeding two animals feeds two, not one twice.
local used_on = {}

-- An item used on a mob as a right-click does it (the engine's right-click of an object: the item's own
-- on_secondary_use, then the object's on_rightclick): the nearest such mob not yet used on, else the nearest.
local function right_click_mob(player, step, done)
	local best, best_d
	local pos = player:get_pos()
	for _, obj in ipairs(minetest.get_objects_inside_radius(pos, step.radius or 12)) do
		local entity = obj:get_luaentity()
		if entity ~= nil and entity.name == step.entity then
			local d = vector.distance(pos, obj:get_pos()) + (used_on[entity] and 1000 or 0)
			if best == nil or d < best_d then
				best, best_d = obj, d
			end
		end
	end
	if best == nil then
		return done(false, "no " .. step.entity .. " nearby")
	end
	used_on[best:get_luaentity()] = true
	local stack = player:get_wielded_item()
	local def = stack:get_definition()
	if rawget(def, "on_secondary_use") ~= nil then
		local out = def.on_secondary_use(stack, player, {type = "object", ref = best})
		if out ~= nil then
			player:set_wielded_item(out)
		end
	end
	best:right_click(player)
	runtime.poll(player)
	done(true)
end

function actions.use(player, step, done)
	if not wield(player, step.item or "") then
		return done(false, "no " .. tostring(step.item) .. " to use")
	end
	if step.secondary and step.entity ~= nil then
		return right_click_mob(player, step, done)
	end
	local pointed, err = pointed_for(player, step, true) -- a node ready for it (a full bee nest)
	if pointed == nil then
		return done(false, err)
	end
	local stack = player:get_wielded_item()
	local def = stack:get_definition()
	local call
	if not step.secondary and def.on_use ~= nil then
		call = def.on_use
	elseif pointed.type == "node" and def.on_place ~= nil then
		call = def.on_place
	elseif def.on_secondary_use ~= nil then
		call = def.on_secondary_use
	end
	if call == nil then
		return done(false, (stack:get_name() ~= "" and stack:get_name() or "the hand") .. " has no use")
	end
	local out = call(stack, player, pointed)
	if out ~= nil then
		player:set_wielded_item(out)
	end
	runtime.poll(player)
	done(true)
end

function actions.interact(player, step, done)
	local pointed, err = pointed_for(player, step)
	if pointed == nil then
		return done(false, err)
	end
	if pointed.type == "object" then
		pointed.ref:right_click(player)
	elseif pointed.type == "node" then
		local node = minetest.get_node(pointed.under)
		local def = minetest.registered_nodes[node.name] or {}
		if not step.punch and def.on_rightclick ~= nil then
			def.on_rightclick(pointed.under, node, player, player:get_wielded_item(), pointed)
		else
			(def.on_punch or minetest.node_punch)(pointed.under, node, player, pointed)
		end
	else
		return done(false, "interact needs a node or an entity")
	end
	runtime.poll(player)
	done(true)
end

-- Every scripted move (move, home, goto_*) ends here. The map around the destination is generated to the end
-- first (runtime.generate_around: no map chunk generated later writes an old copy over what the player changes
-- there, as one generated while the player filled a portal room's frames would, whatever the load of the
-- machine), and the plan goes on (`after`) only once the player is seen where it was put: a client's position
-- update sent before the move can arrive after it and put the player back (then it is put again, up to
-- MOVE_TRIES times). A move that ends in the open air holds the player there (no gravity) until the next move,
-- so it does not fall away before the next step, however late a busy machine runs it; the step's record says
-- `held` (and `moves`, when it took more than one try).
local MOVE_CHECK = 0.1
local MOVE_TRIES = 10

local function move_to(player, pos, record, after)
	local name = player:get_player_name()
	local hold
	local function put(tries)
		local current = minetest.get_player_by_name(name)
		if current == nil then
			return
		end
		current:set_pos(pos)
		if hold then
			local velocity = current:get_velocity()
			if velocity ~= nil then
				current:add_velocity(vector.multiply(velocity, -1))
			end
		end
		minetest.after(MOVE_CHECK, function()
			local now = minetest.get_player_by_name(name)
			if now == nil then
				return
			end
			if vector.distance(now:get_pos(), pos) < 1 or tries >= MOVE_TRIES then
				if record ~= nil and tries > 1 then
					record.moves = tries
				end
				return after(now)
			end
			put(tries + 1)
		end)
	end
	runtime.generate_around(pos, function()
		local current = minetest.get_player_by_name(name)
		if current == nil then
			return
		end
		hold = not runtime.standing_at(pos) and runtime.is_open(vector.round(pos))
		current:set_physics_override({gravity = hold and 0 or 1})
		if hold and record ~= nil then
			record.held = true
		end
		put(1)
	end)
end

local function moved(done)
	return function(player)
		runtime.poll(player)
		done(true)
	end
end

function actions.move(player, step, done, record)
	if step.to ~= nil then
		move_to(player, vec(step.to), record, moved(done))
	elseif step.by ~= nil then
		move_to(player, vector.add(player:get_pos(), vec(step.by)), record, moved(done))
	else
		return done(false, "move needs to or by")
	end
end

-- With `vertical` (a biome under the ground, dripstone caves), the player stands within that many nodes of y;
-- where no cave is open there, a pocket of two nodes is opened in the rock to stand in (no items, no events;
-- `opened` in the step's record), as a tunnel dug down to it would be.
function actions.goto_biome(player, step, done, record)
	local spot = runtime.find_biome(player:get_pos(), step.biomes, step.y)
	if spot == nil then
		return done(false, "no " .. table.concat(step.biomes, "/") .. " biome near")
	end
	local name = player:get_player_name()
	runtime.prepare_spot(spot.x, spot.z, spot.y, function(stand)
		local current = minetest.get_player_by_name(name)
		if current == nil then
			return
		end
		if stand == nil and step.vertical ~= nil then
			for up = 0, 1 do
				minetest.remove_node({x = spot.x, y = spot.y + up, z = spot.z})
			end
			if record ~= nil then
				record.opened = true
			end
			stand = {x = spot.x, y = spot.y - 0.5, z = spot.z}
		end
		move_to(current, stand or {x = spot.x, y = spot.y + 0.5, z = spot.z}, nil, moved(done))
	end, step.vertical)
end

-- Where to stand to see the node at `pos`: an open spot (feet and head free) within two nodes of it from which
-- it is in sight, nearest first; nil if there is none (a buried node).
local function view_spot(pos)
	local best, best_d
	for dx = -2, 2 do
		for dy = -2, 2 do
			for dz = -2, 2 do
				local spot = {x = pos.x + dx, y = pos.y + dy, z = pos.z + dz}
				local head = {x = spot.x, y = spot.y + 1, z = spot.z}
				local d = vector.distance(spot, pos)
				if d > 0 and (best == nil or d < best_d) and runtime.is_open(spot) and runtime.is_open(head) and
						runtime.sees({x = spot.x, y = spot.y - 0.5, z = spot.z}, pos) then
					best, best_d = spot, d
				end
			end
		end
	end
	return best
end

-- Search for a node around the player (or at height y), then around points further out, one area at a time
-- (each area is generated first); stand next to the nearest one found.
-- The areas goto_node searches, nearest first: rings of squares 2r wide around the origin. The outer rings are
-- searched only when the inner ones hold none left: a long plan uses up a rare ore's nearest copies (one deepslate
-- emerald ore a trade), and the next ones lie further out.
local SEARCH_RINGS = 4
local SEARCH_OFFSETS = {{0, 0}, {1, 0}, {0, 1}, {-1, 0}, {0, -1}, {1, 1}, {-1, 1}, {-1, -1}, {1, -1},
	{2, 0}, {0, 2}, {-2, 0}, {0, -2}, {2, 1}, {1, 2}, {-1, 2}, {-2, 1}, {-2, -1}, {-1, -2}, {1, -2}, {2, -1},
	{2, 2}, {-2, 2}, {-2, -2}, {2, -2}}
for ring = 3, SEARCH_RINGS do
	for dx = -ring, ring do
		for dz = -ring, ring do
			if math.max(math.abs(dx), math.abs(dz)) == ring then
				SEARCH_OFFSETS[#SEARCH_OFFSETS + 1] = {dx, dz}
			end
		end
	end
end

-- The search goes ring by ring around the player's feet (around `step.from`, an x and z, when a loot searches a
-- region further out); when none is found, `step.on_none` (a loot's) is called instead of failing the step.
function actions.goto_node(player, step, done, record)
	local origin = feet(player)
	if step.from ~= nil then
		origin = {x = step.from.x, y = origin.y, z = step.from.z}
	end
	if step.y ~= nil then
		origin.y = step.y
	end
	local r = step.radius or 24
	local dy = step.vertical or r
	-- with `biomes`, only a node in one of them (a find constrained to a biome)
	local in_biomes
	if step.biomes ~= nil then
		in_biomes = {}
		for _, b in ipairs(step.biomes) do
			in_biomes[b] = true
		end
	end
	local function search(attempt)
		local offset = SEARCH_OFFSETS[attempt]
		if offset == nil then
			if step.on_none ~= nil then
				return step.on_none()
			end
			return done(false, "no " .. step.node .. " within " .. ((2 * SEARCH_RINGS + 1) * r) .. " nodes of " ..
				minetest.pos_to_string(origin))
		end
		local center = {x = origin.x + offset[1] * 2 * r, y = origin.y, z = origin.z + offset[2] * 2 * r}
		local p1 = {x = center.x - r, y = center.y - dy, z = center.z - r}
		local p2 = {x = center.x + r, y = center.y + dy, z = center.z + r}
		minetest.emerge_area(p1, p2, function(_, _, remaining)
			if remaining ~= 0 then
				return
			end
			local found = minetest.find_nodes_in_area(p1, p2, {step.node})
			if in_biomes ~= nil then
				local kept = {}
				for _, pos in ipairs(found) do
					if in_biomes[game_biome(pos)] then
						kept[#kept + 1] = pos
					end
				end
				found = kept
			end
			local best = nearest_ready(found, center, step.node)
			if best == nil then
				return search(attempt + 1)
			end
			-- the map around it is generated to the end before it is looked at and acted on (a map chunk generated
			-- later would write an old copy over what the player changes there: generate_around)
			runtime.generate_around(best, function()
				if minetest.get_node(best).name ~= step.node then
					return search(attempt) -- the map generated around it changed it: look again
				end
				local stand
				if step.above then
					-- stand on it: the top of its column of like nodes
					stand = {x = best.x, y = best.y + 1, z = best.z}
					while minetest.get_node(stand).name == step.node do
						stand.y = stand.y + 1
					end
				else
					stand = view_spot(best)
				end
				if stand == nil or not (runtime.is_open(stand) and
						runtime.is_open({x = stand.x, y = stand.y + 1, z = stand.z})) then
					-- a buried node: open a pocket of two nodes on top of it to stand in, as a tunnel dug to it
					-- would (no items, no events), so the player stands on it and sees it
					stand = stand or {x = best.x, y = best.y + 1, z = best.z}
					for up = 0, 1 do
						local p = {x = stand.x, y = stand.y + up, z = stand.z}
						if not runtime.is_open(p) then
							minetest.remove_node(p)
							record.opened = (record.opened or 0) + 1
						end
					end
				end
				move_to(player, {x = stand.x, y = stand.y - 0.5, z = stand.z}, record, moved(done)) -- feet on the node below
			end)
		end)
	end
	search(1)
end

-- Opening structures' chests (taskverse_mc's stand-ins: step.node is the marker that is a structure's chest; an
-- opened one becomes another node): each try travels to the nearest marker (goto_node) and opens it (interact).
-- With step.item, one structure after another until step.count more of it are held, step.tries at most (else
-- CHANCE_LOOTS per item); without, step.count structures (one). With step.tool, the structure's suspicious block
-- (step.on) is brushed with it instead (archaeology); with step.biomes, only structures in those biomes.
-- Another structure is always found further out, as the text world's find means (another mansion, priced by its
-- travel): when none unopened is within the search's reach of the player, the search moves on to the regions
-- around where the loot began, each the square one search covers, ring by ring (SEARCH_OFFSETS), until one holds
-- a structure not yet opened, LOOT_REGIONS regions at most (the first ring of them: the square searched from where
-- the loot began and the eight around it; each region is SEARCH_OFFSETS' areas emerged, so all 81 regions would be
-- thousands of areas, a search a slow server never ends: past these the step fails, not the run).
local CHANCE_LOOTS = 40
local LOOT_REGIONS = 9
local LOOT_RINGS = math.max(math.abs(SEARCH_OFFSETS[LOOT_REGIONS][1]), math.abs(SEARCH_OFFSETS[LOOT_REGIONS][2]))

function actions.loot(player, step, done, record)
	local name = player:get_player_name()
	local goal = step.item ~= nil and held_count(player, step.item) + (step.count or 1) or nil
	local most = goal ~= nil and (step.tries or CHANCE_LOOTS * (step.count or 1)) or (step.count or 1)
	local opened = 0
	local began = feet(player)
	local side = (2 * SEARCH_RINGS + 1) * 2 * (step.radius or 24) -- the square one search covers
	local region = 1 -- the region to search when none is within reach of the player (SEARCH_OFFSETS: the first
	-- is around where the loot began)
	local function try()
		local current = minetest.get_player_by_name(name)
		if current == nil then
			return done(false, "the player left")
		end
		if goal ~= nil and held_count(current, step.item) >= goal then
			return done(true)
		end
		if opened >= most then
			if goal == nil then
				return done(true)
			end
			return done(false, opened .. " chests of " .. step.node .. " opened and still fewer than " ..
				(step.count or 1) .. " " .. step.item)
		end
		opened = opened + 1
		record.opened = opened
		local to = {node = step.node, radius = step.radius, y = step.y, vertical = step.vertical, biomes = step.biomes}
		local function arrived(ok, err)
			if not ok then
				return done(false, err)
			end
			local open, how = actions.interact, {node = step.node, radius = 6}
			if step.tool ~= nil then -- a suspicious block beside the marker, brushed
				open, how = actions.use, {item = step.tool, node = step.on, radius = 3}
			end
			open(current, how, function(opened_ok, why)
				if not opened_ok then
					return done(false, why)
				end
				try()
			end)
		end
		-- none left within reach of the player: the regions around where the loot began, the next until one holds
		-- a structure not yet opened (a region searched in vain is not searched again)
		local function further()
			local offset = region <= LOOT_REGIONS and SEARCH_OFFSETS[region] or nil
			if offset == nil then
				return done(false, "no " .. step.node .. " left unopened within " ..
					math.floor((LOOT_RINGS + 0.5) * side) .. " nodes of " .. minetest.pos_to_string(began))
			end
			record.regions = region
			local there = {}
			for key, value in pairs(to) do
				there[key] = value
			end
			there.from = {x = began.x + offset[1] * side, z = began.z + offset[2] * side}
			there.on_none = function()
				region = region + 1
				further()
			end
			actions.goto_node(current, there, arrived, {})
		end
		to.on_none = further
		actions.goto_node(current, to, arrived, {})
	end
	try()
end

function actions.home(player, _, done)
	local start = runtime.start_of(player:get_player_name())
	if start == nil then
		return done(false, "the runtime has no start position for the player")
	end
	move_to(player, start, nil, moved(done))
end

function actions.time(player, step, done)
	local of_day = step.of_day
	if of_day == "day" then
		of_day = 0.5
	elseif of_day == "night" then
		of_day = 0.0
	end
	if type(of_day) ~= "number" then
		return done(false, "time needs of_day: a number in [0, 1), day or night")
	end
	minetest.set_timeofday(of_day)
	runtime.poll(player)
	done(true)
end

-- A soft reset as Craftium's env.reset() asks for one: the runtime restores the start and the next episode
-- begins (the stand-in request works in a stock engine only).
function actions.soft_reset(_, _, done)
	local before = runtime.status().episode
	if not runtime.request_soft_reset() then
		return done(false, "this engine's soft resets are asked for by Craftium's Python side")
	end
	local function check(waited)
		if runtime.status().episode > before then
			return done(true)
		end
		if waited > 5 then
			return done(false, "the runtime did not reset within 5 s")
		end
		minetest.after(0.05, check, waited + 0.05)
	end
	minetest.after(0, check, 0)
end

-- `seconds`; with `node`, until one is within `radius` (a block the game changes on a timer, however late a busy
-- server runs it); with `dimension`, until the player is in it (a portal's travel, which the game makes once it
-- has generated the map beyond, however long a busy machine takes) and the map it acts in there is generated
-- (runtime.generate_around); either at most `seconds`.
local WAIT_CHECK = 0.1
-- whether an entity named `name` is within `radius` nodes of the player (one the engine has activated)
local function entity_near(player, name, radius)
	for _, obj in ipairs(minetest.get_objects_inside_radius(player:get_pos(), radius)) do
		local entity = obj:get_luaentity()
		if entity ~= nil and entity.name == name then
			return true
		end
	end
	return false
end

function actions.wait(player, step, done)
	if step.node == nil and step.dimension == nil and step.entity == nil then
		return minetest.after(step.seconds or 0.5, done, true)
	end
	local name, waited = player:get_player_name(), 0
	local function check()
		local current = minetest.get_player_by_name(name)
		if current == nil then
			return
		end
		local there = step.dimension == nil or runtime.dimension_at(current:get_pos()) == step.dimension
		if there and (step.node == nil or
				minetest.find_node_near(feet(current), step.radius or 6, {step.node}, true) ~= nil) and
				(step.entity == nil or entity_near(current, step.entity, step.radius or 6)) then
			if step.dimension == nil then
				runtime.poll(current)
				return done(true)
			end
			return runtime.generate_around(current:get_pos(), function()
				minetest.after(0, function()
					local now = minetest.get_player_by_name(name)
					if now ~= nil then
						runtime.poll(now)
						done(true)
					end
				end)
			end)
		end
		if waited >= (step.seconds or 0.5) then
			local near = step.node or step.entity
			local what = near ~= nil and ("no " .. near .. " within " .. (step.radius or 6) .. " nodes")
				or ("not in the " .. step.dimension)
			return done(false, what .. " after " .. (step.seconds or 0.5) .. " s")
		end
		waited = waited + WAIT_CHECK
		minetest.after(WAIT_CHECK, check)
	end
	check()
end

function actions.die(player, _, done)
	player:set_hp(0)
	done(true)
end

-------------------------------------------------------------------------------------------------------------
-- Running the plan
-------------------------------------------------------------------------------------------------------------

-- Play one step of the plan format as the player; `done(ok, err)` is called once it is over. An unknown action, or
-- one that raises, fails its step with the reason: a scripted plan and an agent's step alike (agent.lua).
local function perform(player, step, done, record)
	local action = actions[step["do"]]
	if action == nil then
		return done(false, "unknown action " .. tostring(step["do"]))
	end
	local ok, err = pcall(action, player, step, done, record)
	if not ok then
		done(false, "the action raised: " .. tostring(err))
	end
end

local function run_step(name, index)
	local player = minetest.get_player_by_name(name)
	if player == nil then
		result.error = "the player left"
		return finish()
	end
	local status = runtime.status()
	if index > #plan.steps or ((status.satisfied or status.failed) and plan.stop_on_success ~= false) then
		result.completed = index > #plan.steps
		result.stopped_on_success = index <= #plan.steps
		return minetest.after(plan.settle or 0.2, finish)
	end
	local step = plan.steps[index]
	local record = {index = index, ["do"] = step["do"], time = clock - started}
	result.steps[index] = record
	local function done(ok, err)
		record.ok = ok
		record.error = err
		if not ok then
			result.failed_step = index
			result.error = "step " .. index .. " (" .. tostring(step["do"]) .. "): " .. tostring(err)
			return minetest.after(plan.settle or 0.2, finish)
		end
		minetest.after(0, run_step, name, index + 1)
	end
	perform(player, step, done, record)
end

local function await_ready(name, waited)
	if runtime.is_ready(name) then
		started = clock
		return run_step(name, 1)
	end
	if waited > READY_TIMEOUT then
		result.error = "the task runtime did not set up the player within " .. READY_TIMEOUT .. " s"
		return finish()
	end
	minetest.after(0.05, await_ready, name, waited + 0.05)
end

-- An agent acting a step at a time (agent.lua) instead of a plan written before the episode: the same actions.
local agent
if minetest.settings:get_bool("taskverse_interactive", false) then
	agent = dofile(minetest.get_modpath(minetest.get_current_modname()) .. "/agent.lua")({
		perform = perform, runtime = runtime, json = json, worldfile = worldfile,
	})
end

local joined = false

minetest.register_on_joinplayer(function(player)
	if joined then
		return
	end
	joined = true
	if agent ~= nil then
		return agent.join(player)
	end
	player_name = player:get_player_name()
	if not take_plan() then
		return
	end
	minetest.after(0, await_ready, player_name, 0)
end)

-- Plans in turn: the next plan, from the start put back in this server; `fresh` when it cannot be.
next_plan = function()
	result = {format = FORMAT, steps = {}, completed = false}
	started = nil
	if not take_plan() then
		return
	end
	runtime.restart(player_name, function(ok, why)
		if not ok then
			result.fresh = true
			result.error = why
			return finish()
		end
		minetest.after(0, await_ready, player_name, 0)
	end)
end
