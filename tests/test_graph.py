"""Dependency graphs: acyclic over the whole library, the atom on top, and MCU Figure 2 for craft bed."""

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from taskverse.world.graph import AND, OR, _cut_cycles, resource_node, task_node


def test_world_graph_is_acyclic(library):
    assert nx.is_directed_acyclic_graph(library.world.graph)


def test_every_atom_graph_is_acyclic_with_the_atom_on_top(library):
    world = library.world
    for task in library.tasks[::7]:
        graph = world.dependency_graph(task.id)
        assert nx.is_directed_acyclic_graph(graph)
        assert [n for n in graph if graph.out_degree(n) == 0] == [task_node(task.id)]


def test_edges_are_and_or_or_with_the_right_direction(library):
    graph = library.world.graph
    for _, v, data in graph.edges(data=True):
        assert data["dep"] in {AND, OR}
        if data["dep"] == OR:  # producer -> resource, member -> group, way -> task
            assert graph.nodes[v]["type"] in {"resource", "group", "task"}


def test_craft_bed_has_the_alternatives_of_figure_2(library):
    bed = library.by_id["craft.white_bed"]  # the figure's bed: its wool comes from string or a sheep, so white
    graph = library.world.dependency_graph(bed.id)
    top = task_node(bed.id)
    needs = {u for u, _ in graph.in_edges(top)}
    planks = [n for n in needs if graph.nodes[n].get("type") == "group"]
    assert planks and "oak_planks" in graph.nodes[planks[0]]["members"]
    assert len(graph.nodes[planks[0]]["members"]) >= 4  # any wood type ("Find XXX wood")
    wool = resource_node("item", "white_wool")
    assert wool in needs and graph.edges[wool, top]["dep"] == AND
    wool_sources = {u for u, _ in graph.in_edges(wool)}
    assert {task_node("hunt.sheep"), task_node("craft.white_wool")} <= wool_sources
    assert all(graph.edges[s, wool]["dep"] == OR for s in wool_sources)
    string_sources = {u for u, _ in graph.in_edges(resource_node("item", "string"))}
    assert task_node("combat.spider") in string_sources
    assert graph.has_edge(task_node("find.spider"), resource_node("entity", "spider"))


def test_recipe_loops_are_resolved_from_what_the_world_generates(library):
    world = library.world
    ingot = resource_node("item", "iron_ingot")
    producers = {u for u, _ in world.graph.in_edges(ingot)}
    assert task_node("smelt.iron_ingot") in producers
    assert task_node("craft.iron_ingot") not in producers  # from an iron block: recycling, not a source
    assert world.task_rank("craft.iron_block") > world.resource_rank("item", "iron_ingot")


def test_naive_graphs_are_larger_for_deeper_items(library):
    world = library.world
    sizes = {i: world.dependency_graph(f"obtain.{i}").number_of_nodes()
             for i in ("oak_log", "oak_planks", "wooden_pickaxe", "iron_pickaxe", "diamond_pickaxe")}
    assert sizes["oak_log"] < sizes["oak_planks"] < sizes["wooden_pickaxe"] < sizes["iron_pickaxe"]
    assert sizes["iron_pickaxe"] <= sizes["diamond_pickaxe"]


# -- alternatives pruned by cost (issue: graphs a player recognises) ------------------------------------------------


def test_bed_keeps_the_alternatives_of_mcu_figure_2(library):
    pre = set(library.world.pre_tasks("craft.white_bed"))
    assert {"hunt.sheep", "craft.white_wool", "combat.spider"} <= pre  # wool from a sheep or from string
    assert any(t.endswith("_planks") and t.startswith("craft.") for t in pre)  # any planks from any log


def test_iron_sword_holds_no_detours(library):
    pre = library.world.pre_tasks("craft.iron_sword")
    assert len(pre) <= 30, pre
    detours = [t for t in pre if any(word in t for word in ("dye", "carpet", "banner", "_wood"))]
    assert detours == []


def test_every_alternative_on_request(library):
    pruned = library.world.dependency_graph("craft.white_bed")
    every = library.world_with_every_alternative.dependency_graph("craft.white_bed")
    tasks = {n for n in pruned.nodes if n.startswith("task:")}
    assert tasks < {n for n in every.nodes if n.startswith("task:")}
    assert "task:craft.oak_wood" not in pruned.nodes  # planks from wood blocks made of logs: a detour


def test_every_alternative_holds_shearing(library):
    # Wool from a sheared sheep is a player's way to a bed: its shears are made once. The cycle it shares with
    # burning a banner for iron (wool -> banner -> fuel -> iron -> shears -> wool) is cut at the banner, whose every
    # unit burnt is dearer than a log, not at the shearing, which depths alone could not tell apart from it.
    every = library.world_with_every_alternative
    wool_producers = {u for u, _ in every.preds["item:white_wool"]}
    assert {"task:use.shear_sheep", "task:hunt.sheep", "task:craft.white_wool"} <= wool_producers
    assert "task:use.shear_sheep" in every.dependency_graph("craft.white_bed").nodes


def _restarting_cuts(order, succ, choose):
    """What ``_cut_cycles`` must give: ``networkx.find_cycle`` started again after every cut."""
    graph = nx.DiGraph()
    graph.add_nodes_from(order)
    graph.add_edges_from((u, v) for u in order for v in succ[u])
    cut = []
    while True:
        try:
            cycle = nx.find_cycle(graph)
        except nx.NetworkXNoCycle:
            return cut
        edge = choose([(u, v) for u, v, *_ in cycle])
        cut.append(edge)
        graph.remove_edge(*edge)


@st.composite
def _graphs(draw):
    """Small digraphs (self-loops too) as a node order, successor lists in some order, and a weight per edge."""
    order = draw(st.permutations(range(draw(st.integers(1, 9)))))
    edges = draw(st.lists(st.tuples(st.sampled_from(order), st.sampled_from(order)), unique=True, max_size=30))
    succ = {u: [v for w, v in edges if w == u] for u in order}
    weights = {edge: draw(st.integers(0, 3)) for edge in edges}
    return list(order), succ, weights


@settings(max_examples=300)
@given(_graphs(), st.sampled_from(["heaviest", "first", "last"]))
def test_rewinding_cuts_the_cycles_a_restart_would(graph, rule):
    # The walk is rewound after a cut instead of restarted (linear, not quadratic): the cuts must not change.
    order, succ, weights = graph
    choose = {"heaviest": lambda cycle: max(cycle, key=lambda e: (weights[e], e)),
              "first": lambda cycle: cycle[0], "last": lambda cycle: cycle[-1]}[rule]
    cut = _cut_cycles(order, succ, choose)
    assert cut == _restarting_cuts(order, succ, choose)
    left = nx.DiGraph([(u, v) for u in order for v in succ[u] if (u, v) not in cut])
    assert nx.is_directed_acyclic_graph(left)
