"""Games generated from the library's game knowledge (``taskverse_mc``: Minecraft 1.20 under its own names).

``content`` turns the knowledge into what the game registers (plain data); ``build`` writes the game folder the
engine loads. The profile under ``engine/games/<game>/`` (registry, mapping) is then dumped from the running game,
as for any installed game.
"""
