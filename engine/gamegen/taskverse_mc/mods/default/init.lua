-- mobs_redo (Debian's minetest-mod-mobs-redo) calls default.node_sound_*_defaults() when it registers its own
-- nodes, without checking that minetest_game's default mod is there. This game has no sounds: each returns an
-- empty table. The mod is named default so that the mobs mod, which optionally depends on default, loads after it.
-- luacheck: globals default
default = {}

local function no_sounds(table_in)
	return table_in or {}
end

for _, kind in ipairs({"stone", "dirt", "sand", "gravel", "wood", "leaves", "glass", "ice", "metal", "water",
		"snow", "defaults"}) do
	default["node_sound_" .. kind .. "_defaults"] = no_sounds
end
