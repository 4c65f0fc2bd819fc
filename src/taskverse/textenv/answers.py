r"""Reading the action out of a language model's answer: the one rule, tolerant of how models write.

Small models rarely answer in the exact form a prompt asks for: they echo the observation, add a line of prose,
or think aloud first. The rule (``docs/textenv.md``), applied by ``choose_action``:

1. A reasoning block is left out: the text inside ``<think>...</think>`` (also ``<thinking>``, ``<reasoning>``);
   a block never closed runs to the end, and text before a lone closing tag is reasoning too.
2. If what is left has an ``ACTION:`` marker (any case, decorated or not: ``**Action:**``, ``action =``), only the
   text after the last marker counts; what comes before it is reasoning.
3. In that text (its first ``MAX_SCANNED_CHARS`` characters), the first valid choice from the left wins: a
   candidate number the observation shows (a whole number standing alone: ``1``, ``[3]``, ``2.``, not ``1.5``,
   ``x2`` or ``10/100``), or the name or id of an action that is a candidate now (any case; ``_`` and spaces
   alike; an article, ``a``, ``an``, ``the`` or ``some``, between its words or not: ``find the witch`` names
   ``find witch``). Numbers no candidate has and names of actions that cannot be done now are passed over.
4. Nothing valid: the answer is refused (``AnswerRefused``) and the step is wasted, counted as an invalid answer.

Example:
    >>> from taskverse.textenv.env import SkillForgeTextEnv
    >>> env = SkillForgeTextEnv(task="craft stick", plan_info=False, view="top:3")
    >>> _ = env.reset(seed=0)
    >>> choose_action(env, "1\nActions taken so far: 0, no action.") == env.shown_candidates()[1]
    True
    >>> env.rules.descriptions[choose_action(env, "<think>2 or 0?</think> I will Find OAK_LOG.")]
    'find oak_log'
    >>> env.rules.descriptions[choose_action(env, "ACTION: 10\nThe next action is to find an oak log.")]
    'find oak_log'

"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from taskverse.textenv.options import AnswerRefused

if TYPE_CHECKING:
    from taskverse.textenv.env import SkillForgeTextEnv

MAX_SCANNED_CHARS = 20_000
"""How much of an answer (after its reasoning) is searched for a choice."""

_BLOCK = re.compile(r"<(think|thinking|reasoning)>.*?(?:</\1\s*>|\Z)", re.IGNORECASE | re.DOTALL)
_CLOSING = re.compile(r"</(?:think|thinking|reasoning)\s*>", re.IGNORECASE)
_MARKER = re.compile(r"(?<![\w])action(?![\w])[\s*_`'\"]*[:=]", re.IGNORECASE)
_NUMBER = r"(?<![\w./])(?P<number>\d{1,9})(?![\w/]|[.,]\d)"


def answer_part(answer: str) -> str:
    r"""The part of an answer that names the action: after its reasoning block and its last ``ACTION:`` marker.

    Example:
        >>> answer_part("<think>maybe 3</think>I pick 2.\nACTION: 4")
        ' 4'

    """
    text = _BLOCK.sub(" ", answer)
    closings = list(_CLOSING.finditer(text))
    if closings:  # some servers cut the opening tag away and leave the closing one
        text = text[closings[-1].end():]
    markers = list(_MARKER.finditer(text))
    if markers:
        text = text[markers[-1].end():]
    return text


def without_reasoning(answer: str) -> str:
    r"""The answer with its reasoning blocks left out (rule 1 of the module), its ``ACTION:`` line kept.

    Example:
        >>> without_reasoning("<think>maybe 3</think>ACTION: 4")
        'ACTION: 4'

    """
    text = _BLOCK.sub("", answer)
    closings = list(_CLOSING.finditer(text))
    return text[closings[-1].end():] if closings else text


ARTICLES = ("a", "an", "the", "some")
"""Words an answer may put between the words of an action's name, or leave out of it (rule 3)."""
_BETWEEN = r"[\s_]+(?:(?:" + "|".join(ARTICLES) + r")[\s_]+)*"


def _normal(name: str) -> str:
    """The name compared: any case, ``_`` as a space, the articles after its first word left out."""
    first, *rest = name.casefold().replace("_", " ").split() or [""]
    return " ".join([first, *(word for word in rest if word not in ARTICLES)])


@functools.lru_cache(maxsize=64)
def _pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    """Numbers and the given (normalized) names, longest names first, each standing alone."""
    alternatives = [_BETWEEN.join(re.escape(word) for word in name.split(" ")) for name in names]
    name_part = "|".join(alternatives) if alternatives else r"(?!x)x"
    return re.compile(rf"{_NUMBER}|(?<![\w.])(?P<name>{name_part})(?![\w]|\.\w)", re.IGNORECASE)


def choose_action(env: SkillForgeTextEnv, answer: str, give_up: bool = False) -> int:
    """The action an answer chooses, by the module's rule; raises ``AnswerRefused`` saying why when none.

    Args:
        env: The environment at the step answered (its shown candidates give the numbers).
        answer: The model's answer text.
        give_up: The give-up is offered, as the number after the shown candidates' and by the names ``give up``
            and ``impossible``: choosing it returns ``impossible.GIVE_UP``.

    """
    text = answer_part(answer)[:MAX_SCANNED_CHARS]
    shown = env.shown_candidates()
    rules = env.rules
    by_name: dict[str, int] = {}
    for a in env.candidates():
        by_name[_normal(rules.descriptions[a])] = a
        by_name[_normal(rules.actions[a])] = a
    if give_up:
        from taskverse.textenv.impossible import GIVE_UP, GIVE_UP_WORDS

        by_name.update(dict.fromkeys(GIVE_UP_WORDS, GIVE_UP))
    pattern = _pattern(tuple(sorted(by_name, key=lambda n: (-len(n), n))))
    for match in pattern.finditer(text):
        number = match.group("number")
        if number is not None:
            if int(number) < len(shown):
                return shown[int(number)]
            if give_up and int(number) == len(shown):
                from taskverse.textenv.impossible import GIVE_UP

                return GIVE_UP
            continue
        return by_name[_normal(match.group("name"))]
    quoted = " ".join(text.split())[:120]
    raise AnswerRefused(f"the answer names no candidate (a number from 0 to {len(shown) - 1} or a candidate "
                        f"action's name): {quoted!r}" if shown else "the answer names no candidate")


__all__ = ["ARTICLES", "MAX_SCANNED_CHARS", "answer_part", "choose_action", "without_reasoning"]
