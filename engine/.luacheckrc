-- luacheck settings for the engine's Lua (hand-written mods and compiled task mods): LuaJIT, the engine's API.
std = "luajit"
max_line_length = 120
read_globals = {
	"minetest", "core", "vector", "ItemStack", "VoxelArea", "PcgRandom", "dump", "mobs", "taskverse",
	table = {fields = {"copy"}},
	-- Craftium's additions to the Lua API (engine/mods/taskverse defines stand-ins when they are missing)
	"set_reward", "set_reward_once", "get_reward", "set_termination", "get_termination", "reset_termination",
	"get_soft_reset",
}
