"""One chat request to an OpenAI-compatible endpoint, bounded in size and time, its answer read as untrusted data.

The official ``openai`` client builds the request (headers, key, routes, status errors); the body comes back as a
stream that is read in pieces up to ``MAX_RESPONSE_BYTES`` and up to a deadline, in a thread the caller stops
waiting for at the deadline (so an endpoint that drips one byte a second, or never finishes its headers, costs
``answer_timeout`` and no more). The bytes are then checked as JSON of the chat completions shape, field by field:
anything else (not UTF-8, nested too deeply, ``choices`` that is not a list, a ``null`` message, content that is
not text) is a ``RequestFailed`` naming what was wrong. Token counts that are not whole numbers are left out.

``RequestFailed`` says whether trying again may help (``retry``: timeouts, lost connections, 408, 409, 429 and
5xx answers) and whether the endpoint cannot serve this agent at all (``fatal``: a refused key, an unknown model).
"""

from __future__ import annotations

import json
import math
import threading
import time
from dataclasses import dataclass
from typing import Any

MAX_RESPONSE_BYTES = 4 * 1024 * 1024
"""The largest response body read from an endpoint (a long chain of thought is a few hundred KB)."""
MAX_TOKENS_COUNTED = 10**12
"""Token counts above this are not believed (and not added up)."""
GRACE_SECONDS = 1.0
"""How long past the deadline the caller waits for the request's own deadline check before giving up on it."""


class RequestFailed(Exception):
    """A request that gave no usable answer: ``reason`` in words, whether to ``retry``, whether it is ``fatal``."""

    def __init__(self, reason: str, retry: bool = False, fatal: bool = False) -> None:
        super().__init__(reason)
        self.reason, self.retry, self.fatal = reason, retry, fatal


@dataclass(frozen=True)
class Reply:
    """A checked answer: its text, the endpoint's separate reasoning if any, and the tokens it reports."""

    content: str
    thinking: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0


def read_reply(raw: bytes) -> Reply:
    """The answer in a chat completions response body; raises ``RequestFailed`` saying what is wrong with it.

    Example:
        >>> read_reply(b'{"choices": [{"message": {"content": "ACTION: 1"}}], "usage": {"prompt_tokens": 9}}')
        Reply(content='ACTION: 1', thinking=None, prompt_tokens=9, completion_tokens=0)
        >>> try:
        ...     read_reply(b'{"choices": "x"}')
        ... except RequestFailed as exc:
        ...     print(exc.reason)
        the response's choices is a string, not a list

    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RequestFailed(f"the response is not UTF-8 text (byte {exc.start} of {len(raw)})") from None
    try:
        data = json.loads(text, parse_constant=lambda name: None)  # Infinity and NaN read as missing
    except RecursionError:
        raise RequestFailed("the response is JSON nested too deeply") from None
    except ValueError as exc:
        raise RequestFailed(f"the response is not JSON ({str(exc).splitlines()[0][:120]}): "
                            f"{text[:60]!r}") from None
    if not isinstance(data, dict):
        raise RequestFailed(f"the response is {_kind(data)}, not a JSON object")
    if "error" in data and "choices" not in data:
        error = data["error"]
        message = error.get("message") if isinstance(error, dict) else error
        raise RequestFailed(f"the endpoint answered with an error: {str(message)[:200]}")
    choices = data.get("choices")
    if not isinstance(choices, list):
        raise RequestFailed(f"the response's choices is {_kind(choices)}, not a list")
    if not choices:
        raise RequestFailed("the response has no choices")
    choice = choices[0]
    if not isinstance(choice, dict):
        raise RequestFailed(f"the response's first choice is {_kind(choice)}, not an object")
    message = choice.get("message")
    if not isinstance(message, dict):
        raise RequestFailed(f"the response's message is {_kind(message)}, not an object")
    content = message.get("content")
    if content is None:
        content = ""
    if not isinstance(content, str):
        raise RequestFailed(f"the response's content is {_kind(content)}, not text")
    thinking = message.get("reasoning_content", message.get("reasoning"))
    usage = data.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    return Reply(content, thinking if isinstance(thinking, str) and thinking else None,
                 _count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens")))


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0
    if isinstance(value, float) and (not math.isfinite(value) or not value.is_integer()):
        return 0
    return int(value) if 0 <= value <= MAX_TOKENS_COUNTED else 0


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {str: "a string", int: "a number", float: "a number", bool: "a boolean", list: "a list",
            dict: "an object"}.get(type(value), type(value).__name__)


def fetch(client: Any, request: dict[str, Any], deadline: float, where: str, timeout: float,
          limit: int = MAX_RESPONSE_BYTES) -> Reply:
    """Send one chat request with ``client`` (an ``openai.OpenAI``) and read its answer within the bounds.

    Runs where it is called; ``ask`` runs it in a thread so that the caller's wait is bounded too.
    """
    import openai

    try:
        with client.chat.completions.with_streaming_response.create(**request) as response:
            chunks: list[bytes] = []
            total = 0
            for chunk in response.iter_bytes():
                total += len(chunk)
                if total > limit:
                    raise RequestFailed(f"the answer is larger than {limit:,} bytes")
                if time.monotonic() > deadline:
                    raise RequestFailed(f"no whole answer from {where} within {timeout:g} s", retry=True)
                chunks.append(chunk)
    except RequestFailed:
        raise
    except openai.APITimeoutError:
        raise RequestFailed(f"no answer from {where} within {timeout:g} s", retry=True) from None
    except openai.APIConnectionError as exc:
        raise RequestFailed(f"cannot reach {where}: {_cause(exc)}", retry=True) from None
    except openai.AuthenticationError:
        raise RequestFailed(f"{where} refused the API key (401); set OPENAI_API_KEY or --api-key",
                            fatal=True) from None
    except openai.PermissionDeniedError as exc:
        raise RequestFailed(f"{where} refused the request (403: {_message(exc)})", fatal=True) from None
    except openai.NotFoundError as exc:
        raise RequestFailed(f"{where} does not serve model {request.get('model')!r} (404: {_message(exc)})",
                            fatal=True) from None
    except openai.APIStatusError as exc:
        status = exc.status_code
        raise RequestFailed(f"{where} answered {status}: {_message(exc)}",
                            retry=status in (408, 409, 429) or status >= 500) from None
    except Exception as exc:  # noqa: BLE001 - whatever the transport raises mid-body is the endpoint's failure
        raise RequestFailed(f"the connection to {where} failed: {type(exc).__name__}: "
                            f"{(str(exc).splitlines() or [''])[0][:200]}", retry=True) from None
    return read_reply(b"".join(chunks))


def ask(client: Any, request: dict[str, Any], timeout: float, where: str,
        limit: int = MAX_RESPONSE_BYTES) -> Reply:
    """``fetch`` in a thread, waited for at most ``timeout`` (and a grace second); raises ``RequestFailed``.

    A request given up on is left to its thread, which ends at the connection's next byte or read timeout; the
    caller should close ``client`` (its connections) and use a new one.
    """
    deadline = time.monotonic() + timeout
    box: list[Reply | RequestFailed] = []
    done = threading.Event()

    def work() -> None:
        try:
            box.append(fetch(client, request, deadline, where, timeout, limit))
        except RequestFailed as exc:
            box.append(exc)
        except BaseException as exc:  # noqa: BLE001 - reported to the caller, never lost in a thread
            box.append(RequestFailed(f"{type(exc).__name__}: {(str(exc).splitlines() or [''])[0][:200]}"))
        finally:
            done.set()

    threading.Thread(target=work, daemon=True, name="taskverse-endpoint").start()
    if not done.wait(timeout + GRACE_SECONDS):
        raise RequestFailed(f"no whole answer from {where} within {timeout:g} s", retry=True)
    result = box[0]
    if isinstance(result, RequestFailed):
        raise result
    return result


def _message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])[:300]
    return (str(getattr(exc, "message", exc)).splitlines() or [""])[0][:300]


def _cause(exc: BaseException) -> str:
    cause: BaseException | None = exc
    while cause is not None and cause.__cause__ is not None:
        cause = cause.__cause__
    return (str(cause).splitlines() or [""])[0][:300] if cause is not exc else "connection error"


__all__ = ["MAX_RESPONSE_BYTES", "Reply", "RequestFailed", "ask", "fetch", "read_reply"]
