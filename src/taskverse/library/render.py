"""Drawing dependency graphs: Graphviz DOT text always, PNG or SVG through matplotlib (no system Graphviz needed).

Colours follow MCU Figure 2: black arrows are AND dependencies, green arrows OR dependencies; tasks are boxes,
items and found things are ellipses, groups ("any planks") are diamonds.
"""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx

from taskverse.errors import TaskverseError
from taskverse.world.graph import OR

OR_COLOUR = "#2e8b3e"
AND_COLOUR = "#000000"


def node_label(graph: nx.DiGraph, node: str, tags: dict[str, list[str]] | None = None) -> str:
    """A short human label for a graph node."""
    data = graph.nodes[node]
    kind = data.get("type")
    if kind == "task":
        return str(data.get("label", node))
    if kind == "group":
        members = data.get("members", [])
        if len(members) <= 3:
            return " | ".join(members)
        for tag, tag_members in sorted((tags or {}).items()):
            if set(members) <= set(tag_members):
                return f"any {tag}"
        return f"any of {len(members)} {data.get('kind', 'item')}s"
    if kind == "way":
        return str(data.get("label", "way"))
    resource_kind = data.get("kind", "item")
    name = str(data.get("label", node))
    return name if resource_kind == "item" else f"{name} ({resource_kind})"


def _dot_string(text: str) -> str:
    # json.dumps escapes quotes, backslashes and control characters, which is exactly DOT's string syntax.
    return json.dumps(text, ensure_ascii=False)


def to_dot(graph: nx.DiGraph, title: str, tags: dict[str, list[str]] | None = None) -> str:
    """The graph as Graphviz DOT, deterministic (sorted nodes and edges)."""
    shapes = {"task": "box", "group": "diamond", "way": "circle"}
    lines = [f"digraph {_dot_string(title)} {{", "  rankdir=BT;", '  node [fontname="Helvetica", fontsize=10];']
    ids = {node: f"n{i}" for i, node in enumerate(sorted(graph.nodes))}
    for node in sorted(graph.nodes):
        shape = shapes.get(graph.nodes[node].get("type", ""), "ellipse")
        lines.append(f"  {ids[node]} [label={_dot_string(node_label(graph, node, tags))}, shape={shape}];")
    for u, v in sorted(graph.edges):
        colour = OR_COLOUR if graph.edges[u, v].get("dep") == OR else AND_COLOUR
        lines.append(f'  {ids[u]} -> {ids[v]} [color="{colour}"];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def draw(graph: nx.DiGraph, path: Path, title: str, tags: dict[str, list[str]] | None = None) -> None:
    """Draw the graph to a PNG or SVG file, layered bottom-up like MCU Figure 2 (the task at the top)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise TaskverseError("PNG/SVG output needs matplotlib: pip install 'taskverse[plot]'") from exc
    layers = list(nx.topological_generations(graph))
    for depth, layer in enumerate(layers):
        for node in layer:
            graph.nodes[node]["layer"] = depth
    pos = nx.multipartite_layout(graph, subset_key="layer", align="horizontal")
    width = max(8.0, min(60.0, 1.6 * max(len(layer) for layer in layers)))
    height = max(4.0, 1.3 * len(layers))
    fig, ax = plt.subplots(figsize=(width, height))
    colours = [OR_COLOUR if d.get("dep") == OR else AND_COLOUR for _, _, d in graph.edges(data=True)]
    nx.draw_networkx_edges(graph, pos, ax=ax, edge_color=colours, arrows=True, arrowsize=8, width=0.8)
    node_colours = {"task": "#dce9f7", "group": "#fff2c6", "way": "#eeeeee"}
    nx.draw_networkx_nodes(graph, pos, ax=ax, node_size=300,
                           node_color=[node_colours.get(graph.nodes[n].get("type", ""), "#e8f5e2") for n in graph])
    nx.draw_networkx_labels(graph, pos, ax=ax, font_size=7,
                            labels={n: node_label(graph, n, tags) for n in graph.nodes})
    ax.set_title(title)
    ax.axis("off")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
