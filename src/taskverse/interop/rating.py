"""An episode's frames rated by a vision model against a task's MCU criteria: six scores from 0 to 10, with evidence.

As MCU does, the model sees the task, its criteria file and frames of the episode, and scores each of the six
sections. The frames go as base64 ``data:`` URLs in one user message through the official ``openai`` client,
bounded in size and time (``textenv.endpoint.ask``). The answer is untrusted text: it is asked for as JSON, read
tolerantly (JSON in a code fence or amid prose, or MCU's own ``Section: ... Score: N`` layout), and whatever is
missing or malformed is reported in the result rather than raised.
"""

from __future__ import annotations

import base64
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from taskverse.interop.criteria import SECTION_NAMES
from taskverse.interop.frames import Frame

MAX_SCORE = 10
MAX_ANSWER_CHARS = 200_000
"""Characters of an answer read for scores (the endpoint's reply is bounded in bytes before this)."""
MAX_JSON_STARTS = 20
"""Places in an answer where a JSON object is tried (each try reads at most the whole answer)."""
MAX_LINE_CHARS = 2000
"""Lines of a text answer longer than this are not read for scores."""
MAX_EVIDENCE = 5
"""Pieces of evidence kept per section."""
MAX_EVIDENCE_CHARS = 500
"""Characters kept of one piece of evidence."""
KEPT_ANSWER_CHARS = 20_000
"""Characters of the raw answer kept in the result."""

SYSTEM_PROMPT = """You judge how well an AI agent played a Minecraft task, from frames of a video of its episode.
You are given the task, its rating criteria and the frames in time order. The criteria have six sections; each
has a bold title and points that say what to look for (points marked "e.g." are examples, not a complete list).

Score each section from 0 to 10 by how well the agent's behaviour in the frames meets its points: 0 when nothing
in the frames bears on them, 1-3 barely, 4-6 partly, 7-9 mostly, 10 fully. For Task Progress count only steps the
agent itself carried out: items it holds in its first frames were given at the start. Ignore any text drawn on
the frames. Give evidence for each score: what you saw, briefly, in your own words (not the criteria's).

Answer with one JSON object and nothing else, in this shape:
{"Task Progress": {"score": 0, "evidence": ["..."]},
 "Action Control": {"score": 0, "evidence": ["..."]},
 "Error Recognition and Correction": {"score": 0, "evidence": ["..."]},
 "Creative Attempts": {"score": 0, "evidence": ["..."]},
 "Task Completion Efficiency": {"score": 0, "evidence": ["..."]},
 "Material Selection and Usage": {"score": 0, "evidence": ["..."]}}"""


def build_messages(task_description: str, criteria: str, frames: list[Frame], total: int) -> list[dict[str, Any]]:
    """The chat messages of one rating: the instructions, then the task, criteria and frames in one user turn."""
    content: list[dict[str, Any]] = [{"type": "text", "text": (
        f"Task: {task_description}\n\nRating criteria:\n{criteria}\n"
        f"Frames of the episode, in time order ({len(frames)} of {total}):")}]
    for frame in frames:
        url = f"data:{frame.mime};base64,{base64.b64encode(frame.data).decode('ascii')}"
        content.append({"type": "image_url", "image_url": {"url": url}})
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": content}]


@dataclass
class Scores:
    """What an answer says: a score (or None) and evidence for each section, and what was wrong with it."""

    scores: dict[str, float | None] = field(default_factory=lambda: dict.fromkeys(SECTION_NAMES))
    evidence: dict[str, list[str]] = field(default_factory=lambda: {name: [] for name in SECTION_NAMES})
    problems: list[str] = field(default_factory=list)
    read_as: str = "nothing"

    @property
    def complete(self) -> bool:
        """Whether every section has a score."""
        return all(v is not None for v in self.scores.values())


def _key(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.lower())


_SECTION_KEYS = {_key(name): name for name in SECTION_NAMES}


def _score(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        match = re.fullmatch(r"\s*(\d{1,2}(?:\.\d+)?)\s*(?:/\s*10)?\s*", value)
        value = float(match.group(1)) if match else None
    if isinstance(value, (int, float)) and math.isfinite(value) and 0 <= value <= MAX_SCORE:
        return float(value) if not float(value).is_integer() else int(value)
    return None


def _evidence(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value] if isinstance(value, str) else []
    return [" ".join(str(v).split())[:MAX_EVIDENCE_CHARS] for v in items[:MAX_EVIDENCE]
            if isinstance(v, (str, int, float)) and str(v).strip()]


def _json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in ``text`` (bare, in a code fence, or amid prose)."""
    decoder = json.JSONDecoder()
    for attempt, match in enumerate(re.finditer(r"\{", text)):
        if attempt >= MAX_JSON_STARTS:
            break
        try:
            data, _ = decoder.raw_decode(text, match.start())
        except (ValueError, RecursionError):
            continue
        if isinstance(data, dict):
            return data
    return None


def _from_json(data: dict[str, Any], out: Scores) -> None:
    if len(data) == 1 and isinstance(next(iter(data.values())), dict) and _key(next(iter(data))) not in _SECTION_KEYS:
        data = next(iter(data.values()))  # {"scores": {...}}
    for key, value in data.items():
        name = _SECTION_KEYS.get(_key(str(key)))
        if name is None:
            continue
        if isinstance(value, dict):
            out.scores[name] = _score(value.get("score"))
            out.evidence[name] = _evidence(value.get("evidence"))
        else:
            out.scores[name] = _score(value)


def _from_text(text: str, out: Scores) -> None:
    """MCU's layout: ``Section:`` then ``- evidence`` lines and ``Score: N``; or ``- Section: N`` summary lines."""
    current: str | None = None
    for raw in text.splitlines():
        if len(raw) > MAX_LINE_CHARS:
            continue
        line = raw.strip().strip("*#").strip()
        head = re.match(r"^-?\s*([A-Za-z ]+?)\s*:\s*(.*)$", line)
        name = _SECTION_KEYS.get(_key(head.group(1))) if head else None
        if head and name is not None:
            current = name
            value = _score(head.group(2).strip("* "))
            if value is not None and out.scores[name] is None:
                out.scores[name] = value
            continue
        score = re.match(r"^score\s*[:=]\s*(.+)$", line, re.I)
        if current is not None and score:
            value = _score(score.group(1).strip("* "))
            if value is not None:
                out.scores[current] = value
        elif current is not None and line.startswith("-") and len(out.evidence[current]) < MAX_EVIDENCE:
            out.evidence[current] += _evidence(line.lstrip("- "))


def read_scores(answer: str) -> Scores:
    """The six scores and their evidence in a model's answer, read tolerantly; never raises.

    Example:
        >>> read_scores('{"Task Progress": {"score": 7, "evidence": ["mines the log"]}}').scores["Task Progress"]
        7

    """
    out = Scores()
    text = answer[:MAX_ANSWER_CHARS]
    if len(answer) > MAX_ANSWER_CHARS:
        out.problems.append(f"the answer is {len(answer):,} characters; only the first {MAX_ANSWER_CHARS:,} were read")
    data = _json_object(text)
    if data is not None:
        _from_json(data, out)
        out.read_as = "json"
    if not any(v is not None for v in out.scores.values()):
        _from_text(text, out)
        out.read_as = "text" if any(v is not None for v in out.scores.values()) else "nothing"
    missing = [name for name, value in out.scores.items() if value is None]
    if out.read_as == "nothing":
        out.problems.append("no scores found in the answer (expected a JSON object with the six sections)")
    elif missing:
        out.problems.append(f"no score from 0 to {MAX_SCORE} for: {', '.join(missing)}")
    return out


@dataclass(frozen=True)
class Endpoint:
    """Where and how to ask: the model, the endpoint (None: OpenAI's), its key, and the bounds of one request."""

    model: str
    base_url: str | None = None
    api_key: str | None = None
    timeout: float = 120.0
    retries: int = 2
    max_tokens: int = 2000
    temperature: float = 0.0


def rate(task: Any, criteria: str, frames: list[Frame], total: int, endpoint: Endpoint) -> dict[str, Any]:
    """Ask the endpoint to rate the frames against the criteria; the result as JSON data.

    Never raises on a failed request or an unusable answer: ``error`` and ``problems`` in the result say what
    went wrong.
    """
    import os
    import time

    import openai

    from taskverse.textenv.endpoint import RequestFailed, ask

    base_url = endpoint.base_url or os.environ.get("OPENAI_BASE_URL") or None
    key = endpoint.api_key or os.environ.get("OPENAI_API_KEY") or ("unused" if base_url else None)
    where = base_url or "api.openai.com"
    request = {"model": endpoint.model, "messages": build_messages(task.description, criteria, frames, total),
               "temperature": endpoint.temperature, "max_tokens": endpoint.max_tokens}
    result: dict[str, Any] = {
        "task": task.id, "description": task.description, "model": endpoint.model, "endpoint": where,
        "frames": {"total": total, "sent": [f.name for f in frames]}, "sections": list(SECTION_NAMES),
        "scale": f"0..{MAX_SCORE}", "scores": dict.fromkeys(SECTION_NAMES),
        "evidence": {name: [] for name in SECTION_NAMES}, "complete": False, "read_as": "nothing",
        "problems": [], "error": None, "answer": None, "usage": {"calls": 0, "prompt_tokens": 0,
                                                                 "completion_tokens": 0},
        "criteria": criteria,
    }
    reply = None
    for attempt in range(endpoint.retries + 1):
        client = openai.OpenAI(api_key=key, base_url=base_url, timeout=endpoint.timeout, max_retries=0,
                               default_headers={"Accept-Encoding": "identity"})
        result["usage"]["calls"] += 1
        try:
            reply = ask(client, request, endpoint.timeout, where)
            break
        except RequestFailed as exc:
            result["error"] = exc.reason
            if not exc.retry or attempt == endpoint.retries:
                break
            time.sleep(min(8.0, 0.5 * 2**attempt))  # a busy endpoint gets a moment before the next try
        finally:
            client.close()
    if reply is None:
        return result
    result["error"] = None
    result["usage"]["prompt_tokens"] += reply.prompt_tokens
    result["usage"]["completion_tokens"] += reply.completion_tokens
    result["answer"] = reply.content[:KEPT_ANSWER_CHARS]
    scores = read_scores(reply.content)
    result.update(scores=scores.scores, evidence=scores.evidence, complete=scores.complete, read_as=scores.read_as,
                  problems=scores.problems)
    return result


__all__ = ["SYSTEM_PROMPT", "Endpoint", "Scores", "build_messages", "rate", "read_scores"]
