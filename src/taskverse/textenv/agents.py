"""Agents for the text environment: random, greedy, optimal, an external program, and a language model.

Every agent has ``reset(env, seed)`` (a new episode of ``env``, a ``SkillForgeTextEnv``) and ``act(env)``, which
returns an action index or text naming an action (a candidate number, an id or a name). In-process agents read
the environment directly; the external agent sees only ``env.json_observation()``, the language model agent
(``taskverse.textenv.llm``) a prompt. Agents that think aloud leave ``reasoning`` (and ``answer``, the raw text)
after each ``act``; those that call a model count ``usage()``. ``act`` raises ``AgentError`` when the agent
gave no usable answer (the episode fails; ``recover()``, where present, makes it ready for the next).

Example:
    >>> from taskverse.textenv.env import SkillForgeTextEnv
    >>> env = SkillForgeTextEnv(task="craft stick", plan_info=False)
    >>> _ = env.reset(seed=0)
    >>> agent = make_agent("optimal")
    >>> agent.reset(env, seed=0)
    >>> done = False
    >>> while not done:
    ...     _, reward, done, _, _ = env.step(agent.act(env))
    >>> env.trajectory
    ['find.oak_log', 'mine.oak_log', 'craft.oak_planks', 'craft.stick']

"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import queue
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from taskverse.errors import TaskverseError
from taskverse.textenv.llm import OpenAIAgent
from taskverse.textenv.options import AgentError, AgentOptions, AnswerRefused
from taskverse.textenv.planning import DEFAULT_BUDGET, plan_from_start, planner_for, view
from taskverse.world.search import Planner, StateDict, greedy_choice

if TYPE_CHECKING:
    from taskverse.textenv.env import SkillForgeTextEnv

AGENT_NAMES = ("random", "greedy", "optimal")


class Agent(Protocol):
    """What the evaluation runner drives."""

    name: str

    def reset(self, env: SkillForgeTextEnv, seed: int | None = None) -> None:
        """Start an episode of ``env`` (already reset)."""

    def act(self, env: SkillForgeTextEnv) -> int | str:
        """The next action: an index into the action space, or text naming a candidate."""

    def close(self) -> None:
        """Release what the agent holds (processes)."""


class RandomAgent:
    """Picks a candidate uniformly at random (masked random play)."""

    name = "random"

    def __init__(self) -> None:
        self.rng = np.random.default_rng()

    def reset(self, env: SkillForgeTextEnv, seed: int | None = None) -> None:
        """Seed the agent's own generator."""
        self.rng = np.random.default_rng(seed)

    def act(self, env: SkillForgeTextEnv) -> int:
        """A random candidate."""
        candidates = env.candidates()
        return int(candidates[int(self.rng.integers(len(candidates)))])

    def close(self) -> None:
        """Nothing to release."""


def own_course(env: Any, budget: int) -> Any:
    """A world that plans for itself gives the planner agents their course (``plan_course``), else None.

    The engine does (``taskverse.engine.adapter.EngineWorld``): its agents follow the one planner's plan over the
    game's own model, not the library's, and plan again after a step failed there.
    """
    maker = getattr(env, "plan_course", None)
    return None if maker is None else maker(budget)


class GreedyAgent:
    """Works down from the target to the first thing it can do now (``world.search.greedy_choice``).

    In a world that plans for itself (the engine): the planner's first, greedy plan, a step at a time.
    """

    name = "greedy"

    def __init__(self) -> None:
        self.planner: Planner | None = None
        self.fallback = RandomAgent()
        self.course: Any = None

    def reset(self, env: SkillForgeTextEnv, seed: int | None = None) -> None:
        """Build the planner's view of the target."""
        self.course = own_course(env, 0)
        if self.course is not None:
            return
        self.planner = planner_for(env)
        self.fallback.reset(env, seed)

    def act(self, env: SkillForgeTextEnv) -> int:
        """The greedy choice (a random candidate when the greedy rule finds nothing to do)."""
        if self.course is not None:
            return int(self.course.act(env))
        if self.planner is None:  # built on first use (the optimal agent's fallback), as reset builds it
            self.planner = planner_for(env, from_start=True)
        tracker = self.planner.tracker
        progress = tracker.feed(tracker.initial(), env.light_trace)
        choice = greedy_choice(self.planner, view(self.planner, env), progress)
        return choice if choice is not None else self.fallback.act(env)

    def close(self) -> None:
        """Nothing to release."""


class OptimalAgent:
    """Follows a shortest plan (``Planner.best_plan``), replanning whenever the world did something else.

    In a world that plans for itself (the engine), the plan is its own (``own_course``).

    Args:
        budget: States the search may expand to prove a plan shortest (see ``DEFAULT_BUDGET``).

    """

    name = "optimal"

    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget
        self.plan: list[int] = []
        self.expected: StateDict | None = None
        self.proven = True
        self.stuck = False
        self.fallback = GreedyAgent()
        self.course: Any = None

    def reset(self, env: SkillForgeTextEnv, seed: int | None = None) -> None:
        """Plan from the episode's start (the greedy fallback builds its view only if it is ever asked)."""
        self.course = own_course(env, self.budget)
        if self.course is not None:
            return
        self.fallback = GreedyAgent()
        self.fallback.fallback.reset(env, seed)
        self._replan(env, from_start=True)

    def _replan(self, env: SkillForgeTextEnv, from_start: bool = False) -> None:
        if from_start:  # the first plan is the start's: planned once per target, whoever asks (plan_from_start)
            planner, plan, self.proven = plan_from_start(env, self.budget)
        else:
            planner = planner_for(env, budget=self.budget)
            plan, self.proven = planner.best_plan()
        self.plan = list(plan or [])
        self.stuck = plan is None  # no plan from here: the greedy rule takes over for the rest of the episode
        self.expected = view(planner, env)
        self._planner = planner

    def act(self, env: SkillForgeTextEnv) -> int:
        """The next action of the plan (replanning first if the state is not the one the plan expects)."""
        if self.course is not None:
            return int(self.course.act(env))
        if self.stuck:
            return self.fallback.act(env)
        now = view(self._planner, env)
        if not self.plan or now != self.expected or not env.state.mask[self.plan[0]]:
            self._replan(env)
            now = view(self._planner, env)
        if not self.plan:
            return self.fallback.act(env)
        a = self.plan.pop(0)
        planner = self._planner
        w = planner.enabled_way(a, now)
        if w is not None:
            tracker = planner.tracker
            progress = tracker.feed(tracker.initial(), env.light_trace)
            self.expected, _ = planner.apply(now, progress, a, w)
        return a

    def close(self) -> None:
        """Nothing to release."""


MAX_QUEUED_LINES = 64
"""Answer lines an external program may write ahead of the questions; past that its output is not read (its
pipe fills and it waits), so a program that floods its output costs no memory."""
END_GRACE_SECONDS = 2.0
"""How long a program may take to end by itself once its input is closed, before its process group is killed."""


def command_of(spec: str) -> str:
    """The command line in an agent spec's ``cmd:`` part, one pair of surrounding quotes taken off.

    Example:
        >>> command_of('cmd:"python agent.py"'), command_of('cmd:python agent.py "x"')
        ('python agent.py', 'python agent.py "x"')

    """
    text = spec[4:].strip() if spec.startswith("cmd:") else spec.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"" and text[0] not in text[1:-1]:
        text = text[1:-1].strip()
    return text


def program_argv(command: str | Sequence[str]) -> list[str]:
    """The argv of a ``cmd:`` agent: ``python`` (or a ``.py`` file) runs with the interpreter running taskverse.

    So an example agent that imports taskverse works as documented whether or not a virtual environment is
    active: ``cmd:"python examples/agents/greedy_agent.py"`` starts ``sys.executable``.
    """
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise TaskverseError(f"cannot read the command line of cmd:{command[:80]}: {exc}") from None
    else:
        argv = list(command)
    if not argv:
        raise TaskverseError("cmd: needs a program to run, e.g. cmd:\"python my_agent.py\"")
    if argv[0] in ("python", "python3"):
        argv[0] = sys.executable
    elif argv[0].endswith(".py") and os.path.isfile(argv[0]) and not os.access(argv[0], os.X_OK):
        argv.insert(0, sys.executable)
    return argv


class ExternalAgent:
    """A program that reads one JSON observation per line on stdin and answers one action per line on stdout.

    The protocol is in ``docs/textenv.md``: each line sent is ``env.json_observation()`` plus ``"episode"``
    and ``"type": "observation"``; the answer is a candidate number, an action id or name, or a JSON object
    ``{"action": ..., "reasoning": ...}``. The program runs for a whole evaluation (one per worker) in a process
    group of its own; at the end its stdin is closed and, after ``END_GRACE_SECONDS``, the whole group (its own
    children too) is killed. Writes and reads are bounded in time (``timeout``) and size
    (``max_answer_bytes``, ``MAX_QUEUED_LINES``), so a program that never reads, never answers or floods its
    output fails the episode without blocking the run or growing its memory. A failed program is started again
    for the next episode.

    Args:
        command: The command line (split like a shell would).
        timeout: Seconds to wait for each answer (and for each observation to be taken).
        max_answer_bytes: The longest answer line accepted.
        give_up: Offer the give-up as one more candidate (``taskverse.textenv.impossible``).

    """

    def __init__(self, command: str | Sequence[str], timeout: float = 30.0, max_answer_bytes: int = 65536,
                 give_up: bool = False) -> None:
        self.argv = program_argv(command)
        self.give_up = give_up
        self.name = "cmd:" + (command if isinstance(command, str) else " ".join(command))
        self.timeout = timeout
        self.max_answer_bytes = max_answer_bytes
        self.episode = -1
        self.reasoning: str | None = None
        self.answer: str | None = None
        self._start()

    def _start(self) -> None:
        try:
            # its own session and process group: Ctrl-C stops the evaluation, which then ends the group itself
            self.process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=None, start_new_session=True)
        except OSError as exc:
            raise TaskverseError(f"cannot start the agent program {self.argv[0]!r}: {exc.strerror}") from None
        assert self.process.stdout is not None and self.process.stdin is not None
        self._stdin = self.process.stdin.fileno()
        os.set_blocking(self._stdin, False)  # written with select and a deadline, never blocking the run
        self.reader = _LineReader(self.process.stdout, self.max_answer_bytes)
        self.owner = os.getpid()  # a forked worker inherits this object, not the program: only its owner ends it
        _LIVE.add(self)
        _close_at_exit()

    def reset(self, env: SkillForgeTextEnv, seed: int | None = None) -> None:
        """Count the episode (the next observation carries its number)."""
        self.episode += 1

    def act(self, env: SkillForgeTextEnv) -> str:
        """Send the observation, read the answer (text naming an action)."""
        message = {"type": "observation", "episode": self.episode, **env.json_observation()}
        if self.give_up:
            from taskverse.textenv.impossible import offered_candidates, offered_text

            message["text"] = offered_text(message["text"], len(message["candidates"]))
            message["candidates"] = offered_candidates(message["candidates"])
        process = self.process
        self.reasoning = self.answer = None
        program = self.argv[0] if len(self.argv) == 1 else " ".join(self.argv[:2])
        if not _write(self._stdin, (json.dumps(message) + "\n").encode(), self.timeout):
            raise AgentError(f"the agent program {program!r} stopped reading its input "
                             f"(exit code {process.poll()})")
        kind, data = self.reader.get(self.timeout)
        if kind == "timeout":
            raise AgentError(f"the agent program {program!r} gave no answer within {self.timeout:g} s")
        if kind == "eof":
            raise AgentError(f"the agent program {program!r} ended without answering (exit code {process.poll()})")
        if kind == "huge":
            raise AgentError(f"the agent program {program!r} wrote an answer longer than "
                             f"{self.max_answer_bytes} bytes")
        assert isinstance(data, bytes)
        try:
            line = data.decode("utf-8")
        except UnicodeDecodeError:
            self.answer = repr(data[:80])
            raise AnswerRefused(f"the answer is not UTF-8 text ({len(data)} bytes: {data[:24]!r}...)") from None
        self.answer = line.strip()[:2000]
        action, self.reasoning = parse_answer_with_reasoning(line)
        return action

    def recover(self) -> None:
        """Start the program again (after a failure its output may be out of step with its input)."""
        self.close()
        self._start()

    def close(self) -> None:
        """Close the program's input, give it a moment to end, then end its whole process group."""
        process = self.process
        _LIVE.discard(self)
        self.reader.stop()
        with contextlib.suppress(OSError):
            process.stdin.close()  # type: ignore[union-attr]  # no thread holds it: never blocks
        _end_group(process, END_GRACE_SECONDS)
        with contextlib.suppress(OSError):
            process.stdout.close()  # type: ignore[union-attr]


_LIVE: weakref.WeakSet[ExternalAgent] = weakref.WeakSet()
"""External programs running in this process: ended when it exits, however it exits."""


def _close_live() -> None:
    for agent in list(_LIVE):
        if agent.owner == os.getpid():
            with contextlib.suppress(Exception):
                agent.close()


_EXIT_HOOKS: set[int] = set()


def _close_at_exit() -> None:
    """End this process's programs when it exits.

    Through ``atexit``, and in a worker process (which leaves through ``os._exit``) multiprocessing's exit hook.
    """
    if os.getpid() in _EXIT_HOOKS:
        return
    _EXIT_HOOKS.add(os.getpid())
    atexit.register(_close_live)
    import multiprocessing.util

    multiprocessing.util.Finalize(None, _close_live, exitpriority=100)


def _end_group(process: subprocess.Popen[bytes], grace: float) -> None:
    """Wait up to ``grace`` seconds for the program to end, then kill its process group; reap it."""
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        try:  # WNOWAIT: an ended leader stays a zombie, so its group id cannot be reused before the kill below
            if os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                break
        except ChildProcessError:
            break
        time.sleep(0.02)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)  # its own children too
    with contextlib.suppress(ChildProcessError):
        process.wait()


def _write(fd: int, data: bytes, timeout: float) -> bool:
    """Write all of ``data`` to a non-blocking pipe within ``timeout``; False if closed or not taken in time."""
    view = memoryview(data)
    deadline = time.monotonic() + timeout
    while view:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        try:
            _, ready, _ = select.select([], [fd], [], left)
        except (OSError, ValueError):
            return False
        if not ready:
            return False
        try:
            view = view[os.write(fd, view):]
        except BlockingIOError:
            continue
        except OSError:  # a broken pipe: the program ended or closed its input
            return False
    return True


class _LineReader:
    """Reads a program's output in a thread: whole lines, bounded in length and number, with a timeout per line."""

    def __init__(self, stream: Any, limit: int) -> None:
        self.limit = limit
        self.lines: queue.Queue[tuple[str, bytes | None]] = queue.Queue(maxsize=MAX_QUEUED_LINES)
        self._stopped = threading.Event()
        threading.Thread(target=self._run, args=(stream.fileno(),), daemon=True,
                         name="taskverse-agent-reader").start()

    def stop(self) -> None:
        """Stop reading (the thread ends at its next line or the end of the output)."""
        self._stopped.set()

    def _put(self, item: tuple[str, bytes | None]) -> bool:
        while not self._stopped.is_set():  # a full queue: wait for the run to take a line, or to stop
            try:
                self.lines.put(item, timeout=0.5)
                return True
            except queue.Full:
                continue
        return False

    def _run(self, fd: int) -> None:
        buffer = b""
        skipping = False  # inside an over-long line: dropped up to its end
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                self._put(("eof", None))
                return
            buffer += chunk
            while True:
                end = buffer.find(b"\n")
                if end < 0:
                    break
                line, buffer = buffer[:end], buffer[end + 1:]
                if skipping:
                    skipping = False
                elif not self._put(("huge", None) if len(line) > self.limit else ("line", line)):
                    return
            if len(buffer) > self.limit:
                if not skipping and not self._put(("huge", None)):
                    return
                skipping, buffer = True, b""

    def get(self, timeout: float) -> tuple[str, bytes | None]:
        """The next line: ("line", bytes), ("huge", None), ("eof", None) or ("timeout", None)."""
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return "timeout", None


def parse_answer(line: str) -> str:
    """An agent's answer line as text naming an action (a JSON ``{"action": ...}`` is unwrapped)."""
    return parse_answer_with_reasoning(line)[0]


def parse_answer_with_reasoning(line: str) -> tuple[str, str | None]:
    """(text naming an action, the agent's reasoning if it gave one) from an answer line."""
    text = line.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):  # not JSON, a number of over 4300 digits, nesting too deep
            return text, None
        if isinstance(data, dict) and "action" in data:
            reasoning = data.get("reasoning")
            return str(data["action"]), None if reasoning is None else str(reasoning)[:20000]
    return text, None


def check_agent_spec(spec: str) -> None:
    """Raise a TaskverseError (with close matches) unless ``spec`` names an agent."""
    if spec.startswith("cmd:"):
        command = command_of(spec)
        if not command.strip("'\""):
            raise TaskverseError("cmd: needs a program to run, e.g. cmd:\"python my_agent.py\"")
        try:
            shlex.split(command)
        except ValueError as exc:
            raise TaskverseError(f"cannot read the command line of {spec!r}: {exc}") from None
        return
    if spec.startswith("openai:"):
        if not spec[7:].strip():
            raise TaskverseError("openai: needs a model name, e.g. openai:gpt-4o-mini or openai:qwen2.5:7b")
        return
    if spec not in AGENT_NAMES:
        from taskverse.errors import close_matches

        raise TaskverseError(f"unknown agent {spec!r}; expected random, greedy, optimal, cmd:PROGRAM or "
                             "openai:MODEL", suggestions=close_matches(spec, AGENT_NAMES))


def make_agent(spec: str, budget: int = DEFAULT_BUDGET, options: AgentOptions | None = None) -> Agent:
    """An agent from its name: ``random``, ``greedy``, ``optimal``, ``cmd:PROGRAM`` or ``openai:MODEL``."""
    check_agent_spec(spec)
    options = options or AgentOptions()
    if spec.startswith("cmd:"):
        return ExternalAgent(command_of(spec), timeout=options.answer_timeout,
                             max_answer_bytes=options.max_answer_bytes, give_up=options.give_up)
    if spec.startswith("openai:"):
        return OpenAIAgent(spec[7:].strip(), options)
    if spec == "random":
        return RandomAgent()
    if spec == "greedy":
        return GreedyAgent()
    return OptimalAgent(budget)
