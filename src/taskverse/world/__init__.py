"""The game world as a model of resources and actions.

its dependency graph, the rules the text environment steps, and the planner over them.
"""
