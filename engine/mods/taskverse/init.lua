-- taskverse: the runtime every compiled task mod calls into (`taskverse.start(task)`).
--
-- A compiled task mod holds only data: the task's expression over atoms, each atom's goal in Minecraft names,
-- the game names that stand for them, the starting state, and the mobs the task needs. This mod does the rest,
-- once for every task:
--   * watches the player through the engine's callbacks and turns what happens into events in the vocabulary
--     of taskverse.algebra.semantics.GameEvent (obtain, craft, mine, smelt, kill, find, place, eat, use, build, equip,
--     reach, interact), each with the conditions it happened under (time, biome, height, cave, held item; a
--     structure's chest of a further kind opened: the kind, from the task's trackers.interact.chests);
--   * writes every event it observes as a JSON line to <world>/taskverse_events.jsonl;
--   * decides success with eval.lua, the same rules as the Python evaluator (AND in any order, OR, THEN
--     counting only events after the previous part was done, constraints filtering the events a part sees);
--   * sets up the start (inventory, wielded item, biome, time of day, blocks nearby, summoned mobs);
--   * rewards success through Craftium's Lua API (set_reward_once, set_termination), defining stand-ins only
--     when the engine lacks them, so the same mod runs in Craftium and in a stock Minetest;
--   * writes its verdict to <world>/taskverse_status.json.

local modpath = minetest.get_modpath(minetest.get_current_modname())
local eval = dofile(modpath .. "/eval.lua")
local json = dofile(modpath .. "/json.lua")
local changes = dofile(modpath .. "/changes.lua")

local FORMAT = 1
local EVENTS_FILE = "taskverse_events.jsonl"
local STATUS_FILE = "taskverse_status.json"
local SCAN_INTERVAL = 0.5
local CAVE_LIGHT = 8 -- below this much light from the sky at noon, the player is under cover: in a cave

local api = {version = FORMAT}
rawset(_G, "taskverse", api)

-- Craftium's patched engine has these as globals; a stock engine gets stand-ins with the same meaning, so
-- the runtime (and a reader of the status file) sees the same rewards either way.
local craftium = rawget(_G, "set_reward_once") ~= nil
local soft_reset_requested = false
if not craftium then
	local reward, after, terminated = 0.0, 0.0, false
	rawset(_G, "set_reward", function(r)
		reward, after = r, r
	end)
	rawset(_G, "set_reward_once", function(r_now, r_after)
		reward, after = r_now, r_after
	end)
	rawset(_G, "get_reward", function()
		local r = reward
		reward = after
		return r
	end)
	rawset(_G, "set_termination", function()
		terminated = true
	end)
	rawset(_G, "get_termination", function()
		return terminated and 1 or 0
	end)
	rawset(_G, "reset_termination", function()
		terminated = false
		soft_reset_requested = false
	end)
end
-- Craftium's Python side asks for a soft reset (env.reset() with soft_reset=True) through get_soft_reset;
-- a stock engine gets a stand-in that api.request_soft_reset() sets.
local own_soft_reset = rawget(_G, "get_soft_reset") == nil
if own_soft_reset then
	rawset(_G, "get_soft_reset", function()
		return soft_reset_requested and 1 or 0
	end)
end

--- Ask for a soft reset as Craftium's env.reset() does; false under Craftium, where only Python can ask.
function api.request_soft_reset()
	if not own_soft_reset then
		return false
	end
	soft_reset_requested = true
	return true
end

local task          -- the task's data, with goal tables resolved (see api.start)
local names = {}    -- game name -> Minecraft name, for the names this task knows
local biomes = {}   -- game biome -> Minecraft biome
local relevant = {} -- [event][target] -> true: events that can change the verdict
local trace = {}    -- the relevant events so far, in order (what eval.lua evaluates)
local log_file
local seq = 0
local episode = 1   -- counts soft resets: every episode starts from the same start
local clock = 0.0
-- Game time in seconds since the episode's start was set up (the clock time bounds are measured on).
local episode_start = nil
local function episode_clock()
	return episode_start ~= nil and (clock - episode_start) or 0.0
end

local status = {
	format = FORMAT, task = nil, satisfied = false, satisfied_seq = nil, failed = false, outcome = "pending",
	clock = 0.0, progress = 0.0, events = 0,
	rewards = {}, reward_total = 0.0, terminated = false, craftium = craftium, players = {}, episode = 1,
	settings = {},
}
local players = {}  -- name -> per-player state (see setup_player)
local placed = {}   -- hashed positions of nodes players placed this episode (build patterns)
local restarting = false -- while api.restart puts the start back: nothing that happens is an event

local function worldfile(name)
	return minetest.get_worldpath() .. "/" .. name
end

local function write_status()
	minetest.safe_file_write(worldfile(STATUS_FILE), json.encode(status) .. "\n")
end

local set_of = eval.set_of

local function game_name(engine_name)
	if engine_name == nil or engine_name == "" then
		return nil
	end
	return names[engine_name] or engine_name
end

-- The Minecraft biome at a position, "engine:<name>" for a game biome with no counterpart, nil without biomes.
local function biome_at(pos)
	local data = minetest.get_biome_data(pos)
	if data == nil or data.biome == nil then
		return nil
	end
	local name = minetest.get_biome_name(data.biome)
	if name == nil or name == "" or name == ":empty" then
		return nil
	end
	return biomes[name] or ("engine:" .. name)
end

-- In a cave: under a roof that stops sunlight (within 32 nodes above the head) and out of the sky's light.
-- The roof test comes first: the light of freshly generated map blocks can lag behind.
local function in_cave(pos)
	local head = vector.round({x = pos.x, y = pos.y + 1.5, z = pos.z})
	local roofed = false
	for dy = 1, 32 do
		local name = minetest.get_node({x = head.x, y = head.y + dy, z = head.z}).name
		if name == "ignore" then
			break
		end
		local def = minetest.registered_nodes[name]
		if def ~= nil and def.walkable and not def.sunlight_propagates then
			roofed = true
			break
		end
	end
	if not roofed then
		return false
	end
	local light = minetest.get_natural_light(head, 0.5)
	return light == nil or light < CAVE_LIGHT
end

-- The dimension at a height: the game's other dimensions are layers of its world (task.dimensions; none in
-- minetest_game, where everything is the overworld).
local function dimension_at(pos)
	for name, layer in pairs(task and task.dimensions or {}) do
		if pos.y >= layer.y_min and pos.y <= layer.y_max then
			return name
		end
	end
	return "overworld"
end

local function held(player)
	return game_name(player:get_wielded_item():get_name())
end

--- The conditions an event happens under (the GameEvent fields besides event, target, count, value).
local function context(player)
	local pos = player:get_pos()
	local tod = minetest.get_timeofday()
	local state = players[player:get_player_name()]
	return {
		day = minetest.get_day_count() - (state and state.start_day or 0),
		time = (tod >= 0.25 and tod < 0.75) and "day" or "night",
		weather = "clear", -- minetest_game has no weather: it never rains
		biome = biome_at(pos),
		dimension = dimension_at(pos),
		y = pos.y,
		in_cave = in_cave(pos),
		held = held(player),
		clock = episode_clock(),
	}
end

-- Judge the task on the trace at game time `now`: success rewards 1 and ends the episode, failure (an avoided
-- thing done, a deadline missed) ends it with no reward. `quiet`: write the status only if the task is decided.
local function evaluate(now, quiet)
	local v = eval.evaluate(task.expression, trace, now)
	status.clock = now
	if quiet and not eval.decided(v.outcome) then
		return
	end
	status.progress = v.progress
	status.outcome = v.outcome
	local decided_seq = v.at ~= nil and trace[v.at].seq or nil
	if v.outcome == "success" and not status.satisfied and not status.failed then
		status.satisfied = true
		status.satisfied_seq = decided_seq
		status.satisfied_at = clock
		status.decided_clock = v.clock
		set_reward_once(1.0, 0.0)
		set_termination()
		status.rewards[#status.rewards + 1] = {seq = decided_seq, time = clock, value = 1.0, episode = episode}
		status.reward_total = status.reward_total + 1.0
		status.terminated = true
		minetest.log("action", "[taskverse] task " .. task.id .. " done at event " .. tostring(decided_seq))
	elseif v.outcome == "failure" and not status.satisfied and not status.failed then
		status.failed = true
		status.failed_seq = decided_seq
		status.failed_at = clock
		status.decided_clock = v.clock
		set_reward(0.0)
		set_termination()
		status.terminated = true
		minetest.log("action", "[taskverse] task " .. task.id .. " failed at " ..
			(decided_seq ~= nil and ("event " .. decided_seq) or ("game time " .. tostring(v.clock))))
	end
	write_status()
end

--- Record one observed event: log it, and evaluate the task when it can matter.
-- `ctx` is the context captured when it happened (context(player) if nil).
local function emit(player, event, engine_name, target, count, fields, ctx)
	if task == nil or restarting then
		return
	end
	local e = ctx and table.copy(ctx) or context(player)
	e.event = event
	e.target = target
	e.count = count or 1
	for key, value in pairs(fields or {}) do
		e[key] = value
	end
	seq = seq + 1
	status.events = seq
	if log_file ~= nil then
		log_file:write(json.encode({seq = seq, time = clock, episode = episode, player = player:get_player_name(),
			engine = engine_name, game_event = e}) .. "\n")
		log_file:flush()
	end
	local wanted = relevant[event]
	if wanted ~= nil and wanted[target] then
		e.seq = seq
		trace[#trace + 1] = e
		evaluate(e.clock)
	end
end

-- The target name of an engine node or item for an event (its Minecraft name when the task knows one).
local function target_of(engine_name)
	return game_name(engine_name) or engine_name
end

-------------------------------------------------------------------------------------------------------------
-- Polling: inventory gains (obtain), the wielded item (equip), movement (reach), surroundings (find)
-------------------------------------------------------------------------------------------------------------

local function inventory_counts(player)
	local counts = {}
	for _, stack in ipairs(player:get_inventory():get_list("main") or {}) do
		if not stack:is_empty() then
			local name = stack:get_name()
			counts[name] = (counts[name] or 0) + stack:get_count()
		end
	end
	return counts
end

local function sorted_keys(t)
	local keys = {}
	for key in pairs(t) do
		keys[#keys + 1] = key
	end
	table.sort(keys)
	return keys
end

local function poll_inventory(player, state)
	local counts = inventory_counts(player)
	for _, name in ipairs(sorted_keys(counts)) do
		local gained = counts[name] - (state.inventory[name] or 0)
		if gained > 0 then
			emit(player, "obtain", name, target_of(name), gained)
		end
	end
	state.inventory = counts
end

local function poll_wield(player, state)
	local name = player:get_wielded_item():get_name()
	if name ~= state.wield then
		state.wield = name
		if name ~= "" then
			emit(player, "equip", name, target_of(name), 1)
		end
	end
end

-- Entering another dimension (through a portal, or a start there does not count).
local function poll_dimension(player, state)
	local here = dimension_at(player:get_pos())
	if state.dimension ~= nil and here ~= state.dimension then
		emit(player, "enter", nil, here, 1)
	end
	state.dimension = here
end

local function horizontal(a, b)
	return math.sqrt((a.x - b.x) ^ 2 + (a.z - b.z) ^ 2)
end

local reach_measures = {
	height = function(pos) return pos.y end,
	depth = function(pos, start) return start.y - pos.y end,
	distance = function(pos, start) return horizontal(pos, start) end,
	horizontal_distance = function(pos, start) return horizontal(pos, start) end,
}

local function poll_reach(player, state)
	local reach = task.trackers.reach
	local pos = player:get_pos()
	for _, kind in ipairs(reach.measures) do
		local value = math.floor(reach_measures[kind](pos, state.start_pos) * 100 + 0.5) / 100
		local best = state.reach[kind]
		if best == nil or math.floor(value) > math.floor(best) then
			state.reach[kind] = value
			emit(player, "reach", nil, kind, 1, {value = value})
		end
	end
	if reach.nodes_set ~= nil then
		-- the node under the feet (a standing player's feet are at the top face of the node below)
		local below = minetest.get_node({x = math.floor(pos.x + 0.5), y = math.floor(pos.y - 0.5),
			z = math.floor(pos.z + 0.5)}).name
		local on = reach.nodes_set[below] and below or nil
		if on ~= state.standing_on then
			state.standing_on = on
			if on ~= nil then
				emit(player, "reach", on, target_of(on), 1)
			end
		end
	end
end

-- Sight: a node hides what is behind it when it is an opaque cube (drawtype "normal": stone, dirt, ores, logs);
-- air, plants, leaves, glass, liquids, slabs and the like let the eye through. Unknown or unloaded nodes hide.
local EYE_HEIGHT = 1.5

local function hides(name, cache)
	local known = cache[name]
	if known ~= nil then
		return known
	end
	local def = minetest.registered_nodes[name]
	local result = name == "ignore" or def == nil or (def.drawtype or "normal") == "normal"
	cache[name] = result
	return result
end

-- Whether the straight line from `eye` to the centre of `target` (a node position, or any point when
-- `is_node` is false) passes only through nodes that let the eye through; the target's own node is not
-- checked. Walks the nodes the line crosses one by one (Amanatides and Woo), so a buried node costs a step
-- or two before the first opaque one ends the walk.
local function in_sight(eye, target, is_node, cache)
	cache = cache or {}
	local goal = vector.round(target)
	local x, y, z = math.floor(eye.x + 0.5), math.floor(eye.y + 0.5), math.floor(eye.z + 0.5)
	local dx, dy, dz = target.x - eye.x, target.y - eye.y, target.z - eye.z
	local sx, sy, sz = dx > 0 and 1 or -1, dy > 0 and 1 or -1, dz > 0 and 1 or -1
	local function first(p, d, s, cell)
		if d == 0 then
			return math.huge, math.huge
		end
		local boundary = cell + 0.5 * s
		return (boundary - p) / d, math.abs(1 / d)
	end
	local tx, ddx = first(eye.x, dx, sx, x)
	local ty, ddy = first(eye.y, dy, sy, y)
	local tz, ddz = first(eye.z, dz, sz, z)
	for step = 1, 256 do
		-- an eye inside an opaque node sees nothing, not even that node
		if step > 1 and is_node and x == goal.x and y == goal.y and z == goal.z then
			return true
		end
		if hides(minetest.get_node({x = x, y = y, z = z}).name, cache) then
			return false
		end
		if is_node and x == goal.x and y == goal.y and z == goal.z then
			return true -- the eye is in the target's own (see-through) node
		end
		if tx >= 1 and ty >= 1 and tz >= 1 then
			return true -- the line ended in the open (a point target)
		end
		if tx <= ty and tx <= tz then
			x, tx = x + sx, tx + ddx
		elseif ty <= tz then
			y, ty = y + sy, ty + ddy
		else
			z, tz = z + sz, tz + ddz
		end
	end
	return false
end

-- The watched nodes and entities a player can see now: within the find radius and in sight.
local function in_view(pos, find, cache)
	local eye = {x = pos.x, y = pos.y + EYE_HEIGHT, z = pos.z}
	local r = find.radius
	local seen = {}
	if #find.nodes > 0 then
		local found = minetest.find_nodes_in_area(vector.subtract(pos, r), vector.add(pos, r), find.nodes, true)
		for name, list in pairs(found) do
			table.sort(list, function(a, b)
				return vector.distance(a, eye) < vector.distance(b, eye)
			end)
			for _, node in ipairs(list) do
				if vector.distance(node, eye) > r then
					break
				end
				if in_sight(eye, node, true, cache) then
					seen[name] = true
					break
				end
			end
		end
	end
	if find.entities_set ~= nil then
		for _, obj in ipairs(minetest.get_objects_inside_radius(pos, r)) do
			local entity = obj:get_luaentity()
			if entity ~= nil and find.entities_set[entity.name] and not seen[entity.name] and
					in_sight(eye, obj:get_pos(), false, cache) then
				seen[entity.name] = true
			end
		end
	end
	return seen
end

--- Whether a player with the feet at `feet` sees the node at `pos` (the runtime's rule for "find").
function api.sees(feet, pos)
	return in_sight({x = feet.x, y = feet.y + EYE_HEIGHT, z = feet.z}, pos, true, {})
end

local function poll_find(player, state)
	local find = task.trackers.find
	local biome = biome_at(player:get_pos())
	if biome ~= state.biome then
		state.biome = biome
		if biome ~= nil then
			emit(player, "find", nil, biome, 1)
		end
	end
	local seen = in_view(player:get_pos(), find, {})
	for _, name in ipairs(sorted_keys(seen)) do
		if not state.seen[name] then
			emit(player, "find", name, target_of(name), 1)
		end
	end
	state.seen = seen
end

--- Observe one player now (the harness calls this after each action, so events keep the order of actions).
function api.poll(player)
	local state = players[player:get_player_name()]
	if task == nil or state == nil or not state.ready then
		return
	end
	poll_inventory(player, state)
	poll_wield(player, state)
	poll_dimension(player, state)
	poll_reach(player, state)
	poll_find(player, state)
end

local scan_timer = 0.0
minetest.register_globalstep(function(dtime)
	clock = clock + dtime
	if task == nil then
		return
	end
	api.soft_reset_check()
	if task.expression.timed and episode_start ~= nil and not status.terminated and not restarting then
		evaluate(episode_clock(), true) -- a deadline passes with no event
	end
	scan_timer = scan_timer + dtime
	local scan = scan_timer >= SCAN_INTERVAL
	if scan then
		scan_timer = 0.0
	end
	for _, player in ipairs(minetest.get_connected_players()) do
		local state = players[player:get_player_name()]
		if state ~= nil and state.ready then
			poll_inventory(player, state)
			poll_wield(player, state)
			poll_dimension(player, state)
			if scan then
				poll_reach(player, state)
				poll_find(player, state)
			end
		end
	end
end)

-------------------------------------------------------------------------------------------------------------
-- Callbacks: craft, mine, place, eat, death
-------------------------------------------------------------------------------------------------------------

local function is_player(obj)
	return obj ~= nil and obj.is_player ~= nil and obj:is_player()
end

minetest.register_on_craft(function(itemstack, player)
	if is_player(player) then
		local name = itemstack:get_name()
		emit(player, "craft", name, target_of(name), itemstack:get_count())
	end
end)

-- What a player held when digging: minetest.node_dig hands the drops over (possibly into the emptied hand)
-- before the on_dignode callbacks run, so it is read as the drops are handled.
local dig_held = {}

local function watch_drops()
	local handle_node_drops = minetest.handle_node_drops
	minetest.handle_node_drops = function(pos, drops, digger) -- luacheck: ignore 122 (the engine's hook)
		if is_player(digger) then
			dig_held[digger:get_player_name()] = {held = held(digger), tool = digger:get_wielded_item():get_name()}
		end
		return handle_node_drops(pos, drops, digger)
	end
end

-- The item-use statistic (Minecraft's `used`): an item is used when a block is placed with it, it is eaten, or
-- it is a tool that does the work (digs a node its capabilities dig, lands a killing blow). One `use` event
-- names the item, as the Python world's actions emit it (taskverse.world.graph.items_used; the engine model's
-- digs and kills: taskverse.engine.model). Minecraft Wiki, Statistics (Java Edition 1.20, minecraft:used): the
-- Items screen counts the times a tool was used to destroy blocks, and the game counts a block broken with a tool
-- and a mob hit with a weapon or tool (ItemStack.mineBlock and hurtEnemy award the used statistic).
local function tool_digs(tool, node_name)
	local def = minetest.registered_tools[tool]
	local node = minetest.registered_nodes[node_name]
	if def == nil or node == nil or def.tool_capabilities == nil then
		return false
	end
	return minetest.get_dig_params(node.groups or {}, def.tool_capabilities).diggable
end

minetest.register_on_dignode(function(pos, oldnode, digger)
	placed[minetest.hash_node_position(pos)] = nil
	if is_player(digger) then
		local name = digger:get_player_name()
		local ctx = context(digger)
		local tool = digger:get_wielded_item():get_name()
		if dig_held[name] ~= nil then
			ctx.held = dig_held[name].held
			tool = dig_held[name].tool
			dig_held[name] = nil
		end
		emit(digger, "mine", oldnode.name, target_of(oldnode.name), 1, nil, ctx)
		if tool_digs(tool, oldnode.name) then
			emit(digger, "use", tool, target_of(tool), 1, nil, ctx)
		end
		api.poll(digger)
	end
end)

local place_fired = false

local function place_target(item, node)
	if task.place_as[item] ~= nil then
		return task.place_as[item]
	end
	if names[item] ~= nil then
		return names[item]
	end
	return target_of(node)
end

local check_builds

minetest.register_on_placenode(function(pos, newnode, placer, _, itemstack)
	placed[minetest.hash_node_position(pos)] = true
	place_fired = true
	if is_player(placer) then
		local item = itemstack and itemstack:get_name() or newnode.name
		emit(placer, "place", newnode.name, place_target(item, newnode.name), 1)
		emit(placer, "use", item, target_of(item), 1)
		check_builds(placer, pos)
	end
end)

minetest.register_on_item_eat(function(_, _, itemstack, user)
	if is_player(user) then
		local name = itemstack:get_name()
		emit(user, "eat", name, target_of(name), 1)
		emit(user, "use", name, target_of(name), 1)
	end
end)

minetest.register_on_dieplayer(function(player)
	if task ~= nil and task.trackers.interact.death then
		emit(player, "interact", nil, "death", 1)
	end
end)

-------------------------------------------------------------------------------------------------------------
-- Build patterns: shapes made of nodes players placed this episode
-------------------------------------------------------------------------------------------------------------

local function is_placed(x, y, z)
	return placed[minetest.hash_node_position({x = x, y = y, z = z})] == true
end

local function run_length(pos, dx, dy, dz)
	local n = 1
	for sign = -1, 1, 2 do
		local k = 1
		while is_placed(pos.x + sign * k * dx, pos.y + sign * k * dy, pos.z + sign * k * dz) do
			n = n + 1
			k = k + 1
		end
	end
	return n
end

-- Whether a filled rectangle of placed nodes, `a` along axis u and `b` along axis v, contains pos.
local function rectangle(pos, u, v, a, b)
	for ou = 0, a - 1 do
		for ov = 0, b - 1 do
			local full = true
			for i = 0, a - 1 do
				for j = 0, b - 1 do
					local du, dv = i - ou, j - ov
					if not is_placed(pos.x + du * u.x + dv * v.x, pos.y + du * u.y + dv * v.y,
							pos.z + du * u.z + dv * v.z) then
						full = false
						break
					end
				end
				if not full then
					break
				end
			end
			if full then
				return true
			end
		end
	end
	return false
end

local X, Y, Z = {x = 1, y = 0, z = 0}, {x = 0, y = 1, z = 0}, {x = 0, y = 0, z = 1}

-- Whether every cell of the box from corner (x, y, z), `a` along x, `h` up and `c` along z, is placed.
local function box_full(x, y, z, a, h, c)
	for i = 0, a - 1 do
		for k = 0, h - 1 do
			for j = 0, c - 1 do
				if not is_placed(x + i, y + k, z + j) then
					return false
				end
			end
		end
	end
	return true
end

-- Whether a solid box of placed nodes (`length` x `width` across, either way round, `height` up) contains pos.
local function box(pos, b)
	for _, size in ipairs({{b.length, b.width}, {b.width, b.length}}) do
		for i = 0, size[1] - 1 do
			for k = 0, b.height - 1 do
				for j = 0, size[2] - 1 do
					if box_full(pos.x - i, pos.y - k, pos.z - j, size[1], b.height, size[2]) then
						return true
					end
				end
			end
		end
	end
	return false
end

-- Whether every layer of the stepped pyramid with its apex at (ax, ay, az) and r layers below it is placed.
local function pyramid_full(ax, ay, az, r)
	for k = 0, r do
		if not box_full(ax - k, ay - k, az - k, 2 * k + 1, 1, 2 * k + 1) then
			return false
		end
	end
	return true
end

-- Whether a stepped pyramid of placed nodes on a `length` x `length` base (odd) contains pos: layer k below the
-- apex is a square k cells out from it on every side, as the Python planner's shape_cells lays it.
local function pyramid(pos, b)
	local r = (b.length + 1) / 2 - 1
	for ay = pos.y, pos.y + r do
		for ax = pos.x - r, pos.x + r do
			for az = pos.z - r, pos.z + r do
				if pyramid_full(ax, ay, az, r) then
					return true
				end
			end
		end
	end
	return false
end

local shapes = {
	column = function(pos, b) return run_length(pos, 0, 1, 0) >= b.length end,
	line = function(pos, b)
		return run_length(pos, 1, 0, 0) >= b.length or run_length(pos, 0, 0, 1) >= b.length
	end,
	floor = function(pos, b)
		return rectangle(pos, X, Z, b.length, b.width) or rectangle(pos, Z, X, b.length, b.width)
	end,
	wall = function(pos, b)
		return rectangle(pos, X, Y, b.length, b.height) or rectangle(pos, Z, Y, b.length, b.height)
	end,
	box = box,
	pyramid = pyramid,
}

check_builds = function(player, pos)
	for _, build in ipairs(task.trackers.builds) do
		local state = players[player:get_player_name()]
		if state ~= nil and not state.built[build.name] and shapes[build.shape](pos, build) then
			state.built[build.name] = true
			emit(player, "build", nil, build.name, 1)
		end
	end
end

-------------------------------------------------------------------------------------------------------------
-- Wrapped callbacks: smelting (furnace output taken), use, interact, placing that skips on_placenode
-------------------------------------------------------------------------------------------------------------

local function wrap(def, field, wrapper)
	local original = def[field]
	return wrapper(original)
end

-- A stack the player's inventory gained or gave from a node's inventory list, as an event (the node's
-- on_metadata_inventory_take or _put, run once the engine moved the stack): smelting is the furnace's output
-- taken ("dst"); storing is a stack put into a container's slots ("main"), as the Python world's store action says.
local function inventory_hook(list, event)
	return function(original)
		return function(pos, listname, index, stack, player)
			if listname == list and is_player(player) and not stack:is_empty() then
				local name = stack:get_name()
				emit(player, event, name, target_of(name), stack:get_count())
			end
			if original ~= nil then
				return original(pos, listname, index, stack, player)
			end
		end
	end
end

local smelt_hook = inventory_hook("dst", "smelt")
local store_hook = inventory_hook("main", "store")

local function pointed_target(pointed_thing)
	if pointed_thing == nil then
		return nil
	end
	if pointed_thing.type == "node" then
		local name = minetest.get_node(pointed_thing.under).name
		return name, target_of(name)
	elseif pointed_thing.type == "object" and pointed_thing.ref ~= nil then
		local entity = pointed_thing.ref:get_luaentity()
		if entity ~= nil then
			return entity.name, target_of(entity.name)
		end
	end
	return nil
end

-- A node whose own work reports its use (taskverse_mc's enchanting table and anvil: the item's `_on_used_on` once
-- the work is done): a right-click on it with an item is no use of it by itself, as a try it refuses is none.
local function work_reports_use(pointed_thing)
	if pointed_thing == nil or pointed_thing.type ~= "node" then
		return false
	end
	local def = minetest.registered_nodes[minetest.get_node(pointed_thing.under).name]
	return def ~= nil and def._taskverse_work_reports_use == true
end

-- Using an item: one event for the item, one for what it was used on (held is the item either way).
local function use_hook(original)
	return function(itemstack, user, pointed_thing)
		if is_player(user) then
			local ctx = context(user)
			local name = itemstack:get_name()
			emit(user, "use", name, target_of(name), 1, nil, ctx)
			local on_engine, on = pointed_target(pointed_thing)
			if on ~= nil and not work_reports_use(pointed_thing) then
				emit(user, "use", on_engine, on, 1, nil, ctx)
			end
		end
		if original ~= nil then
			return original(itemstack, user, pointed_thing)
		end
	end
end

-- An item whose game counts its use only when it happens calls its `_on_counted_use` then (taskverse_mc's bow
-- when the arrow is shot, trident when thrown, fishing rod when cast: Minecraft Wiki, Statistics, minecraft:used;
-- BowItem.releaseUsing, TridentItem.releaseUsing and FishingRodItem.use award the statistic at that moment): one
-- `use` event for the item, held the item.
local function counted_use_hook(original)
	return function(itemstack, user)
		if is_player(user) then
			local name = itemstack:get_name()
			emit(user, "use", name, target_of(name), 1, nil, context(user))
		end
		if original ~= nil then
			return original(itemstack, user)
		end
	end
end

-- An item a node's own work uses calls its `_on_used_on(itemstack, user, pointed_thing)` once the work is done
-- (taskverse_mc's anvil working with it, its enchanting table taking a try at it): one `use` event for the node,
-- held the item (the one the node's work names, whatever the hand holds), as the library's `repair` and `enchant`
-- goals name it. A work refused (no material, too few bookshelves) calls nothing.
local function used_on_hook(original)
	return function(itemstack, user, pointed_thing)
		if is_player(user) then
			local on_engine, on = pointed_target(pointed_thing)
			if on ~= nil then
				local ctx = context(user)
				ctx.held = game_name(itemstack:get_name())
				emit(user, "use", on_engine, on, 1, nil, ctx)
			end
		end
		if original ~= nil then
			return original(itemstack, user, pointed_thing)
		end
	end
end

-- Placing with an item whose on_place does not run the on_placenode callbacks (farming seeds).
local function place_hook(original)
	return function(itemstack, placer, pointed_thing)
		local before = itemstack:get_count()
		local name = itemstack:get_name()
		place_fired = false
		local result = original(itemstack, placer, pointed_thing)
		local after = result ~= nil and ItemStack(result):get_count() or before
		if not place_fired and after < before and is_player(placer) then
			emit(placer, "place", name, place_target(name, name), 1)
			emit(placer, "use", name, target_of(name), 1)
		end
		return result
	end
end

-- The fields of an interact event with a node: a structure's chest of a further kind names its kind (a
-- stronghold's library chest), which a goal naming a kind counts alone (eval.lua).
local function interact_fields(node_name)
	local kinds = task ~= nil and task.trackers.interact.chests or nil
	local kind = kinds ~= nil and kinds[node_name] or nil
	return kind ~= nil and {chest = kind} or nil
end

local function interact_node_hook(original)
	return function(pos, node, clicker, itemstack, pointed_thing)
		if is_player(clicker) then
			emit(clicker, "interact", node.name, target_of(node.name), 1, interact_fields(node.name))
		end
		if original ~= nil then
			return original(pos, node, clicker, itemstack, pointed_thing)
		end
		return itemstack
	end
end

local function interact_entity_hook(original)
	return function(self, clicker)
		if is_player(clicker) then
			emit(clicker, "interact", self.name, target_of(self.name), 1)
		end
		if original ~= nil then
			return original(self, clicker)
		end
	end
end

-- An item used on a mob (a right-click with it in hand: feeding, breeding, taming): one event for the item, one
-- for the mob, held the item, when the mob took it or changed it (an animal ate it); a click it ignores is no use.
local function use_on_entity_hook(original)
	return function(self, clicker)
		local before = is_player(clicker) and clicker:get_wielded_item() or nil
		local ctx = before ~= nil and not before:is_empty() and context(clicker) or nil
		local result
		if original ~= nil then
			result = original(self, clicker)
		end
		if ctx ~= nil then
			local after = clicker:get_wielded_item()
			if after:get_name() ~= before:get_name() or after:get_count() ~= before:get_count() then
				local name = before:get_name()
				emit(clicker, "use", name, target_of(name), 1, nil, ctx)
				emit(clicker, "use", self.name, target_of(self.name), 1, nil, ctx)
			end
		end
		return result
	end
end

-- A mob killed by a player: the kill, and a use of the weapon that landed the blow (it wore it): a tool with
-- capabilities (a sword, a pickaxe), as Minecraft counts a mob hit with a weapon or a digging tool; a bow, a rod
-- or armour in hand lands a blow no use counts (taskverse.engine.model's tools).
local function emit_kill(self)
	local cause = self.cause_of_death
	local killer = cause and cause.puncher
	if is_player(killer) then
		emit(killer, "kill", self.name, target_of(self.name), 1)
		local tool = killer:get_wielded_item():get_name()
		local def = minetest.registered_tools[tool]
		if def ~= nil and def.tool_capabilities ~= nil then
			emit(killer, "use", tool, target_of(tool), 1)
		end
	end
end

local function kill_hook(original)
	return function(self, pos)
		emit_kill(self)
		if original ~= nil then
			return original(self, pos)
		end
	end
end

local function install_hooks()
	watch_drops()
	for _, furnace in ipairs({"default:furnace", "default:furnace_active", "minecraft:furnace"}) do
		local def = minetest.registered_nodes[furnace]
		if def ~= nil then
			minetest.override_item(furnace, {
				on_metadata_inventory_take = wrap(def, "on_metadata_inventory_take", smelt_hook),
			})
		end
	end
	for _, item in ipairs(task.trackers.use.items) do
		local def = minetest.registered_items[item]
		if def ~= nil and rawget(def, "_on_used_on") ~= nil then
			minetest.override_item(item, {_on_used_on = wrap(def, "_on_used_on", used_on_hook)})
			def = minetest.registered_items[item]
		end
		if def ~= nil and rawget(def, "_on_counted_use") ~= nil then
			-- the game says when the use happens (a bow's arrow shot): that, not the right-click, is the use
			minetest.override_item(item, {_on_counted_use = wrap(def, "_on_counted_use", counted_use_hook)})
		elseif def ~= nil then
			-- only the item's own callbacks (rawget): the defaults come from a metatable and do nothing
			local fields = {}
			for _, field in ipairs({"on_use", "on_secondary_use", "on_place"}) do
				if rawget(def, field) ~= nil then
					fields[field] = wrap(def, field, use_hook)
				end
			end
			minetest.override_item(item, fields)
		end
	end
	for _, item in ipairs(task.trackers.place.items) do
		local def = minetest.registered_items[item]
		if def ~= nil and rawget(def, "on_place") ~= nil then
			minetest.override_item(item, {on_place = wrap(def, "on_place", place_hook)})
		end
	end
	local punch_nodes = {}
	for _, node in ipairs(task.trackers.interact.nodes) do
		local def = minetest.registered_nodes[node]
		if def ~= nil then
			if def.on_rightclick ~= nil then
				minetest.override_item(node, {on_rightclick = wrap(def, "on_rightclick", interact_node_hook)})
			else
				punch_nodes[node] = true
			end
		end
	end
	if next(punch_nodes) ~= nil then
		minetest.register_on_punchnode(function(_, node, puncher)
			if punch_nodes[node.name] and is_player(puncher) then
				emit(puncher, "interact", node.name, target_of(node.name), 1, interact_fields(node.name))
			end
		end)
	end
	-- mobs the game registers itself (taskverse_mc, through the mobs API): their deaths by a player are kills
	for _, name in ipairs(task.trackers.kill and task.trackers.kill.items or {}) do
		local def = minetest.registered_entities[name]
		if def ~= nil then
			def.on_die = wrap(def, "on_die", kill_hook)
		end
	end
	for _, node in ipairs(task.trackers.store and task.trackers.store.items or {}) do
		local def = minetest.registered_nodes[node]
		if def ~= nil then
			minetest.override_item(node, {
				on_metadata_inventory_put = wrap(def, "on_metadata_inventory_put", store_hook),
			})
		end
	end
	for _, name in ipairs(task.trackers.use.entities or {}) do
		local def = minetest.registered_entities[name]
		if def ~= nil then
			def.on_rightclick = wrap(def, "on_rightclick", use_on_entity_hook)
		end
	end
	for _, name in ipairs(task.trackers.interact.entities) do
		local def = minetest.registered_entities[name]
		if def ~= nil then
			def.on_rightclick = wrap(def, "on_rightclick", interact_entity_hook)
		end
	end
end

-------------------------------------------------------------------------------------------------------------
-- Mobs (minetest_game has none): registered through the mobs_redo API, with the task's hit points and drops
-------------------------------------------------------------------------------------------------------------

local function register_mob(mob)
	local mobs_api = rawget(_G, "mobs")
	if mobs_api == nil or mobs_api.register_mob == nil then
		error("taskverse: task " .. task.id .. " needs the mobs API for " .. mob.name ..
			" (install minetest-mod-mobs-redo; load it with load_mod_mobs = true)")
	end
	local texture = mob.texture
	-- ":" lets the task's mod register names in the runtime's namespace (taskverse:cow)
	mobs_api:register_mob(":" .. mob.name, {
		type = "animal",
		passive = true,
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
		on_die = emit_kill,
	})
end

-------------------------------------------------------------------------------------------------------------
-- The start: inventory, wielded item, place, time, blocks nearby, summoned mobs
-------------------------------------------------------------------------------------------------------------

-- A surface position in one of the wanted game biomes, searched outwards from `from` (nil if none is near);
-- at height `at_y` instead of the surface when given (the floor of another dimension's cavern).
local function find_biome(from, wanted, at_y)
	local want = set_of(wanted)
	local step, limit = 16, 4096
	for radius = 0, limit, step do
		local n = math.max(1, math.floor(2 * math.pi * radius / step))
		for i = 0, n - 1 do
			local angle = 2 * math.pi * i / n
			local x = math.floor(from.x + radius * math.cos(angle) + 0.5)
			local z = math.floor(from.z + radius * math.sin(angle) + 0.5)
			local y = at_y or minetest.get_spawn_level(x, z)
			if y ~= nil then
				local data = minetest.get_biome_data({x = x, y = y, z = z})
				if data ~= nil and want[minetest.get_biome_name(data.biome)] then
					return {x = x, y = y, z = z}
				end
			end
		end
	end
	return nil
end

-- Ring positions around the player, nearest first, for blocks and mobs the task puts nearby.
local function ring(center, count, distance)
	local out = {}
	local offsets = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {1, 1}, {-1, 1}, {-1, -1}, {1, -1}}
	local d = distance
	while #out < count do
		for _, o in ipairs(offsets) do
			if #out >= count then
				break
			end
			out[#out + 1] = {x = center.x + o[1] * d, y = center.y, z = center.z + o[2] * d}
		end
		d = d + 1
	end
	return out
end

-- Standing: solid ground under the feet (walkable, not leaves or a trunk), the feet and the head in the open
-- (nothing walkable, no liquid), none of it unloaded.
local function is_open(pos)
	local name = minetest.get_node(pos).name
	local def = minetest.registered_nodes[name]
	return name ~= "ignore" and def ~= nil and not def.walkable and (def.liquidtype or "none") == "none"
end

local function is_ground(pos)
	local name = minetest.get_node(pos).name
	local def = minetest.registered_nodes[name]
	return name ~= "ignore" and def ~= nil and def.walkable and minetest.get_item_group(name, "leaves") == 0 and
		minetest.get_item_group(name, "tree") == 0
end

-- Whether a player with the feet at `feet` stands in the open on solid ground (the feet of a standing
-- player are at the top face of the node below, y + 0.5).
local function standing_at(feet)
	local p = {x = math.floor(feet.x + 0.5), y = math.floor(feet.y + 0.5), z = math.floor(feet.z + 0.5)}
	return is_ground({x = p.x, y = p.y - 1, z = p.z}) and is_open(p) and is_open({x = p.x, y = p.y + 1, z = p.z})
end

-- The feet position on the highest ground of the column (x, z) between heights `low` and `high` with room
-- to stand above it; nil for a column with none (water, a trunk, not generated).
local function surface_at(x, z, low, high)
	for y = high, low, -1 do
		local feet = {x = x, y = y + 0.5, z = z}
		if standing_at(feet) then
			return feet
		end
	end
	return nil
end

-- A standing spot in the columns around `center` (nearest first, up to `radius` away); nil if none.
local function stand_near(center, radius, low, high)
	for r = 0, radius do
		for dx = -r, r do
			for dz = -r, r do
				if math.max(math.abs(dx), math.abs(dz)) == r then
					local feet = surface_at(center.x + dx, center.z + dz, low, high)
					if feet ~= nil then
						return feet
					end
				end
			end
		end
	end
	return nil
end

-- Generate the map around (x, z) and call back with a standing spot there (nil if there is none), at most
-- `vertical` nodes above or below the hint when given.
local function prepare_spot(x, z, y_hint, callback, vertical)
	local y = math.floor(y_hint or minetest.get_spawn_level(x, z) or 8)
	local p1 = {x = x - 8, y = y - 24, z = z - 8}
	local p2 = {x = x + 8, y = y + 24, z = z + 8}
	minetest.emerge_area(p1, p2, function(_, _, remaining)
		if remaining == 0 then
			callback(stand_near({x = x, y = y, z = z}, 6, y - math.min(vertical or 23, 23),
				y + math.min(vertical or 22, 22)))
		end
	end)
end

-- Generating a map chunk loads its map blocks and one map block all around them, and writes all of them back
-- when it is done: whatever changed in that border meanwhile (a node the player placed, dug or swapped) is put
-- back as it was when the generation began, and decorations of the new chunk reach into it. So before a player
-- acts around a spot, every chunk whose border reaches within `radius` (WORK_RADIUS) of it is generated, so that
-- none is generated there later: the map blocks within the radius and one map block around them. Calls back once
-- the engine says they all are (an emerge cancelled because the chunk is being generated by another thread is
-- asked for again), not after a time.
local MAP_BLOCK = 16
local WORK_RADIUS = 16 -- how far from where it stands a player acts (a search for a node, a dig's walk, a tower)
local GENERATE_TRIES = 20
local function generate_around(pos, callback, radius, tries)
	local centre = vector.round(pos)
	local margin = (radius or WORK_RADIUS) + MAP_BLOCK
	local again = false
	minetest.emerge_area(vector.subtract(centre, margin), vector.add(centre, margin), function(_, action, remaining)
		if action == minetest.EMERGE_CANCELLED or action == minetest.EMERGE_ERRORED then
			again = true
		end
		if remaining > 0 then
			return
		end
		if again and (tries or 1) < GENERATE_TRIES then
			return minetest.after(0, generate_around, centre, callback, radius, (tries or 1) + 1)
		end
		callback()
	end)
end

api.standing_at = standing_at
api.is_open = is_open
api.prepare_spot = prepare_spot
api.generate_around = generate_around
api.dimension_at = dimension_at
api.biome_at = biome_at
api.in_cave = in_cave

-- What an event that can change the verdict would be about if the player stood at `feet` and did nothing:
-- the biome, a watched node or entity in view, the node under the feet. nil when the spot is neutral.
local function met_at(feet)
	local find = relevant.find or {}
	local biome = biome_at(feet)
	if biome ~= nil and find[biome] then
		return biome
	end
	for name in pairs(in_view(feet, task.trackers.find, {})) do
		if find[target_of(name)] then
			return target_of(name)
		end
	end
	local under = minetest.get_node({x = math.floor(feet.x + 0.5), y = math.floor(feet.y + 0.5) - 1,
		z = math.floor(feet.z + 0.5)}).name
	local reach = relevant.reach or {}
	if reach[target_of(under)] then
		return target_of(under)
	end
	return nil
end

-- Where the start searches for a spot when the task names none: the origin, then circles around it further
-- and further out (as find_biome does); spots in a biome a find goal watches are passed over at once (the
-- biome noise needs no generated map), the rest are checked in full by choose_start.
local SPAWN = {x = 0, z = 0}
-- Map beyond the find radius generated before the start is checked: decorations (trees) reach across the
-- edges of the map blocks they are generated with.
local VIEW_MARGIN = 16
-- In a savanna an acacia stands in view of most spots: enough candidates that one is clear.
local SPAWN_CANDIDATES = 40
local function spawn_candidates(origin)
	local out = {}
	local find = relevant.find or {}
	local step = 16
	for radius = 0, 2048, step do
		local n = math.max(1, math.floor(2 * math.pi * radius / step))
		for i = 0, n - 1 do
			local angle = 2 * math.pi * i / n
			local x = math.floor(origin.x + radius * math.cos(angle) + 0.5)
			local z = math.floor(origin.z + radius * math.sin(angle) + 0.5)
			local y = minetest.get_spawn_level(x, z)
			if y ~= nil then
				local biome = biome_at({x = x, y = y, z = z})
				if biome == nil or not find[biome] then
					out[#out + 1] = {x = x, y = y, z = z}
					if #out >= SPAWN_CANDIDATES then
						return out
					end
				end
			end
		end
	end
	return out
end

-- Choose the start: the task's position, else a spot in its biome, else the nearest spot to the origin where
-- nothing that can change the verdict is already true (no goal is met at the spawn unless the initialization
-- says so). Calls back with the feet position and a note for the status.
local function choose_start(callback)
	local init = task.init
	if init.position ~= nil then
		local pos = {x = init.position[1], y = init.position[2], z = init.position[3]}
		minetest.emerge_area(vector.subtract(pos, 8), vector.add(pos, 8), function(_, _, remaining)
			if remaining == 0 then
				callback(pos, {given = true})
			end
		end)
		return
	end
	local candidates = spawn_candidates(SPAWN)
	local neutral = true
	if init.biomes ~= nil then
		local spot = find_biome({x = SPAWN.x, y = 8, z = SPAWN.z}, init.biomes)
		if spot == nil then
			minetest.log("warning", "[taskverse] no " .. table.concat(init.biomes, "/") .. " biome near spawn")
		else
			candidates = {spot, {x = spot.x + 4, z = spot.z + 4, y = spot.y},
				{x = spot.x - 4, z = spot.z - 4, y = spot.y}}
		end
		neutral = false -- the initialization puts the player there: its biome is meant to be seen
	end
	local fallback, skipped = nil, {}
	local function try(i)
		local c = candidates[i]
		if c == nil then
			if fallback == nil then
				error("taskverse: task " .. task.id .. ": no ground to stand on near the spawn")
			end
			return callback(fallback, {neutral = false, met = skipped})
		end
		prepare_spot(c.x, c.z, c.y, function(feet)
			if feet == nil then
				return try(i + 1)
			end
			if not neutral then
				return callback(feet, {neutral = neutral, candidate = i})
			end
			-- Everything the player could see from there must exist before the check: a tree whose map
			-- block is generated a moment later would be "found" standing still.
			local r = (task.trackers.find.radius or 8) + VIEW_MARGIN
			minetest.emerge_area(vector.subtract(feet, r), vector.add(feet, r), function(_, _, remaining)
				if remaining > 0 then
					return
				end
				local met = met_at(feet)
				if met == nil then
					return callback(feet, {neutral = neutral, candidate = i})
				end
				fallback = fallback or feet
				skipped[#skipped + 1] = met
				try(i + 1)
			end)
		end)
	end
	try(1)
end

-- Put the player at `feet` and check a moment later that it stands there (a client's late position update
-- or an unloaded map can move it); place it again if not, up to PLACE_TRIES times.
local PLACE_CHECK = 0.1
local PLACE_TRIES = 10
local function place_player(name, feet, check_standing, tries, callback)
	local player = minetest.get_player_by_name(name)
	if player == nil then
		return
	end
	player:set_pos(feet)
	minetest.after(PLACE_CHECK, function()
		local current = minetest.get_player_by_name(name)
		if current == nil then
			return
		end
		local pos = current:get_pos()
		if vector.distance(pos, feet) < 0.5 and (not check_standing or standing_at(pos)) then
			return callback(current, tries)
		end
		if tries >= PLACE_TRIES then
			error("taskverse: the player does not stay at " .. minetest.pos_to_string(feet) .. " (it is at " ..
				minetest.pos_to_string(pos, 1) .. " after " .. tries .. " tries)")
		end
		minetest.log("warning", "[taskverse] the player is at " .. minetest.pos_to_string(pos, 1) ..
			", not standing at " .. minetest.pos_to_string(feet) .. ": placing it again")
		place_player(name, feet, check_standing, tries + 1, callback)
	end)
end

-- The inventory, the wielded item and the time of day of the start.
local function apply_inventory(player)
	local init = task.init
	if init.time ~= nil then
		minetest.set_timeofday(init.time)
	end
	if init.inventory == nil then
		return
	end
	local inv = player:get_inventory()
	inv:set_list("main", {})
	inv:set_list("craft", {})
	if init.wield ~= nil then
		inv:set_stack("main", player:get_wield_index(), ItemStack(init.wield))
	end
	for _, entry in ipairs(init.inventory) do
		-- a stack at most as big as the item's (two bows are two stacks): the engine puts a bigger stack added to
		-- an empty slot into it whole, and then keeps only a stack's worth of it
		local most = math.max(1, ItemStack(entry.name):get_stack_max())
		for given = 0, entry.count - 1, most do
			inv:add_item("main", ItemStack(entry.name .. " " .. math.min(most, entry.count - given)))
		end
	end
end

-- The blocks and mobs the start puts around the player (again after a soft reset: mobs left are removed).
local function apply_surroundings(state)
	local init = task.init
	local pos = vector.round(state.start_pos)
	local blocks = {}
	for _, entry in ipairs(init.nearby) do
		for _ = 1, entry.count do
			blocks[#blocks + 1] = entry.name
		end
	end
	local first = state.start_nodes == nil
	if first then
		state.start_nodes = {}
	end
	for i, spot in ipairs(ring(pos, #blocks, 2)) do
		if first then -- what was there before the start: another task's start in this server puts it back
			local meta = #minetest.find_nodes_with_meta(spot, spot) > 0 and minetest.get_meta(spot):to_table() or nil
			table.insert(state.start_nodes, 1, {pos = spot, node = minetest.get_node(spot), meta = meta})
		end
		minetest.set_node(spot, {name = blocks[i]})
	end
	for _, obj in ipairs(state.summoned or {}) do
		if obj:get_luaentity() ~= nil then
			obj:remove()
		end
	end
	state.summoned = {}
	local mobs_list = {}
	for _, entry in ipairs(init.summon) do
		for _ = 1, entry.count do
			mobs_list[#mobs_list + 1] = entry.name
		end
	end
	for i, spot in ipairs(ring({x = pos.x, y = pos.y + 0.5, z = pos.z}, #mobs_list, 3)) do
		local obj = minetest.add_entity(spot, mobs_list[i])
		state.summoned[#state.summoned + 1] = obj
		-- a villager raised to a level (the game's experience, by profession: taskverse_mc's trading.lua)
		local entity = obj ~= nil and obj:get_luaentity() or nil
		if init.experience ~= nil and entity ~= nil and entity._taskverse_experience ~= nil then
			entity._taskverse_experience(entity, init.experience)
		end
	end
end

-- Take away the blocks the start put around the player (the last placed first), for another task's start.
local function undo_surroundings(state)
	for _, entry in ipairs(state.start_nodes or {}) do
		minetest.swap_node(entry.pos, entry.node)
		minetest.get_meta(entry.pos):from_table(entry.meta)
	end
	state.start_nodes = nil
end

-- Start (or restart) observing a player from its start.
local function begin(player, state)
	state.reach, state.seen, state.built = {}, {}, {}
	state.biome, state.standing_on = nil, nil
	state.start_day = minetest.get_day_count()
	state.inventory = inventory_counts(player)
	state.wield = player:get_wielded_item():get_name()
	state.dimension = dimension_at(player:get_pos())
	state.ready = true
	episode_start = clock
	changes.start(player:get_pos())
	write_status()
	api.poll(player)
end

-- The player as the start left it (every inventory list, health, breath, physics, where it looks) and the time of
-- day: what api.restart puts back.
local function take_start(player)
	local lists = {}
	for listname, list in pairs(player:get_inventory():get_lists()) do
		local items = {}
		for i, stack in ipairs(list) do
			items[i] = stack:to_string()
		end
		lists[listname] = items
	end
	return {lists = lists, hp = player:get_hp(), breath = player:get_breath(), physics = player:get_physics_override(),
		look = {player:get_look_horizontal(), player:get_look_vertical()}, time = minetest.get_timeofday()}
end

local function put_start(player, start)
	local inv = player:get_inventory()
	for listname in pairs(inv:get_lists()) do
		if start.lists[listname] == nil then
			inv:set_size(listname, 0)
		end
	end
	for listname, items in pairs(start.lists) do
		inv:set_size(listname, #items)
		inv:set_list(listname, items)
	end
	player:set_hp(start.hp)
	player:set_breath(start.breath)
	player:set_physics_override(start.physics)
	player:set_look_horizontal(start.look[1])
	player:set_look_vertical(start.look[2])
	minetest.set_timeofday(start.time)
end

-- Set up the task's start for a player (inventory, place, time, blocks and mobs around) and call back with the
-- player there, before it is observed.
local function set_up_start(player, state, callback)
	local name = player:get_player_name()
	apply_inventory(player)
	choose_start(function(feet, note)
		-- the map the player acts in from the start is generated to the end first: the blocks placed around it
		-- and what the player does there stay as they are (generate_around)
		generate_around(feet, function()
			place_player(name, feet, not note.given, 1, function(current, tries)
				state.start_pos = current:get_pos()
				note.tries = tries
				status.players[name] = {ready_at = clock, start = state.start_pos, spawn = note}
				apply_surroundings(state)
				state.start = take_start(current)
				callback(current)
			end)
		end)
	end)
end

local function setup_player(player)
	local name = player:get_player_name()
	if task == nil or players[name] ~= nil then
		return
	end
	local state = {ready = false, reach = {}, seen = {}, built = {}, inventory = {}, wield = ""}
	players[name] = state
	state.joined = take_start(player) -- the player as it joined: where another task's start begins
	set_up_start(player, state, function(current)
		begin(current, state)
	end)
end

minetest.register_on_joinplayer(setup_player)

-------------------------------------------------------------------------------------------------------------
-- Soft resets (Craftium's env.reset() with soft_reset=True): the same start again, without a new engine
-------------------------------------------------------------------------------------------------------------

local function soft_reset()
	episode = episode + 1
	trace = {}
	placed = {}
	status.episode = episode
	status.satisfied, status.satisfied_seq, status.satisfied_at = false, nil, nil
	status.failed, status.failed_seq, status.failed_at, status.decided_clock = false, nil, nil, nil
	status.outcome, status.clock = "pending", 0.0
	status.progress = 0.0
	status.terminated = false
	for _, player in ipairs(minetest.get_connected_players()) do
		local state = players[player:get_player_name()]
		if state ~= nil and state.ready then
			apply_inventory(player)
			player:set_pos(state.start_pos)
			apply_surroundings(state)
			begin(player, state)
		end
	end
	set_reward(0.0)
	soft_reset_requested = false
	reset_termination() -- in Craftium this also clears the soft reset request
	minetest.log("action", "[taskverse] soft reset: episode " .. episode)
	write_status()
end

-------------------------------------------------------------------------------------------------------------
-- Restarts (an agent's episode started again in the same server, taskverse.engine.episode): the start as the
-- first one set it up, and a verdict, an event log and a clock that begin again, as in a fresh server
-------------------------------------------------------------------------------------------------------------

-- Every object but the players: mobs, dropped items, falling blocks (the start's own mobs are summoned again).
local function clear_objects()
	local objects = {}
	for _, entity in pairs(minetest.luaentities) do
		objects[#objects + 1] = entity.object
	end
	for _, obj in ipairs(objects) do
		obj:remove()
	end
end

local function new_verdict()
	trace, placed, seq = {}, {}, 0
	status.satisfied, status.satisfied_seq, status.satisfied_at = false, nil, nil
	status.failed, status.failed_seq, status.failed_at, status.decided_clock = false, nil, nil, nil
	status.outcome, status.clock, status.progress, status.events = "pending", 0.0, 0.0, 0
	status.rewards, status.reward_total, status.terminated = {}, 0.0, false
	set_reward(0.0)
	reset_termination()
	if log_file ~= nil then
		log_file:close()
	end
	log_file = io.open(worldfile(EVENTS_FILE), "w")
end

local load_task, world_problems -- the task's data read in (below, with api.start)

-- Start another task (`data`, a compiled task's data as its mod holds it) for a player in this server: the
-- map put back as the last episode began and the last start's blocks taken away, the player as it joined, then
-- the new task's start set up as a fresh server sets it up. Refused (`callback(false, why)`) when the task needs
-- another world or other hooks than this server was started with.
local function switch_task(state, player, data, callback)
	local problems = world_problems(data)
	if #problems > 0 then
		return callback(false, "task " .. tostring(data.id) .. " needs another server: " ..
			table.concat(problems, "; "))
	end
	restarting = true
	state.ready = false
	local unrestored = changes.restore()
	local differ = changes.differences()
	if unrestored > 0 or differ > 0 then
		restarting = false
		return callback(false, unrestored > 0 and (unrestored .. " changed nodes are no longer loaded") or
			(differ .. " nodes around the start changed beyond what the runtime can put back"))
	end
	undo_surroundings(state)
	clear_objects()
	state.summoned = {}
	load_task(data)
	put_start(player, state.joined)
	set_up_start(player, state, function(current)
		restarting = false
		new_verdict()
		begin(current, state)
		minetest.log("action", "[taskverse] restart: " .. task.id .. " from its start (another task)")
		callback(true)
	end)
end

--- Start player `name`'s episode again from its start; `callback(true)` once it can act, or `callback(false,
-- why)` when this server cannot give the start back whole (the player died, the map around the start changed in
-- a way changes.lua does not see, a changed node was unloaded since): the caller then starts a fresh world.
-- With `data` (another compiled task's data) the episode is that task's, from its own start (switch_task).
function api.restart(name, callback, data)
	local state = players[name]
	local player = minetest.get_player_by_name(name)
	if task == nil or state == nil or not state.ready or state.start == nil or player == nil then
		return callback(false, "the player's start is not set up")
	end
	if player:get_hp() <= 0 then
		return callback(false, "the player is dead")
	end
	if data ~= nil then
		return switch_task(state, player, data, callback)
	end
	restarting = true
	state.ready = false
	local unrestored = changes.restore()
	clear_objects()
	state.summoned = {}
	put_start(player, state.start)
	place_player(name, state.start_pos, false, 1, function(current)
		apply_surroundings(state)
		local differ = changes.differences()
		restarting = false
		if unrestored > 0 or differ > 0 then
			return callback(false, unrestored > 0 and (unrestored .. " changed nodes are no longer loaded") or
				(differ .. " nodes around the start changed beyond what the runtime can put back"))
		end
		new_verdict()
		begin(current, state)
		minetest.log("action", "[taskverse] restart: " .. task.id .. " from its start")
		callback(true)
	end)
end

api.soft_reset_check = function()
	if task ~= nil and get_soft_reset() == 1 then
		soft_reset()
	end
end

api.find_biome = find_biome

--- Where a player's episode started (after the start's travel to a biome), or nil.
function api.start_of(name)
	local state = players[name]
	return state ~= nil and state.start_pos and vector.new(state.start_pos) or nil
end

--- Whether a player's start is set up (the harness waits for this before it acts).
function api.is_ready(name)
	local state = players[name]
	return state ~= nil and state.ready
end

--- The verdict so far (what taskverse_status.json holds).
function api.status()
	return status
end

api.json = json

-------------------------------------------------------------------------------------------------------------
-- The entry point of a compiled task mod
-------------------------------------------------------------------------------------------------------------

-- The same setting value, whatever the spelling: flags in any order and spacing, booleans and numbers as text.
local function setting_text(value)
	local text = tostring(value)
	if text:find(",", 1, true) then
		local words = {}
		for word in text:gmatch("[^,%s]+") do
			words[#words + 1] = word
		end
		table.sort(words)
		return table.concat(words, ",")
	end
	return text
end

-- Whether a flags setting holds every flag the task names: once the engine saves a world's map_meta.txt it
-- writes every flag out, the ones the task left at their defaults too (`nocaves,nodungeons` comes back as
-- `nocaves, nodungeons, light, decorations, biomes, ores`), and the world must start again.
local function has_flags(have, wanted)
	local present = {}
	for word in tostring(have):gmatch("[^,%s]+") do
		present[word] = true
	end
	for word in tostring(wanted):gmatch("[^,%s]+") do
		if not present[word] then
			return false
		end
	end
	return true
end

local function holds(key, have, wanted)
	if have == nil then
		return false
	end
	if key:sub(-5) == "flags" then
		return has_flags(have, wanted)
	end
	return setting_text(have) == setting_text(wanted)
end

-- The task's map generator settings (from the world's map_meta.txt) and engine settings (from a config file,
-- the game's minetest.conf in a compiled folder) must hold as compiled: the plans and the verdicts depend on
-- them. The values found go into the status; the wrong ones are returned, each in words.
local function settings_problems(data)
	local wrong = {}
	for _, key in ipairs(sorted_keys(data.mapgen or {})) do
		local have = minetest.get_mapgen_setting(key)
		status.settings[key] = have
		if not holds(key, have, data.mapgen[key]) then
			wrong[#wrong + 1] = "map generator setting " .. key .. " is " .. tostring(have) .. ", not " ..
				tostring(data.mapgen[key])
		end
	end
	for _, key in ipairs(sorted_keys(data.settings or {})) do
		local have = minetest.settings:get(key)
		status.settings[key] = have
		if not holds(key, have, data.settings[key]) then
			wrong[#wrong + 1] = "setting " .. key .. " is " .. tostring(have) .. ", not " .. tostring(data.settings[key])
		end
	end
	return wrong
end

local function format_problem(data)
	if data.format ~= FORMAT then
		return "task " .. tostring(data.id) .. " was compiled for runtime format " .. tostring(data.format) ..
			", this runtime reads format " .. FORMAT .. "; recompile it"
	end
	return nil
end

-- What a server is started with for a task, beyond its settings: the mods it loads, the mobs registered at load
-- time, the game's dimensions and the callbacks wrapped when the mods are loaded (install_hooks). Another task
-- can follow in the same server only when it needs exactly these (taskverse.engine.ir.server_key says the same).
local function server_needs(data)
	local trackers = data.trackers or {}
	local interact = trackers.interact or {}
	return json.encode({mods = data.mods or {}, mobs = data.mobs or {}, dimensions = data.dimensions or false,
		use = trackers.use or {}, place = trackers.place or {}, kill = trackers.kill or {},
		interact = {nodes = interact.nodes or {}, entities = interact.entities or {}}})
end

local started_with -- server_needs of the task the server was started with

-- Why the server running now cannot run task `data` (each reason in words; none: it can).
world_problems = function(data)
	local format = format_problem(data)
	if format ~= nil then
		return {format}
	end
	local wrong = settings_problems(data)
	if server_needs(data) ~= started_with then
		wrong[#wrong + 1] = "other mods, mobs, dimensions or item callbacks than this server loaded"
	end
	return wrong
end

-- Read a task's data in: its expression resolved against its goals, the names and the trackers it watches.
load_task = function(data)
	task = data
	status.task = data.id
	names = data.names
	biomes = data.biomes
	task.expression = eval.resolve(data.expression, data.goals)
	relevant = eval.relevant(task.expression)
	local trackers = task.trackers
	trackers.find.entities_set = #trackers.find.entities > 0 and set_of(trackers.find.entities) or nil
	trackers.reach.nodes_set = #trackers.reach.nodes > 0 and set_of(trackers.reach.nodes) or nil
end

--- Run a compiled task: called once, at load time, by the task's generated mod.
function api.start(data)
	if task ~= nil then
		error("taskverse: a second task (" .. tostring(data.id) .. ") while running " .. task.id)
	end
	local format = format_problem(data)
	if format ~= nil then
		error("taskverse: " .. format)
	end
	local wrong = settings_problems(data)
	if #wrong > 0 then
		error("taskverse: task " .. tostring(data.id) .. " needs its own world and settings: " ..
			table.concat(wrong, "; ") .. " (the world's map_meta.txt and the game's minetest.conf hold them)")
	end
	started_with = server_needs(data)
	load_task(data)
	for _, mob in ipairs(data.mobs) do
		register_mob(mob)
	end
	minetest.register_on_mods_loaded(install_hooks)
	log_file = io.open(worldfile(EVENTS_FILE), "w")
	write_status()
	minetest.register_on_shutdown(function()
		write_status()
		if log_file ~= nil then
			log_file:close()
			log_file = nil
		end
	end)
end
