"""A language model as a SkillForge-text agent, through any OpenAI-compatible endpoint (``openai:MODEL``).

llama.cpp's server, vLLM, Ollama and hosted APIs all speak the chat completions protocol; the agent talks to
them with the official ``openai`` client (``pip install 'taskverse[llm]'``). At every step it fills a prompt
template (``PromptTemplate``, MCU Figure 5 style by default, ``prompts/figure5.txt``) with the observation,
sends it as one request (each step stands alone: the template's ``$history`` lists the actions taken), and reads
the action from the answer's last ``ACTION: ...`` line. The whole answer, and the endpoint's separate reasoning
text where it gives one (``reasoning_content``), are kept as the step's reasoning; calls and tokens are counted
per episode.

Endpoint failures (unreachable, refused key, unknown model, no answer within the timeout after the retries)
raise ``AgentError`` with one line saying what happened: the episode fails and the evaluation goes on.
"""

from __future__ import annotations

import os
import re
import string
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from taskverse.errors import TaskverseError
from taskverse.textenv.options import AgentError, AgentOptions

if TYPE_CHECKING:
    from taskverse.textenv.env import SkillForgeTextEnv

DEFAULT_PROMPT = "figure5.txt"
ACTION_LINE = re.compile(r"^\W*action\W*[:=]\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)
PLACEHOLDERS = ("task", "observation", "step", "max_steps", "inventory", "found", "candidates", "error", "history")


def default_prompt_text() -> str:
    """The bundled prompt template (copy it to edit it)."""
    return resources.files("taskverse.textenv").joinpath("prompts", DEFAULT_PROMPT).read_text(encoding="utf-8")


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
        file = Path(path)
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise TaskverseError(f"cannot read the prompt template: {getattr(exc, 'strerror', None) or exc}",
                                 file=file) from None
        return cls.parse(text, str(file))

    def messages(self, fields: dict[str, str]) -> list[dict[str, str]]:
        """The chat messages for one step."""
        out = []
        if self.system:
            out.append({"role": "system", "content": string.Template(self.system).safe_substitute(fields)})
        out.append({"role": "user", "content": string.Template(self.user).safe_substitute(fields)})
        return out


def prompt_fields(env: SkillForgeTextEnv) -> dict[str, str]:
    """The placeholders' values for the environment's current step."""
    rules = env.rules
    shown = env.shown_candidates()
    history = [rules.descriptions[a] for a in env.action_indices]
    inventory = env.inventory()
    return {
        "task": env.target.description,
        "observation": env.text(),
        "step": str(env.steps),
        "max_steps": str(env.max_steps),
        "inventory": ", ".join(f"{name}: {count}" for name, count in inventory.items()) or "nothing",
        "found": ", ".join(f"{name} ({kind})" for kind, name in env.found()) or "nothing",
        "candidates": "\n".join(f"{i}: {rules.descriptions[a]}" for i, a in enumerate(shown)),
        "error": env.last_error or "",
        "history": "\n".join(f"{n + 1}. {d}" for n, d in enumerate(history)) or "none",
    }


def read_action(answer: str) -> str:
    r"""The action named in a model's answer: its last ``ACTION: ...`` line, else the whole answer's last line.

    Example:
        >>> read_action("I need planks first.\nACTION: 3")
        '3'
        >>> read_action("**Action:** craft stick")
        'craft stick'

    """
    matches = ACTION_LINE.findall(answer)
    if matches:
        choice = matches[-1]
    else:
        lines = [line for line in answer.strip().splitlines() if line.strip()]
        choice = lines[-1] if lines else ""
    return choice.strip().strip("*`'\".").strip()


class OpenAIAgent:
    """A chat model behind an OpenAI-compatible endpoint, prompted once per step.

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
        self.base_url = options.base_url or os.environ.get("OPENAI_BASE_URL") or None
        # a local server takes any key; the client insists on one
        key = options.api_key or os.environ.get("OPENAI_API_KEY") or ("unused" if self.base_url else None)
        if key is None:
            raise TaskverseError("openai:MODEL needs an API key: set OPENAI_API_KEY or --api-key (or give "
                                 "--base-url of a local server, which needs none)")
        self._openai = openai
        self.client = openai.OpenAI(api_key=key, base_url=self.base_url, timeout=options.answer_timeout,
                                    max_retries=options.retries)
        self.reasoning: str | None = None
        self.answer: str | None = None
        self._usage = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0}

    def reset(self, env: SkillForgeTextEnv, seed: int | None = None) -> None:
        """A new episode: the counts start again."""
        self._usage = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
        self.seed = seed

    def usage(self) -> dict[str, int]:
        """Calls and tokens of this episode."""
        return dict(self._usage)

    def act(self, env: SkillForgeTextEnv) -> str:
        """Ask the model; the action named in its answer."""
        openai = self._openai
        self.reasoning = self.answer = None
        messages = self.template.messages(prompt_fields(env))
        where = self.base_url or "api.openai.com"
        request: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": self.options.temperature}
        if self.options.max_tokens is not None:
            request["max_tokens"] = self.options.max_tokens
        self._usage["calls"] += 1
        try:
            response = self.client.chat.completions.create(**request)
        except openai.APITimeoutError:
            raise AgentError(f"{self.name}: no answer from {where} within {self.options.answer_timeout:g} s "
                             f"({self.options.retries} retries)") from None
        except openai.APIConnectionError as exc:
            raise AgentError(f"{self.name}: cannot reach {where}: {_cause(exc)}") from None
        except openai.AuthenticationError:
            raise AgentError(f"{self.name}: {where} refused the API key (401); set OPENAI_API_KEY or --api-key") \
                from None
        except openai.NotFoundError as exc:
            raise AgentError(f"{self.name}: {where} does not serve model {self.model!r} (404: "
                             f"{_message(exc)})") from None
        except openai.APIStatusError as exc:
            raise AgentError(f"{self.name}: {where} answered {exc.status_code}: {_message(exc)}") from None
        except openai.OpenAIError as exc:
            raise AgentError(f"{self.name}: {type(exc).__name__}: {str(exc).splitlines()[0][:300]}") from None
        usage = getattr(response, "usage", None)
        if usage is not None:
            self._usage["prompt_tokens"] += int(getattr(usage, "prompt_tokens", 0) or 0)
            self._usage["completion_tokens"] += int(getattr(usage, "completion_tokens", 0) or 0)
        choices = getattr(response, "choices", None) or []
        if not choices:
            raise AgentError(f"{self.name}: {where} answered with no choices")
        message = choices[0].message
        content = message.content or ""
        thinking = getattr(message, "reasoning_content", None) or (message.model_extra or {}).get("reasoning")
        self.answer = content[:20000]
        self.reasoning = (f"{thinking}\n\n{content}" if thinking else content)[:40000]
        return read_action(content)

    def close(self) -> None:
        """Close the client's connections."""
        self.client.close()


def _message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])[:300]
    return str(getattr(exc, "message", exc)).splitlines()[0][:300]


def _cause(exc: BaseException) -> str:
    cause: BaseException | None = exc
    while cause is not None and cause.__cause__ is not None:
        cause = cause.__cause__
    return str(cause or exc).splitlines()[0][:300] if cause is not exc else "connection error"


__all__ = ["OpenAIAgent", "PromptTemplate", "default_prompt_text", "prompt_fields", "read_action"]
