"""Molecule tasks: an expression over atoms plus the five attributes MCU gives every task (Section 2.2 Remarks).

``build_molecule`` checks that a composition is feasible and derives its attributes: the initialization combined
from its atoms (or naive / custom where the expression says so), the pre-tasks as the union of its atoms', the
metrics borrowed from its atoms (success is the composition's own condition), and a description generated from
its parts. A molecule saves to YAML in the task schema and loads back equal.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from taskverse.algebra.expr import (
    GROUPS,
    AllOf,
    Amount,
    AnyOf,
    AtLeast,
    AtomRef,
    Avoid,
    Constrained,
    Constraint,
    Expr,
    Initialized,
    Repeat,
    Then,
    Within,
    atoms_of,
    canonical,
    check_shape,
    content_hash,
    height_range,
)
from taskverse.errors import TaskverseError
from taskverse.schema import (
    AtomTask,
    Category,
    Difficulty,
    Event,
    Initialization,
    MetricName,
    ResourceKind,
    StrictModel,
    Summon,
)
from taskverse.world.graph import way_yields

NO_PRECIPITATION_MESSAGE = "it never rains or snows in {biome}"
WHEN_FACETS = ({"day", "night"}, {"clear", "rain", "thunder"}, {"first_day"})
"""``when`` values that exclude each other: time of day, weather; ``first_day`` combines with either."""


class MoleculeMetrics(StrictModel):
    """A molecule's metrics: success is its own composition; the others are borrowed from its atoms."""

    success: Literal["composition"] = "composition"
    also: list[MetricName] = Field(default_factory=lambda: [MetricName.TIME_TO_SUCCESS])


class MoleculeTask(StrictModel):
    """A molecule task (MCU Section 2.2): a composition of atoms with the same five attributes as an atom."""

    kind: Literal["molecule"] = "molecule"
    id: Annotated[str, Field(pattern=r"^mol\.[0-9a-f]{16}$")]
    description: str
    category: Category
    expression: Expr
    initialization: Initialization
    pre_tasks: list[str] = Field(default_factory=list)
    metrics: MoleculeMetrics = Field(default_factory=MoleculeMetrics)
    difficulty: Difficulty = Field(default_factory=Difficulty)
    tags: list[str] = Field(default_factory=list)

    @property
    def atoms(self) -> list[str]:
        """The atom ids the molecule is made of."""
        return atoms_of(self.expression)


class Conflict(TaskverseError):
    """An infeasible composition; the message names the conflicting parts."""


def _merge_init(a: Initialization, b: Initialization, names: tuple[str, str]) -> Initialization:
    """Both starting states at once: inventories add up; spawn, dimension, time and weather must agree."""
    fields: dict[str, Any] = {}
    for field in ("dimension", "biome", "structure", "position", "time", "weather"):
        va, vb = getattr(a, field), getattr(b, field)
        default = getattr(Initialization(), field)
        if va != default and vb != default and va != vb:
            raise Conflict(f"conflicting initializations: {names[0]} starts with {field}={_text(va)} but "
                           f"{names[1]} starts with {field}={_text(vb)}")
        fields[field] = va if va != default else vb
    inventory = dict(a.inventory)
    for item, n in b.inventory.items():
        inventory[item] = inventory.get(item, 0) + n
    main_hand = a.main_hand or b.main_hand
    if a.main_hand and b.main_hand and a.main_hand != b.main_hand:  # one hand: the other tool waits in the inventory
        inventory[b.main_hand] = inventory.get(b.main_hand, 0) + 1
    equipment = dict(a.equipment)
    for slot, item in b.equipment.items():
        if slot in equipment and equipment[slot] != item:
            raise Conflict(f"conflicting initializations: {names[0]} wears {equipment[slot]} on {slot.value} but "
                           f"{names[1]} wears {item}")
        equipment[slot] = item
    blocks = dict(a.nearby_blocks)
    for block, n in b.nearby_blocks.items():
        blocks[block] = blocks.get(block, 0) + n
    summons: dict[str, int] = {}
    for s in [*a.summon, *b.summon]:
        summons[s.entity] = summons.get(s.entity, 0) + s.count
    return Initialization(
        inventory=dict(sorted(inventory.items())), main_hand=main_hand, equipment=equipment,
        nearby_blocks=dict(sorted(blocks.items())),
        summon=[Summon(entity=e, count=n) for e, n in sorted(summons.items())], **fields,
    )


def _text(value: Any) -> str:
    return str(getattr(value, "value", value))


def _sure_yields(task: AtomTask) -> dict[str, int]:
    """The items every way of an atom gives for sure (chance 1), each at the least count over the ways."""
    per_way = []
    for yields in way_yields(task):
        got: dict[str, int] = {}
        for y in yields:
            if y.kind == ResourceKind.ITEM and y.chance >= 1.0 and y.count > 0:
                got[y.name] = got.get(y.name, 0) + y.count
        per_way.append(got)
    if not per_way:
        return {}
    common = set.intersection(*(set(got) for got in per_way))
    return {item: min(got[item] for got in per_way) for item in sorted(common)}


def _add_items(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    """Two item counts added up."""
    out = dict(a)
    for item, n in b.items():
        out[item] = out.get(item, 0) + n
    return out


def _without_items(init: Initialization, made: dict[str, int]) -> Initialization:
    """A start without the items already made: taken from the inventory first, then the hand, then what is worn."""
    if not made:
        return init
    left = dict(made)
    inventory = dict(init.inventory)
    for item in sorted(set(inventory) & set(left)):
        taken = min(inventory[item], left[item])
        inventory[item] -= taken
        left[item] -= taken
        if not inventory[item]:
            del inventory[item]
    main_hand = init.main_hand
    if main_hand is not None and left.get(main_hand, 0) > 0:
        left[main_hand] -= 1
        main_hand = None
    equipment = dict(init.equipment)
    for slot, item in init.equipment.items():
        if left.get(item, 0) > 0:
            left[item] -= 1
            del equipment[slot]
    return init.model_copy(update={"inventory": inventory, "main_hand": main_hand, "equipment": equipment})


class MoleculeBuilder:
    """Derives and checks molecule attributes against a loaded library."""

    def __init__(self, library: Any) -> None:
        self.library = library
        self.kn = library.knowledge

    def atom(self, task_id: str) -> AtomTask:
        """An atom of the library (a clear error with close matches otherwise)."""
        if task_id not in self.library.by_id:
            return self.library.get(task_id)
        return self.library.by_id[task_id]

    def initialization(self, node: Any) -> tuple[Initialization, str]:
        """The combined initialization of an expression, with a name for it in conflict messages."""
        if isinstance(node, AtomRef):
            return self.atom(node.task).initialization, repr(self.atom(node.task).description)
        if isinstance(node, GROUPS):
            init, name = self.initialization(node.parts[0])
            made = self.made(node.parts[0]) if isinstance(node, Then) else {}
            for part in node.parts[1:]:
                other, other_name = self.initialization(part)
                # a later step of a THEN is not given what an earlier one makes: "craft a compass, then use it"
                # starts without the compass, else the craft would be pointless
                other = _without_items(other, made)
                init = _merge_init(init, other, (name, other_name))
                name = f"{name} and {other_name}"
                if isinstance(node, Then):
                    made = _add_items(made, self.made(part))
            return init, name
        if isinstance(node, Constrained):
            init, name = self.initialization(node.part)
            self._check_constraint_against_init(node.constraint, init, name)
            return init, name
        if isinstance(node, Initialized):
            inner, name = self.initialization(node.part)
            if node.mode == "naive":
                return Initialization(), f"{name} from scratch"
            overrides = node.overrides.model_dump(exclude_none=True) if node.overrides else {}
            self._check_override_names(overrides)
            if "summon" in overrides:
                overrides["summon"] = [Summon(entity=e, count=n) for e, n in sorted(overrides["summon"].items())]
            return inner.model_copy(update=overrides), f"{name} (custom start)"
        if isinstance(node, Avoid):  # the start of a thing to avoid, without the means to do it
            inner, name = self.initialization(node.part)
            return inner.model_copy(update={"inventory": {}, "main_hand": None, "equipment": {}}), f"never {name}"
        if isinstance(node, Repeat | Within | Amount):
            return self.initialization(node.part)
        raise TypeError(node)

    def made(self, node: Any) -> dict[str, int]:
        """The items a part surely makes when it is done (chance drops and avoided parts make none).

        An atom makes what every one of its ways yields for sure, at the least count; parts done together or in turn
        add up; of alternatives only what each of them makes counts; ``N * A`` makes N times A's, and ``amount(N,
        A)`` at least N of A's target.
        """
        if isinstance(node, AtomRef):
            return _sure_yields(self.atom(node.task))
        if isinstance(node, AllOf | Then):
            out: dict[str, int] = {}
            for part in node.parts:
                out = _add_items(out, self.made(part))
            return out
        if isinstance(node, AnyOf | AtLeast):
            each = [self.made(part) for part in node.parts]
            return {item: min(m[item] for m in each) for item in sorted(set.intersection(*(set(m) for m in each)))}
        if isinstance(node, Repeat):
            return {item: n * node.times for item, n in self.made(node.part).items()}
        if isinstance(node, Amount):
            out = self.made(node.part)
            target = self.atom(node.atom.task).goal.target
            if target in out:
                out[target] = max(out[target], node.count)
            return out
        if isinstance(node, Avoid):
            return {}
        return self.made(node.part)  # constrained, initialized, time-bound: the part's

    def _check_override_names(self, overrides: dict[str, Any]) -> None:
        """Every item, block, mob, biome and structure an ``init(...)`` names must exist (close matches if not)."""
        named: list[tuple[str, str, str]] = [(f"inventory.{n}", n, "item") for n in overrides.get("inventory", {})]
        named += [(f"nearby.{n}", n, "block") for n in overrides.get("nearby_blocks", {})]
        named += [(f"summon.{n}", n, "entity") for n in overrides.get("summon", {})]
        named += [(f"equipment.{_text(s)}", n, "item") for s, n in overrides.get("equipment", {}).items()]
        named += [(key, overrides[key], kind) for key, kind in
                  (("main_hand", "item"), ("biome", "biome"), ("structure", "structure")) if key in overrides]
        for where, name, kind in named:
            try:
                self.kn.check_name(name, kind)
            except TaskverseError as exc:
                raise TaskverseError(f"init(..., {where}=...): {exc.message}", suggestions=exc.suggestions) from None

    def _check_constraint_against_init(self, c: Constraint, init: Initialization, name: str) -> None:
        if c.where is None or c.where == "cave" or c.where.startswith("height:"):
            return
        if c.where in ("overworld", "nether", "end"):
            if init.dimension.value != c.where and init.dimension.value != "overworld":
                raise Conflict(f"{name} starts in the {init.dimension.value} but must happen in the {c.where}")
        elif init.biome is not None and init.biome != c.where:
            raise Conflict(f"{name} starts in {init.biome} but must happen in {c.where}")

    def check_constraints(self, node: Any, inherited: tuple[Constraint, ...] = ()) -> None:
        """Reject constraints that cannot be met, naming the task and the constraint."""
        if isinstance(node, AtomRef):
            for c in inherited:
                self._check_atom_constraint(self.atom(node.task), c)
            self._check_constraint_set(inherited, node)
        elif isinstance(node, GROUPS):
            for part in node.parts:
                self.check_constraints(part, inherited)
        elif isinstance(node, Constrained):
            self._check_known(node.constraint)
            self.check_constraints(node.part, (*inherited, node.constraint))
        else:
            self.check_constraints(node.part, inherited)

    def _check_known(self, c: Constraint) -> None:
        where = c.where
        if where and where not in ("overworld", "nether", "end", "cave") and not where.startswith("height:"):
            self.kn.check_name(where, "biome")
        if c.how and c.how.startswith("with:"):
            self.kn.check_name(c.how[5:], "item")

    def _check_constraint_set(self, constraints: tuple[Constraint, ...], node: AtomRef) -> None:
        for field, facets in (("when", WHEN_FACETS), ("where", None), ("how", None)):
            values = {_text(getattr(c, field)) for c in constraints if getattr(c, field) is not None}
            if field == "where":
                values = {v for v in values if not v.startswith("height:")}
            groups = [values & facet for facet in facets] if facets else [values]
            for group in groups:
                if len(group) > 1:
                    shown = " and ".join(sorted(f"{field}={v}" for v in group))
                    raise Conflict(f"{self.atom(node.task).description!r} cannot happen both {shown}")
        heights = [height_range(c.where) for c in constraints if c.where and c.where.startswith("height:")]
        if heights:
            low = max((h[0] for h in heights if h[0] is not None), default=None)
            high = min((h[1] for h in heights if h[1] is not None), default=None)
            if low is not None and high is not None and low > high:
                raise Conflict(f"{self.atom(node.task).description!r}: its height ranges do not overlap")
        biomes = [c.where for c in constraints if c.where and c.where in self.kn.biomes]
        dims = [c.where for c in constraints if c.where in ("overworld", "nether", "end")]
        for biome in biomes:
            biome_dim = self.kn.biomes[biome]["dimension"]
            for dim in dims:
                if dim != biome_dim:
                    raise Conflict(f"{self.atom(node.task).description!r}: {biome} is in the {biome_dim}, "
                                   f"not the {dim}")
            weather = {c.when.value for c in constraints if c.when is not None} & {"rain", "thunder"}
            if weather and not self.kn.biomes[biome]["precipitation"]:
                raise Conflict(f"{self.atom(node.task).description!r} in {biome} {sorted(weather)[0]}: "
                               + NO_PRECIPITATION_MESSAGE.format(biome=biome))

    def _check_atom_constraint(self, atom: AtomTask, c: Constraint) -> None:
        goal = atom.goal
        label = repr(atom.description)
        if c.how is not None:
            if c.how == "arrows" and goal.event != Event.KILL:
                raise Conflict(f"{label} @ how=arrows: only killing can be done with arrows")
            if goal.event == Event.MINE and goal.target in self.kn.blocks and goal.using is None:
                tools = self.kn.blocks[goal.target]["harvest_tools"]
                if tools and c.how == "bare_hand":
                    raise Conflict(f"{label} @ how=bare_hand: {goal.target} drops nothing unless mined with "
                                   f"{_one_of(tools)}")
                if tools and c.how.startswith("with:") and c.how[5:] not in tools:
                    raise Conflict(f"{label} @ how={c.how}: {goal.target} drops nothing unless mined with "
                                   f"{_one_of(tools)}")
            if goal.using is not None and c.how == "bare_hand":
                raise Conflict(f"{label} needs {goal.using} in hand, so it cannot be done with bare hands")
        if c.where is not None:
            self._check_where(atom, c.where, label)
        if c.when is not None and c.when.value in ("rain", "thunder"):
            biome = goal.target if goal.event == Event.FIND and goal.target in self.kn.biomes else \
                atom.initialization.biome
            if biome in self.kn.biomes and not self.kn.biomes[biome]["precipitation"]:
                raise Conflict(f"{label} @ when={c.when.value}: " + NO_PRECIPITATION_MESSAGE.format(biome=biome))

    def _check_where(self, atom: AtomTask, where: str, label: str) -> None:
        goal = atom.goal
        dims = self._dimensions_of(atom)
        if where in ("overworld", "nether", "end"):
            if dims and where not in dims:
                raise Conflict(f"{label} @ where={where}: {goal.target} is only found in the {_one_of(sorted(dims))}")
            return
        if where in self.kn.biomes:
            biome_dim = self.kn.biomes[where]["dimension"]
            if dims and biome_dim not in dims:
                raise Conflict(f"{label} @ where={where}: {where} is in the {biome_dim} but {goal.target} is only "
                               f"found in the {_one_of(sorted(dims))}")
            if goal.event == Event.FIND and goal.target in self.kn.biomes and goal.target != where:
                raise Conflict(f"{label} @ where={where}: finding {goal.target} cannot happen in {where}")

    def _dimensions_of(self, atom: AtomTask) -> set[str]:
        """Where the atom's target exists naturally (empty: anywhere, or unknown)."""
        goal = atom.goal
        target = goal.target
        if goal.event == Event.KILL and target in self.kn.mobs:
            return set(self.kn.mobs[target].dimensions)
        if goal.event in (Event.MINE, Event.FIND) and target in self.kn.natural_blocks:
            return {self.kn.natural_blocks[target].dimension} if goal.event == Event.FIND else set()
        if goal.event == Event.FIND:
            if target in self.kn.structure_blocks:
                return {self.kn.structures[s].dimension for s in self.kn.structure_blocks[target].structures}
            if target in self.kn.biomes:
                return {self.kn.biomes[target]["dimension"]}
            if target in self.kn.structures:
                return {self.kn.structures[target].dimension}
            if target in self.kn.mobs:
                return set(self.kn.mobs[target].dimensions)
        return set()

    def pre_tasks(self, expr: Any) -> list[str]:
        """The union of the atoms' pre-tasks (and the atoms of naive parts need theirs solved too).

        Atoms to avoid (under ``~``) need nothing done first, so they add none.
        """
        world = self.library.world
        out: set[str] = set()
        for task_id in atoms_to_do(expr):
            out |= set(world.pre_tasks(task_id)) | set(self.atom(task_id).pre_tasks)
        return sorted(out - set(atoms_of(expr)))

    def category(self, expr: Any) -> Category:
        """The atoms' category when they share one, else misc."""
        categories = {self.atom(t).category for t in atoms_of(expr)}
        return categories.pop() if len(categories) == 1 else Category.MISC

    def describe(self, expr: Any) -> str:
        """A description generated from the parts: ``plant wheat_seeds and then carve pumpkin``."""
        return expr.describe(_Descriptions(self))


class _Descriptions:
    def __init__(self, builder: MoleculeBuilder) -> None:
        self.builder = builder

    def get(self, task_id: str, default: str) -> str:
        try:
            return self.builder.atom(task_id).description
        except TaskverseError:
            return default


def _one_of(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def resolve_refs(expr: Any, library: Any) -> Any:
    """Replace descriptions in atom references by atom ids (``"craft iron_sword"`` -> ``craft.iron_sword``)."""
    if isinstance(expr, AtomRef):
        return AtomRef(task=library.get(expr.task).id)
    if isinstance(expr, GROUPS):
        return expr.model_copy(update={"parts": tuple(resolve_refs(p, library) for p in expr.parts)})
    return expr.model_copy(update={"part": resolve_refs(expr.part, library)})


def _can(node: Any) -> tuple[bool, bool, bool]:
    """Whether a node may ever succeed, fail, or hold (over-approximated: False only when it surely cannot)."""
    if isinstance(node, AtomRef):
        return True, False, False
    if isinstance(node, Avoid):
        succeed, fail, _ = _can(node.part)
        return fail, succeed, True
    if isinstance(node, Within):
        succeed, _, hold = _can(node.part)
        return succeed or hold, True, hold
    if isinstance(node, GROUPS):
        parts = [_can(p) for p in node.parts]
        k = len(parts) if isinstance(node, AllOf) else 1 if isinstance(node, AnyOf) else \
            node.count if isinstance(node, AtLeast) else len(parts)
        if isinstance(node, Then):
            return all(c[0] for c in parts), any(c[1] for c in parts), \
                parts[-1][2] and all(c[0] or c[2] for c in parts)
        ok = sum(1 for c in parts if c[0] or c[2])
        return any(c[0] for c in parts) and ok >= k, sum(1 for c in parts if c[1]) > len(parts) - k, \
            sum(1 for c in parts if c[2]) >= k
    return _can(node.part)  # constrained, initialized, N times


def check_can_finish(expr: Any, builder: MoleculeBuilder) -> None:
    """Reject compositions that can never succeed because an avoid part never finishes by itself.

    ``~A`` only holds until the end of its part: nothing after it in a THEN starts (``~A >> B``, ``2 * ~A``),
    and a task that only avoids things needs a time bound to succeed.
    """
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, GROUPS):
            stack.extend(node.parts)
            steps = node.parts[:-1] if isinstance(node, Then) else ()
        elif isinstance(node, AtomRef):
            steps = ()
        else:
            stack.append(node.part)
            steps = (node.part,) if isinstance(node, Repeat) and node.times > 1 else ()
        for step in steps:
            if not _can(step)[0]:
                raise Conflict(f"{builder.describe(step)!r} never finishes by itself, so what comes after it never "
                               "starts: bound it (@ within=...) or put it beside the parts it guards (A & ~B)")
    if not _can(expr)[0]:
        raise Conflict(f"{builder.describe(expr)!r} can never succeed (it only avoids things): give it a time "
                       "bound (@ within=1day) or something to do (A & ~B)")


def atoms_to_do(expr: Any) -> list[str]:
    """The atom ids an expression asks to be done (not those only under ``~``), in first-use order, each once."""
    out: dict[str, None] = {}

    def walk(node: Any) -> None:
        if isinstance(node, AtomRef):
            out.setdefault(node.task)
        elif isinstance(node, GROUPS):
            for part in node.parts:
                walk(part)
        elif not isinstance(node, Avoid):
            walk(node.part)

    walk(expr)
    return list(out)


def build_molecule(expr: Any, library: Any, tags: list[str] | None = None) -> MoleculeTask:
    """Check a composition and derive its attributes; raise Conflict naming the parts if it is infeasible."""
    expr, builder = _prepared(expr, library)
    builder.check_constraints(expr)
    return _assemble(expr, builder, tags)


def build_out_of_reach(expr: Any, library: Any) -> tuple[MoleculeTask, str]:
    """A composition whose constraints nothing in the game meets, built all the same, and why the builder refuses it.

    Only an impossible task wants one (``taskverse.textenv.impossible``: "mine diamond_ore with a wooden
    pickaxe" is there to be recognised as out of reach). Raises a TaskverseError when its constraints have no
    conflict, and the builder's other refusals (its shape, an avoid part that never finishes, starts that
    clash) as ``build_molecule`` does.
    """
    expr, builder = _prepared(expr, library)
    try:
        builder.check_constraints(expr)
    except Conflict as exc:
        return _assemble(expr, builder, None), exc.message
    raise TaskverseError(f"{builder.describe(expr)!r}: its constraints can be met, so it is not out of reach")


def _prepared(expr: Any, library: Any) -> tuple[Any, MoleculeBuilder]:
    """The composition checked for its shape and that it can finish, resolved and canonical, with its builder."""
    check_shape(expr)  # before anything recursive walks it
    expr = canonical(resolve_refs(expr, library))
    builder = MoleculeBuilder(library)
    check_can_finish(expr, builder)
    return expr, builder


def _assemble(expr: Any, builder: MoleculeBuilder, tags: list[str] | None) -> MoleculeTask:
    """The molecule of a checked (canonical, resolved) expression."""
    init, _ = builder.initialization(expr)
    return MoleculeTask(
        id=f"mol.{content_hash(expr)}",
        description=builder.describe(expr),
        category=builder.category(expr),
        expression=expr,
        initialization=init,
        pre_tasks=builder.pre_tasks(expr),
        metrics=MoleculeMetrics(also=sorted({m for t in atoms_of(expr) for m in builder.atom(t).metrics.also})),
        tags=tags or [],
    )


def expand_naive(task_id: str, library: Any, max_nodes: int = 2000) -> Any:
    """MCU equation (1): ``naive(A)`` written as A's pre-tasks and A, with the alternatives kept as OR.

    Each need of a task becomes an OR over the atoms that can provide it (each expanded in turn), all needs and
    the task itself joined by AND. The dependency graph is a DAG, but shared parts are repeated in a tree, so
    the expansion is refused beyond ``max_nodes`` nodes.
    """
    from taskverse.algebra.expr import size
    from taskverse.world.graph import task_node

    world = library.world
    memo: dict[str, Any] = {}

    def provide(node: str) -> Any:
        if node not in memo:
            producers = [u for u, _ in world.preds.get(node, ())]
            options = [expand(u) if world.nodes[u].get("type") == "task" else provide(u) for u in producers]
            memo[node] = options[0] if len(options) == 1 else AnyOf(parts=tuple(options))
        return memo[node]

    def expand(node: str) -> Any:
        if node not in memo:
            kind = world.nodes[node].get("type")
            parts: list[Any] = [AtomRef(task=node[len("task:"):])] if kind == "task" else []
            preds = [u for u, _ in world.preds.get(node, ())]
            ways = [expand(u) for u in preds if world.nodes[u].get("type") == "way"]
            if ways:
                parts.append(ways[0] if len(ways) == 1 else AnyOf(parts=tuple(ways)))
            for u in preds:
                u_kind = world.nodes[u].get("type")
                if u_kind == "task":  # an explicit pre-task
                    parts.append(expand(u))
                elif u_kind != "way":
                    parts.append(provide(u))
            memo[node] = parts[0] if len(parts) == 1 else AllOf(parts=tuple(parts))
        return memo[node]

    expr = canonical(expand(task_node(library.get(task_id).id)))
    if size(expr) > max_nodes:
        raise TaskverseError(f"the expansion of {task_id!r} has {size(expr)} nodes (more than {max_nodes})")
    return expr
