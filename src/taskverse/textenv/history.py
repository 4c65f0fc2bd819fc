"""An episode's earlier exchanges as chat messages (``--history-mode messages``), as BALROG keeps them.

In ``messages`` mode every request is the system message, then the last exchanges of the episode as they went
(the user message sent at that step and the model's answer, as alternating ``user`` / ``assistant`` messages),
then this step's user message. The window holds at most ``turns`` exchanges (``--history K``) and at most
``chars`` characters of them (``--history-chars``), the oldest leaving first, so an episode of thousands of steps
sends no more than a short one. An answer is kept without its reasoning block (``<think>...</think>``) and cut to
``MAX_ANSWER_CHARS``: what the model decided, not every word it thought.
"""

from __future__ import annotations

from collections import deque

from taskverse.textenv.answers import without_reasoning

HISTORY_MODES = ("text", "messages")
"""``text``: the prompt's ``$history`` lists the last actions, each request stands alone; ``messages``: the last
exchanges come as chat messages before this step's."""
DEFAULT_HISTORY_CHARS = 16_000
"""Characters of earlier exchanges a request carries at most (about 4,000 tokens)."""
MAX_ANSWER_CHARS = 1000
"""The longest answer kept as an ``assistant`` message (after its reasoning block is left out)."""


class Conversation:
    """The last exchanges of an episode, bounded by their number and their characters.

    Example:
        >>> c = Conversation(turns=2, chars=1000)
        >>> for step in range(3):
        ...     c.add(f"step {step}", f"<think>hm</think>ACTION: {step}")
        >>> [m["content"] for m in c.messages()]
        ['step 1', 'ACTION: 1', 'step 2', 'ACTION: 2']

    """

    def __init__(self, turns: int, chars: int = DEFAULT_HISTORY_CHARS) -> None:
        self.turns = turns
        self.chars = chars
        self._kept: deque[tuple[str, str]] = deque()
        self._size = 0
        self.dropped = 0
        """Exchanges of the episode that have left the window."""

    def clear(self) -> None:
        """A new episode."""
        self._kept.clear()
        self._size = 0
        self.dropped = 0

    def add(self, user: str, answer: str) -> None:
        """Keep one exchange: the user message sent and the answer received (the oldest leave to stay bounded)."""
        kept = without_reasoning(answer).strip()[:MAX_ANSWER_CHARS] or "(no answer)"
        self._kept.append((user, kept))
        self._size += len(user) + len(kept)
        while self._kept and (len(self._kept) > self.turns or self._size > self.chars):
            old_user, old_answer = self._kept.popleft()
            self._size -= len(old_user) + len(old_answer)
            self.dropped += 1

    def messages(self) -> list[dict[str, str]]:
        """The kept exchanges as alternating ``user`` and ``assistant`` messages, oldest first."""
        out = []
        for user, answer in self._kept:
            out.append({"role": "user", "content": user})
            out.append({"role": "assistant", "content": answer})
        return out


__all__ = ["DEFAULT_HISTORY_CHARS", "HISTORY_MODES", "MAX_ANSWER_CHARS", "Conversation"]
