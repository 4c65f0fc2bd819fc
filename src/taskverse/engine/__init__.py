"""The real engine.

game profiles, compiling tasks to Lua mods, the scripted-player harness and its planner, and running episodes.
"""
