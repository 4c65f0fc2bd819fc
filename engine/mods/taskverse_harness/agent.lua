-- taskverse_harness/agent.lua: an agent acts one step at a time, through the harness's own actions.
--
-- Loaded by init.lua when the server setting `taskverse_interactive` is true (taskverse.engine.episode sets it).
-- The channel is files in the world folder, which default mod security lets a mod read and write:
--   * Python writes taskverse_act_<n>.json (one action of the plan format, n = 1, 2, ...), renamed into place
--     whole, so the harness never reads half a file;
--   * a globalstep looks for the next one (one io.open a server step), plays it with the same action the
--     scripted harness plays (init.lua's `perform`), and writes taskverse_obs_<n>.json (safe_file_write:
--     written aside and renamed) with the step's outcome and an observation of the world;
--   * taskverse_obs_0.json is the first observation, written once the runtime has set up the start;
--   * an action file holding {"restart": true} (Python's own: an agent's action is one of the plan format, which
--     has no such field) starts the episode again from its start in this server (the runtime's api.restart); the
--     answer is the new episode's first observation, or ok = false with `fresh` when only a fresh world can give
--     the start back. With "task": "taskverse_task_<n>.json" (a file Python wrote beside it: another compiled
--     task's data) the new episode is that task's, from its own start, when this server can run it.
-- A bad action (unknown, malformed, an action that raises) fails its step with the reason; the server goes on.

local ACT = "taskverse_act_"
local OBS = "taskverse_obs_"
local NODE_RADIUS = 8      -- nodes counted around the player, by kind
local REACH = 4.5          -- within this distance of the eyes a node or an entity is in reach
local ENTITY_RADIUS = 16   -- entities and dropped items counted around the player
local READY_TIMEOUT = 20.0
local EYE_HEIGHT = 1.5
local SKIP = {air = true, ignore = true}

-- The player's first-person frames (taskverse.engine.frames) show the world, not the server's greeting: no status
-- line and no "joined" message in the chat of an agent's episode.
local server_status = minetest.get_server_status
minetest.get_server_status = function(player_name, joined) -- luacheck: ignore 122 (builtin's hook)
	if joined then
		return ""
	end
	return server_status(player_name, joined)
end
minetest.send_join_message = function() end -- luacheck: ignore 122 (builtin's hook)

return function(h)
	local runtime, json, perform = h.runtime, h.json, h.perform

	local function round(x, places)
		local m = 10 ^ (places or 1)
		return math.floor(x * m + 0.5) / m
	end

	local function at(pos)
		return {round(pos.x), round(pos.y), round(pos.z)}
	end

	-- Count one thing (`count` of them) of kind `name` into `kinds`, keeping the nearest: its distance `d` and
	-- `nearest`, what the caller reads it back from (a node's index in the map read, an entity's object).
	local function tally(kinds, name, count, d, nearest)
		local entry = kinds[name]
		if entry == nil then
			kinds[name] = {count = count, d = d, nearest = nearest}
		else
			entry.count = entry.count + count
			if d < entry.d then
				entry.d, entry.nearest = d, nearest
			end
		end
	end

	-- Every node kind within NODE_RADIUS: how many, the nearest one, its distance, whether it is in reach and
	-- in sight (the runtime's own rule, as for "find"). One read of the map (a voxel manipulator), no search.
	local function nodes_near(feet)
		local p1, p2 = vector.subtract(feet, NODE_RADIUS), vector.add(feet, NODE_RADIUS)
		local vm = minetest.get_voxel_manip()
		local e1, e2 = vm:read_from_map(p1, p2)
		local area = VoxelArea:new({MinEdge = e1, MaxEdge = e2})
		local data = vm:get_data()
		local eye = {x = feet.x, y = feet.y + EYE_HEIGHT, z = feet.z}
		local found, names = {}, {}
		for z = p1.z, p2.z do
			for y = p1.y, p2.y do
				for x = p1.x, p2.x do
					local i = area:index(x, y, z)
					local id = data[i]
					local name = names[id]
					if name == nil then
						name = minetest.get_name_from_content_id(id)
						names[id] = name
					end
					if not SKIP[name] then
						local dx, dy, dz = x - eye.x, y - eye.y, z - eye.z
						tally(found, name, 1, math.sqrt(dx * dx + dy * dy + dz * dz), i)
					end
				end
			end
		end
		local out = {}
		for name, entry in pairs(found) do
			local pos = area:position(entry.nearest)
			out[name] = {count = entry.count, nearest = {pos.x, pos.y, pos.z}, distance = round(entry.d),
				reach = entry.d <= REACH, sight = runtime.sees(feet, pos)}
		end
		return out
	end

	-- Mobs and dropped items within ENTITY_RADIUS by kind (items by the item they are, counted by the stack).
	local function entities_near(player)
		local pos = player:get_pos()
		local mobs, drops = {}, {}
		for _, obj in ipairs(minetest.get_objects_inside_radius(pos, ENTITY_RADIUS)) do
			local entity = obj:get_luaentity()
			if entity ~= nil then
				local d = vector.distance(pos, obj:get_pos())
				if entity.name == "__builtin:item" then
					local stack = ItemStack(entity.itemstring or "")
					if not stack:is_empty() then
						tally(drops, stack:get_name(), stack:get_count(), d, obj)
					end
				elseif entity.name ~= "" then
					tally(mobs, entity.name, 1, d, obj)
				end
			end
		end
		local function seen(kinds, with_hp)
			local out = {}
			for name, entry in pairs(kinds) do
				out[name] = {count = entry.count, nearest = at(entry.nearest:get_pos()), distance = round(entry.d),
					reach = entry.d <= REACH, hp = with_hp and entry.nearest:get_hp() or nil}
			end
			return out
		end
		return seen(mobs, true), seen(drops, false)
	end

	local function observe(player)
		local inventory = {}
		for _, stack in ipairs(player:get_inventory():get_list("main")) do
			if not stack:is_empty() then
				inventory[stack:get_name()] = (inventory[stack:get_name()] or 0) + stack:get_count()
			end
		end
		local pos = player:get_pos()
		local feet = vector.round(pos)
		local tod = minetest.get_timeofday()
		local mobs, drops = entities_near(player)
		local status = runtime.status()
		local biome_data = minetest.get_biome_data(pos)
		return {
			inventory = inventory,
			held = player:get_wielded_item():get_name(),
			health = player:get_hp(),
			max_health = player:get_properties().hp_max,
			breath = player:get_breath(),
			position = at(pos),
			dimension = runtime.dimension_at(pos),
			biome = runtime.biome_at(pos),
			game_biome = biome_data and biome_data.biome and minetest.get_biome_name(biome_data.biome) or nil,
			in_cave = runtime.in_cave(pos),
			time_of_day = round(tod, 3),
			daytime = tod >= 0.25 and tod < 0.75,
			weather = "clear", -- the engine's games have no weather
			nodes = nodes_near(feet),
			entities = mobs,
			drops = drops,
			task = {satisfied = status.satisfied, failed = status.failed, outcome = status.outcome,
				progress = status.progress, events = status.events, clock = status.clock},
		}
	end

	local name          -- the agent's player
	local next_step = 1 -- the number of the action looked for
	local busy = false
	local clock = 0.0

	local function answer(index, fields)
		local player = minetest.get_player_by_name(name)
		local out = fields
		out.step = index
		local t0 = minetest.get_us_time()
		out.observation = player ~= nil and observe(player) or nil
		out.observe_us = minetest.get_us_time() - t0
		if player == nil then
			out.error = out.error or "the player left"
		end
		minetest.safe_file_write(h.worldfile(OBS .. index .. ".json"), json.encode(out) .. "\n")
	end

	-- Another task's data, from the file Python wrote beside the action (taskverse_task_<n>.json); nil and why not.
	local function task_data(file)
		if type(file) ~= "string" or not file:match("^taskverse_task_%d+%.json$") then
			return nil, "no such task file: " .. tostring(file)
		end
		local handle = io.open(h.worldfile(file), "r")
		if handle == nil then
			return nil, "no task file " .. file
		end
		local data = minetest.parse_json(handle:read("*a"))
		handle:close()
		if type(data) ~= "table" then
			return nil, "the task file " .. file .. " is not a task's data"
		end
		return data
	end

	local function restart(index, step)
		local function finish(ok, err)
			answer(index, {ok = ok, error = err, fresh = not ok or nil, restarted = ok or nil})
			next_step = index + 1
			busy = false
		end
		local data, why
		if step.task ~= nil then
			data, why = task_data(step.task)
			if data == nil then
				return finish(false, why)
			end
		end
		runtime.restart(name, function(ok, err)
			local player = ok and data ~= nil and minetest.get_player_by_name(name)
			if not player then
				return finish(ok, err)
			end
			-- another task's start: the map around it generated to the end first, as for the first observation
			runtime.generate_around(player:get_pos(), function()
				finish(true)
			end)
		end, data)
	end

	local function play(index, text)
		local step = minetest.parse_json(text)
		if type(step) == "table" and step.restart == true then
			return restart(index, step)
		end
		local record = {}
		local answered = false
		local started = clock
		local function done(ok, err)
			if answered then
				return
			end
			answered = true
			local player = minetest.get_player_by_name(name)
			if player ~= nil then
				runtime.poll(player)
			end
			answer(index, {ok = ok and true or false, error = err, record = record, seconds = clock - started,
				["do"] = type(step) == "table" and step["do"] or nil})
			next_step = index + 1
			busy = false
		end
		if type(step) ~= "table" then
			return done(false, "the action is not a JSON object")
		end
		local player = minetest.get_player_by_name(name)
		if player == nil then
			return done(false, "the player left")
		end
		perform(player, step, done, record)
	end

	minetest.register_globalstep(function(dtime)
		clock = clock + dtime
		if name == nil or busy then
			return
		end
		local path = h.worldfile(ACT .. next_step .. ".json")
		local handle = io.open(path, "r")
		if handle == nil then
			return
		end
		local text = handle:read("*a")
		handle:close()
		busy = true
		play(next_step, text)
	end)

	local function await_ready(player_name, waited)
		if runtime.is_ready(player_name) then
			local player = minetest.get_player_by_name(player_name)
			if player == nil then
				return
			end
			-- the map around the start generated to the end first, so the first observation is the same every time
			-- (a chunk generated later would still change what is around: a neighbour's trees and grass)
			return runtime.generate_around(player:get_pos(), function()
				name = player_name
				answer(0, {ok = true})
			end)
		end
		if waited > READY_TIMEOUT then
			return minetest.safe_file_write(h.worldfile(OBS .. "0.json"), json.encode({step = 0, ok = false,
				error = "the task runtime did not set up the player within " .. READY_TIMEOUT .. " s"}) .. "\n")
		end
		minetest.after(0.05, await_ready, player_name, waited + 0.05)
	end

	return {
		join = function(player)
			minetest.after(0, await_ready, player:get_player_name(), 0)
		end,
	}
end
