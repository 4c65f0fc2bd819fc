"""The options of an agent outside taskverse (``cmd:`` and ``openai:``), declared once for every command that runs one.

``taskverse eval`` (the text world) and ``taskverse engine eval`` (the engine) take the same agents with the same
settings: :func:`agent_options` adds the options to a command and hands their values to it as one ``agent_args``
mapping, and :func:`make_agent_options` turns that into :class:`taskverse.textenv.options.AgentOptions` after the
checks both commands make.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from taskverse.cli.util import FiniteFloat

F = TypeVar("F", bound=Callable[..., Any])

_OPTIONS = [
    click.option("--answer-timeout", type=FiniteFloat(min=0.1, max=3600.0), default=30.0, show_default=True,
                 help="Seconds to wait for each answer of a cmd: or openai: agent (the whole answer, however it "
                      "trickles in); longer wastes the step (openai:) or fails the episode (cmd:)."),
    click.option("--retries", type=click.IntRange(min=0, max=10), default=2, show_default=True,
                 help="Retries of a failed request to the endpoint (openai:), each counted in usage."),
    click.option("--base-url", help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1 [default: "
                                    "OPENAI_BASE_URL, else OpenAI's]."),
    click.option("--api-key", help="The endpoint's key [default: OPENAI_API_KEY; local servers need none]."),
    click.option("--prompt", type=click.Path(dir_okay=False, path_type=Path),
                 help="A prompt template file (openai:; copy the default with taskverse eval --show-prompt > "
                      "prompt.txt and edit it)."),
    click.option("--temperature", type=FiniteFloat(min=0.0, max=2.0), default=0.0, show_default=True),
    click.option("--max-tokens", type=click.IntRange(min=1, max=1_000_000), default=None,
                 help="A cap on each answer's tokens (openai:)."),
    click.option("--history", type=click.IntRange(min=0, max=10_000), default=20, show_default=True,
                 help="How many of the last actions the prompt's $history lists (openai:); with --history-mode "
                      "messages also how many earlier exchanges each request carries."),
    click.option("--history-mode", type=click.Choice(["text", "messages"]), default="text", show_default=True,
                 help="text: each request stands alone, $history lists the last actions; messages: the last "
                      "--history exchanges (the user message sent, the model's answer) come first as alternating "
                      "user/assistant chat messages, as BALROG keeps them (openai:)."),
    click.option("--history-chars", type=click.IntRange(min=0, max=10_000_000), default=16_000, show_default=True,
                 help="With --history-mode messages: the most characters of earlier exchanges a request carries "
                      "(the oldest leave first), so a long episode cannot overflow the model's context."),
    click.option("--cot", type=click.IntRange(min=1, max=100_000), default=None, metavar="TOKENS",
                 help="Ask the model to think step by step in at most TOKENS tokens before answering (openai:); "
                      "--max-tokens defaults to TOKENS + 32."),
    click.option("--few-shot", type=click.Path(dir_okay=False, path_type=Path),
                 help="A trajectory file (REPORT.trajectories.jsonl of taskverse eval or taskverse engine eval) "
                      "whose first solved episodes (up to 8) go into the system message as worked examples "
                      "(openai:)."),
]
AGENT_ARGS = ("answer_timeout", "retries", "base_url", "api_key", "prompt", "temperature", "max_tokens", "history",
              "history_mode", "history_chars", "cot", "few_shot")
"""The parameters :func:`agent_options` adds, in the order of ``_OPTIONS``."""


def agent_options(func: F) -> F:
    r"""Add the agent options to a click command; it receives their values as one ``agent_args`` dict.

    Example:
        >>> @click.command()
        ... @agent_options
        ... def run(agent_args: dict) -> None:
        ...     click.echo(agent_args["retries"])
        >>> from click.testing import CliRunner
        >>> CliRunner().invoke(run, ["--retries", "3"]).output
        '3\n'

    """

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        agent_args = {name: kwargs.pop(name) for name in AGENT_ARGS}
        return func(*args, agent_args=agent_args, **kwargs)

    command: Any = wrapper
    for option in reversed(_OPTIONS):
        command = option(command)
    return command  # type: ignore[no-any-return]


def make_agent_options(agent_spec: str | None, agent_args: dict[str, Any], **extra: Any) -> Any:
    """The :class:`AgentOptions` of ``agent_args`` (``extra`` adds settings of the run, such as ``give_up``).

    Raises TaskverseError for a bad ``--base-url`` or a ``--prompt`` given to an agent that takes no prompt.
    """
    from taskverse.errors import TaskverseError
    from taskverse.textenv.options import AgentOptions

    if agent_args["base_url"] is not None:
        from taskverse.textenv.llm import check_base_url

        check_base_url(agent_args["base_url"])
    if agent_args["prompt"] is not None and agent_spec is not None and not agent_spec.startswith("openai:"):
        raise TaskverseError("--prompt is for openai:MODEL agents")
    values: dict[str, Any] = {name: str(value) if isinstance(value, Path) else value
                              for name, value in agent_args.items()}
    return AgentOptions(**values, **extra)
