"""What agents outside taskverse share: their settings, and the two ways an answer can fail.

``AgentError``: no usable answer (a crash, a timeout, an endpoint failure): the episode fails, the run goes on.
``AnswerRefused``: an answer that is not an action (binary bytes): the step is wasted, like a wrong name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taskverse.errors import TaskverseError


class AgentError(TaskverseError):
    """The agent gave no usable answer (it crashed, timed out, or its endpoint failed): the episode fails."""


class AnswerRefused(TaskverseError):
    """The agent answered, but with something that is not an action (binary bytes): the step is wasted."""


@dataclass(frozen=True)
class AgentOptions:
    """Settings of the agents that talk to something outside taskverse (``cmd:`` and ``openai:``).

    Attributes:
        answer_timeout: Seconds to wait for each answer; longer fails the episode and the run goes on.
        retries: Retries of a failed request to an endpoint (``openai:``), with the client's backoff.
        base_url: An OpenAI-compatible endpoint (default: ``OPENAI_BASE_URL``, else OpenAI's).
        api_key: The endpoint's key (default: ``OPENAI_API_KEY``; local servers take any).
        prompt: A prompt template file (default: the bundled Figure 5 template, ``taskverse.textenv.llm``).
        temperature: Sampling temperature of the model.
        max_tokens: A cap on the tokens of each answer (None: the endpoint's default).
        max_answer_bytes: The longest answer line an external program may write.
        history: How many of the last actions the prompt's ``$history`` lists (``openai:``); in ``messages``
            mode also how many earlier exchanges the request carries as chat messages.
        history_mode: ``text`` (each request stands alone, ``$history`` lists the last actions) or ``messages``
            (the last exchanges come as ``user`` / ``assistant`` messages too; ``taskverse.textenv.history``).
        history_chars: The most characters of earlier exchanges a request carries in ``messages`` mode.
        cot: Ask for a chain of thought of at most this many tokens before the answer (``openai:``; None: no
            request to think). ``max_tokens`` defaults to it plus ``COT_ANSWER_TOKENS``.
        few_shot: A trajectory file whose solved episodes go into the system message as worked examples.
        give_up: Offer the give-up as one more candidate (``taskverse.textenv.impossible``; the run's setting,
            recorded with it, not here).

    """

    answer_timeout: float = 30.0
    retries: int = 2
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    prompt: str | None = None
    temperature: float = 0.0
    max_tokens: int | None = None
    max_answer_bytes: int = 65536
    history: int = 20
    history_mode: str = "text"
    history_chars: int = 16_000
    cot: int | None = None
    few_shot: str | None = None
    give_up: bool = False

    def public(self) -> dict[str, Any]:
        """The settings a report records (never the key)."""
        out = {"answer_timeout": self.answer_timeout, "retries": self.retries, "base_url": self.base_url,
               "prompt": self.prompt, "temperature": self.temperature, "max_tokens": self.max_tokens,
               "history": self.history, "cot": self.cot, "few_shot": self.few_shot}
        if self.history_mode != "text":  # only then: reports made before the mode existed still resume
            out |= {"history_mode": self.history_mode, "history_chars": self.history_chars}
        return out


__all__ = ["AgentError", "AgentOptions", "AnswerRefused"]
