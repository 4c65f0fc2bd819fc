"""A language model as a SkillForge-text agent, through any OpenAI-compatible endpoint (``openai:MODEL``).

llama.cpp's server, vLLM, Ollama and hosted APIs all speak the chat completions protocol; the agent talks to
them with the official ``openai`` client (``pip install 'taskverse[llm]'``). At every step it fills a prompt
template (``PromptTemplate``, MCU Figure 5 style by default, ``prompts/figure5.txt``) with the observation,
sends it as one request (each step stands alone: the template's ``$history`` lists the last actions taken; or, in
``messages`` mode, the last exchanges come before it as chat messages, ``taskverse.textenv.history``), and
reads the action from the answer by one tolerant rule (``taskverse.textenv.answers``). The messages sent, the
whole answer, and the endpoint's separate reasoning text where it gives one (``reasoning_content``) are kept in
the step's record; calls, retries and tokens are counted per episode.

The endpoint is outside taskverse and is treated so (``taskverse.textenv.endpoint``): every answer is read
through a size and time bound and checked field by field. What fails is the smallest unit it concerns: a bad or
missing answer wastes the step; a refused key, an unknown model, or failed requests step after step end the
episode (``AgentError``, one line saying what happened); the evaluation goes on.
"""

from __future__ import annotations

import os
import string
import threading
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from taskverse.errors import TaskverseError
from taskverse.textenv.answers import answer_part, choose_action
from taskverse.textenv.endpoint import Reply, RequestFailed, ask
from taskverse.textenv.history import Conversation
from taskverse.textenv.options import AgentError, AgentOptions, AnswerRefused

if TYPE_CHECKING:
    from taskverse.textenv.env import SkillForgeTextEnv

DEFAULT_PROMPT = "figure5.txt"
MAX_PROMPT_BYTES = 1024 * 1024
"""The largest prompt template file read."""
PLACEHOLDERS = ("task", "observation", "step", "max_steps", "inventory", "found", "candidates", "error", "history")


def default_prompt_text() -> str:
    """The bundled prompt template (copy it to edit it)."""
    return resources.files("taskverse.textenv").joinpath("prompts", DEFAULT_PROMPT).read_text(encoding="utf-8")


_CLIENT_LOCK = threading.Lock()
"""Held while an endpoint client is made (see ``OpenAIAgent._client``)."""


@dataclass(frozen=True)
class PromptTemplate:
    r"""A prompt template: a system message and a user message with ``$placeholder`` fields.

    The file format: ``#`` comment lines, then ``[system]`` and ``[user]`` lines each starting a message.
    Placeholders are ``PLACEHOLDERS`` (``$observation`` is the Figure 5 text).

    Example:
        >>> t = PromptTemplate.parse("[system]\nPlay well.\n[user]\n$task, step $step\n")
        >>> t.user
        '$task, step $step'

    """

    system: str
    user: str
    source: str = "<text>"

    @classmethod
    def parse(cls, text: str, source: str = "<text>") -> PromptTemplate:
        """Read a template; raises a TaskverseError naming the file, line and problem."""
        sections: dict[str, list[str]] = {}
        current: str | None = None
        for number, line in enumerate(text.splitlines(), start=1):
            stripped = line.strip()
            if stripped.startswith("#"):
                continue
            if stripped.lower() in ("[system]", "[user]"):
                current = stripped.lower()[1:-1]
                if current in sections:
                    raise TaskverseError(f"a second [{current}] section", file=source, line=number)
                sections[current] = []
                continue
            if current is None:
                if stripped:
                    raise TaskverseError("text before the first [system] or [user] line", file=source, line=number)
                continue
            sections[current].append(line)
            for match in string.Template.pattern.finditer(line):
                name = match.group("named") or match.group("braced")
                if name is not None and name not in PLACEHOLDERS:
                    from taskverse.errors import close_matches

                    raise TaskverseError(f"unknown placeholder ${name}; expected one of "
                                         + ", ".join("$" + p for p in PLACEHOLDERS), file=source, line=number,
                                         suggestions=["$" + m for m in close_matches(name, PLACEHOLDERS)])
        if "user" not in sections:
            raise TaskverseError("the template needs a [user] section (and may have a [system] one)", file=source)
        return cls("\n".join(sections.get("system", [])).strip(), "\n".join(sections["user"]).strip(), source)

    @classmethod
    def load(cls, path: str | Path | None = None) -> PromptTemplate:
        """The template in ``path`` (default: the bundled Figure 5 template)."""
        if path is None:
            return cls.parse(default_prompt_text(), f"taskverse/textenv/prompts/{DEFAULT_PROMPT}")
        from taskverse.fileio import read_text

        file = Path(path)
        return cls.parse(read_text(file, "prompt template", MAX_PROMPT_BYTES), str(file))

    def messages(self, fields: dict[str, str]) -> list[dict[str, str]]:
        """The chat messages for one step."""
        out = []
        if self.system:
            out.append({"role": "system", "content": string.Template(self.system).safe_substitute(fields)})
        out.append({"role": "user", "content": string.Template(self.user).safe_substitute(fields)})
        return out


def prompt_fields(env: SkillForgeTextEnv, history: int = 20, give_up: bool = False) -> dict[str, str]:
    """The placeholders' values for the environment's current step (``$history``: the last ``history`` actions).

    With ``give_up`` the observation and the candidates list the give-up after the view's candidates
    (``taskverse.textenv.impossible``).
    """
    rules = env.rules
    shown = env.shown_candidates()
    done = env.action_indices
    first = max(0, len(done) - history)
    # no numbers: a small model copies the list's last line ("1. find oak_log", SmolLM2-135M does), and a number
    # in it would be read as a candidate's (answers.choose_action)
    lines = [f"- {rules.descriptions[a]}" for a in done[first:]]
    if first:
        lines.insert(0, "(earlier actions not shown)")
    inventory = env.inventory()
    observation = env.text()
    candidates = [f"{i}: {rules.descriptions[a]}" for i, a in enumerate(shown)]
    if give_up:
        from taskverse.textenv.impossible import GIVE_UP_NAME, offered_text

        observation = offered_text(observation, len(shown))
        candidates.append(f"{len(shown)}: {GIVE_UP_NAME}")
    return {
        "task": env.target.description,
        "observation": observation,
        "step": str(env.steps),
        "max_steps": str(env.max_steps),
        "inventory": ", ".join(f"{name}: {count}" for name, count in inventory.items()) or "nothing",
        "found": ", ".join(f"{name} ({kind})" for kind, name in env.found()) or "nothing",
        "candidates": "\n".join(candidates),
        "error": env.last_error or "",
        "history": "\n".join(lines) or "none",
    }


def read_action(answer: str) -> str:
    r"""The part of a model's answer that names its action (``answers.answer_part``), stripped.

    Example:
        >>> read_action("I need planks first.\nACTION: 3")
        '3'
        >>> read_action("**Action:** craft stick")
        'craft stick'

    """
    return answer_part(answer).strip().strip("*`'\".").strip()


COT_INSTRUCTION = ("First think step by step, in at most {tokens} tokens, inside <think> and </think>; then "
                   'answer with a line "ACTION: <number>".')
"""What ``--cot N`` adds to the end of the last message (the thinking is kept as the step's reasoning)."""
COT_ANSWER_TOKENS = 32
"""Tokens left for the answer after the chain of thought, when ``--max-tokens`` is not given."""
GIVE_UP_INSTRUCTION = 'If the task cannot be done at all, answer with the number of the candidate "give up".'
"""What a run that offers the give-up (``--impossible``) adds to the end of the last message."""


def step_messages(template: PromptTemplate, fields: dict[str, str], options: AgentOptions,
                  examples: str = "") -> list[dict[str, str]]:
    """The step's messages without earlier exchanges.

    The template filled, then the requests to give up where the task cannot be done (when offered) and to think
    first (``--cot``) at the end of the last message, and the examples in the system message.
    """
    messages = template.messages(fields)
    if options.give_up:
        messages[-1]["content"] += "\n\n" + GIVE_UP_INSTRUCTION
    if options.cot is not None:
        messages[-1]["content"] += "\n\n" + COT_INSTRUCTION.format(tokens=options.cot)
    if examples:
        if messages[0]["role"] == "system":
            messages[0]["content"] += "\n\n" + examples
        else:
            messages.insert(0, {"role": "system", "content": examples})
    return messages


MAX_FAILED_STEPS = 3
"""Steps in a row whose request failed as an endpoint that is down fails (no answer in time, no connection, 408,
409, 429, 5xx; after the retries) before the episode ends as an agent error. A malformed answer only wastes its
step."""


class OpenAIAgent:
    """A chat model behind an OpenAI-compatible endpoint, prompted once per step.

    Each request is bounded in size and time (``taskverse.textenv.endpoint``) and retried ``options.retries``
    times when trying again may help (timeouts, lost connections, 408, 409, 429, 5xx), with a backoff of 0.5 s,
    1 s, 2 s ... (at most 8 s). A request that still fails, or an answer that is malformed or names no
    candidate, wastes the step (an invalid answer, its reason in the trajectory); ``MAX_FAILED_STEPS`` steps in a
    row whose requests failed that way, a refused key or an unknown model end the episode (``AgentError``).
    Every request sent counts as a call (``usage()["calls"]``), and the retries among them as ``retries``. The
    episode's seed goes with every request (``seed``), so episodes differ at any temperature and each can be
    repeated.

    Args:
        model: The model name the endpoint knows (``gpt-4o-mini``, ``qwen2.5:7b`` for Ollama, the served name
            for vLLM and llama.cpp).
        options: Endpoint, key, prompt template, timeout, retries, sampling (``AgentOptions``).

    """

    def __init__(self, model: str, options: AgentOptions | None = None) -> None:
        try:
            import openai
        except ImportError:
            raise TaskverseError("openai:MODEL needs the openai client: pip install 'taskverse[llm]'") from None
        self.options = options = options or AgentOptions()
        self.model = model
        self.name = f"openai:{model}"
        self.template = PromptTemplate.load(options.prompt)
        self.examples = few_shot_text(options.few_shot) if options.few_shot else ""
        self.base_url = options.base_url or os.environ.get("OPENAI_BASE_URL") or None
        if self.base_url is not None:
            check_base_url(self.base_url)
        # a local server takes any key; the client insists on one
        self._key = options.api_key or os.environ.get("OPENAI_API_KEY") or ("unused" if self.base_url else None)
        if self._key is None:
            raise TaskverseError("openai:MODEL needs an API key: set OPENAI_API_KEY or --api-key (or give "
                                 "--base-url of a local server, which needs none)")
        self._openai = openai
        self.client = self._client()
        self.reasoning: str | None = None
        self.answer: str | None = None
        self.messages: list[dict[str, str]] | None = None
        self.seed: int | None = None
        self.conversation = Conversation(options.history, options.history_chars) \
            if options.history_mode == "messages" else None
        self._failed = 0
        self._usage = _new_usage()

    def _client(self) -> Any:
        # no retries in the client: they are counted here; identity encoding: a compressed body is not inflated
        # The client imports its resources on first use: done here, one thread at a time, and not by the first
        # requests of --concurrency threads at once (which raised "dictionary changed size during iteration" in
        # one real run).
        with _CLIENT_LOCK:
            client = self._openai.OpenAI(api_key=self._key, base_url=self.base_url,
                                         timeout=self.options.answer_timeout, max_retries=0,
                                         default_headers={"Accept-Encoding": "identity"})
            _ = client.chat.completions.with_streaming_response
        return client

    def reset(self, env: SkillForgeTextEnv, seed: int | None = None) -> None:
        """A new episode: the counts start again."""
        self._usage = _new_usage()
        self.seed = seed
        self._failed = 0
        if self.conversation is not None:
            self.conversation.clear()

    def usage(self) -> dict[str, int]:
        """Calls (requests sent, retries included), retries and tokens of this episode."""
        return dict(self._usage)

    def request(self, env: SkillForgeTextEnv) -> dict[str, Any]:
        """The request for the environment's current step (its ``messages`` are kept as ``self.messages``)."""
        options = self.options
        messages = step_messages(self.template, prompt_fields(env, options.history, options.give_up), options,
                                 self.examples)
        if self.conversation is not None:
            messages[-1:-1] = self.conversation.messages()
        self.messages = messages
        request: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": options.temperature}
        max_tokens = options.max_tokens if options.max_tokens is not None or options.cot is None else \
            options.cot + COT_ANSWER_TOKENS
        if max_tokens is not None:
            request["max_tokens"] = max_tokens
        if self.seed is not None:
            request["seed"] = self.seed
        return request

    def act(self, env: SkillForgeTextEnv) -> int:
        """Ask the model; the action its answer chooses (``taskverse.textenv.answers``)."""
        self.reasoning = self.answer = None
        reply = self._ask(self.request(env))
        content = reply.content
        if self.conversation is not None and self.messages:
            self.conversation.add(self.messages[-1]["content"], content)
        self.answer = content[:20000]
        self.reasoning = (f"{reply.thinking}\n\n{content}" if reply.thinking else content)[:40000]
        return choose_action(env, content, give_up=self.options.give_up)

    def _ask(self, request: dict[str, Any]) -> Reply:
        where = self.base_url or "api.openai.com"
        retries = self.options.retries
        failure = RequestFailed("no request was sent")
        for attempt in range(retries + 1):
            if attempt:
                self._usage["retries"] += 1
                time.sleep(min(8.0, 0.5 * 2 ** (attempt - 1)))
            self._usage["calls"] += 1
            try:
                reply = ask(self.client, request, self.options.answer_timeout, where)
            except RequestFailed as exc:
                failure = exc
                if exc.retry:  # perhaps given up on mid-request: its connections go, a new client comes
                    self._renew()
                if exc.fatal:
                    raise AgentError(f"{self.name}: {exc.reason}") from None
                if not exc.retry:
                    break
                continue
            self._usage["prompt_tokens"] += reply.prompt_tokens
            self._usage["completion_tokens"] += reply.completion_tokens
            self._failed = 0
            return reply
        self._failed = self._failed + 1 if failure.retry else 0  # the endpoint seems down, not just odd
        reason = f"{self.name}: {failure.reason}" + (f" ({retries} retries)" if failure.retry and retries else "")
        if self._failed >= MAX_FAILED_STEPS:
            raise AgentError(f"{reason}; {self._failed} steps in a row failed")
        raise AnswerRefused(reason)

    def _renew(self) -> None:
        old, self.client = self.client, self._client()
        try:
            old.close()
        except Exception:  # noqa: BLE001, S110 - closing a connection another thread still reads may fail; it is gone
            pass

    def close(self) -> None:
        """Close the client's connections."""
        self.client.close()


MAX_EXAMPLES = 8
"""Solved episodes ``--few-shot`` puts in the prompt, at most."""
MAX_EXAMPLE_ACTIONS = 200
"""Actions of one example episode, at most (a longer one is left out)."""


def few_shot_text(path: str | Path, examples: int = MAX_EXAMPLES) -> str:
    r"""Solved episodes of a trajectory file (``eval`` writes them) as worked examples for the system message.

    The first ``examples`` successful episodes, each as its task and the actions that solved it, in order. The
    task is named as its first observation names it, else by its ``description`` (the engine's records: the task
    as given, ``craft stick``, not the id of the molecule its start mode made), else by its id.
    Raises a TaskverseError naming the file when it cannot be read or holds no successful episode.

    Example:
        >>> import json, tempfile
        >>> line = {"task": "craft.stick", "success": True, "actions": ["find.oak_log", "mine.oak_log"],
        ...         "trajectory": [{"observation": "Task: craft stick.\nStep: 0/10"}]}
        >>> with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        ...     _ = f.write(json.dumps(line) + "\n")
        >>> print(few_shot_text(f.name))
        Examples of solved episodes:
        Task: craft stick. Actions, in order: find oak_log; mine oak_log (2 steps).

    """
    import json

    from taskverse.fileio import read_lines

    out: list[str] = []
    for number, (_, line) in enumerate(read_lines(path, 16 * 1024 * 1024, "trajectory file"), start=1):
        if len(out) >= examples:
            break
        try:
            record = json.loads(line) if line is not None else None
        except (ValueError, RecursionError):
            raise TaskverseError("not a trajectory line (JSON)", file=path, line=number) from None
        if not isinstance(record, dict):
            raise TaskverseError("not a trajectory line (a JSON object)", file=path, line=number)
        actions = record.get("actions")
        if record.get("success") is not True or not isinstance(actions, list) or \
                not 0 < len(actions) <= MAX_EXAMPLE_ACTIONS or not all(isinstance(a, str) for a in actions):
            continue
        named = record.get("description") if isinstance(record.get("description"), str) else record.get("task")
        task = f"Task: {str(named)[:200]}."
        steps = record.get("trajectory")
        if isinstance(steps, list) and steps and isinstance(steps[0], dict) and \
                isinstance(steps[0].get("observation"), str):
            task = steps[0]["observation"].split("\n", 1)[0][:300]
        names = "; ".join(a.replace(".", " ", 1)[:100] for a in actions)
        out.append(f"{task} Actions, in order: {names} ({len(actions)} steps).")
    if not out:
        raise TaskverseError("no successful episode to show as an example (taskverse eval -o REPORT.json writes "
                             "REPORT.trajectories.jsonl)", file=path)
    return "Examples of solved episodes:\n" + "\n".join(out)


def _new_usage() -> dict[str, int]:
    return {"calls": 0, "retries": 0, "prompt_tokens": 0, "completion_tokens": 0}


def check_base_url(url: str) -> str:
    """Raise a TaskverseError unless ``url`` is an http(s) address with a host (``--base-url``)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError as exc:
        raise TaskverseError(f"--base-url {url[:80]!r} is not a URL ({exc}); expected e.g. "
                             "http://127.0.0.1:8080/v1") from None
    if parts.scheme not in ("http", "https") or not parts.hostname or any(c.isspace() for c in url):
        raise TaskverseError(f"--base-url {url[:80]!r} is not an http(s) URL with a host; expected e.g. "
                             "http://127.0.0.1:8080/v1")
    return url


__all__ = ["MAX_FAILED_STEPS", "OpenAIAgent", "PromptTemplate", "check_base_url", "default_prompt_text",
           "prompt_fields", "read_action", "step_messages"]
