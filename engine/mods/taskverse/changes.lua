-- taskverse/changes.lua: what an episode changes in the map, so that a restart can put the map back as it began.
--
-- An agent's episode (taskverse.engine.episode) can start again in the running server instead of a new one
-- (api.restart in init.lua). The map must then be the one the episode began with, nodes and their metadata and
-- timers alike. While recording, every node the game's Lua changes (set_node, add_node, remove_node, swap_node,
-- bulk_set_node, the node level functions) or hands out the metadata or timer of (get_meta, get_node_timer: a
-- furnace's or a chest's contents) is remembered as it was the first time, and `restore` writes those back. A
-- map chunk generated meanwhile is not a change (the map generator's callbacks run unrecorded): it is what the
-- map holds at that seed.
--
-- Changes the engine makes in C++ (flowing liquids) or through a voxel manipulator (an explosion, a tree grown from
-- a sapling) are not seen. `differences` compares the map around the start with what it held when recording began,
-- so the caller can tell a start put back whole from one it must leave to a fresh world.

local raw = {}
for _, name in ipairs({"set_node", "add_node", "remove_node", "swap_node", "bulk_set_node", "get_meta",
		"get_node_timer", "set_node_level", "add_node_level"}) do
	raw[name] = minetest[name]
end

local originals = {} -- hashed position -> {pos, node, meta, timer}: each touched node as it was before
local touched = 0
local recording = false
local generating = 0 -- > 0 while the map generator's callbacks run

local function remember(pos)
	if not recording or generating > 0 or type(pos) ~= "table" then
		return
	end
	local p = vector.round(pos)
	local hash = minetest.hash_node_position(p)
	if originals[hash] ~= nil then
		return
	end
	local node = minetest.get_node_or_nil(p)
	if node == nil then -- not loaded: the engine changes nothing there either
		return
	end
	local timer = raw.get_node_timer(p)
	-- a node with no metadata is left with none (reading it with to_table would make an empty one)
	local meta = #minetest.find_nodes_with_meta(p, p) > 0 and raw.get_meta(p):to_table() or nil
	originals[hash] = {pos = p, node = node, meta = meta,
		timer = timer:is_started() and {timer:get_timeout(), timer:get_elapsed()} or nil}
	touched = touched + 1
end

local function at_pos(name)
	minetest[name] = function(pos, ...) -- luacheck: ignore 122 (the engine's own functions, recorded)
		remember(pos)
		return raw[name](pos, ...)
	end
end

for _, name in ipairs({"set_node", "add_node", "remove_node", "swap_node", "get_meta", "get_node_timer",
		"set_node_level", "add_node_level"}) do
	at_pos(name)
end

minetest.bulk_set_node = function(positions, node) -- luacheck: ignore 122 (the engine's own function, recorded)
	for _, pos in ipairs(positions) do
		remember(pos)
	end
	return raw.bulk_set_node(positions, node)
end

-- The map generator's callbacks (a game's structures, its bee nests) run unrecorded: they are the map's own.
local function unrecorded(callback)
	return function(...)
		generating = generating + 1
		local results = {pcall(callback, ...)}
		generating = generating - 1
		if not results[1] then
			error(results[2], 0)
		end
		return unpack(results, 2)
	end
end

minetest.register_on_mods_loaded(function()
	local callbacks = minetest.registered_on_generateds
	for i, callback in ipairs(callbacks) do
		callbacks[i] = unrecorded(callback) -- luacheck: ignore 122 (the engine reads them from there)
	end
end)

local RADIUS = 16 -- the map compared around the start: what the player sees and reaches from it, and more

local function read_around(centre)
	local pos = vector.round(centre)
	local vm = minetest.get_voxel_manip()
	vm:read_from_map(vector.subtract(pos, RADIUS), vector.add(pos, RADIUS))
	return {centre = pos, data = vm:get_data(), param2 = vm:get_param2_data()}
end

local M = {}

--- Start recording from the map as it is now, around `centre` (the start): what was recorded before is forgotten.
function M.start(centre)
	originals, touched = {}, 0
	M.around = read_around(centre)
	recording = true
end

--- Stop recording (while a restart puts things back).
function M.pause()
	recording = false
end

--- Put every recorded node back as it was (node, metadata, timer); the number of nodes that could not be.
function M.restore()
	recording = false
	local failed = 0
	for _, entry in pairs(originals) do
		if minetest.get_node_or_nil(entry.pos) == nil then
			failed = failed + 1 -- unloaded since (far from the start, long ago): left to a fresh world
		else
			raw.swap_node(entry.pos, entry.node) -- no construct or destruct callbacks: the node as it was
			raw.get_meta(entry.pos):from_table(entry.meta) -- nil: no metadata at all
			local timer = raw.get_node_timer(entry.pos)
			if entry.timer ~= nil then
				timer:set(entry.timer[1], entry.timer[2])
			else
				timer:stop()
			end
		end
	end
	originals, touched = {}, 0
	return failed
end

--- How many nodes around the start differ from what they were when recording began (what `restore` missed).
function M.differences()
	if M.around == nil then
		return 0
	end
	local now = read_around(M.around.centre)
	local before = M.around
	local count = 0
	for i = 1, #before.data do
		if now.data[i] ~= before.data[i] or now.param2[i] ~= before.param2[i] then
			count = count + 1
		end
	end
	return count
end

--- How many nodes were touched since recording began.
function M.touched()
	return touched
end

return M
