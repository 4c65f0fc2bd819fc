"""A small OpenAI-compatible chat completions server on loopback, for tests of the ``openai:`` agent.

It answers like a model would, from the prompt text alone: it reads the Figure 5 observation (task, inventory,
found things, numbered candidates) and answers the greedy rule's choice as "ACTION: <number>" after a line of
reasoning. Modes: ``greedy``, ``nonsense`` (answers prose naming no action), ``chatty`` (the greedy choice's
number first, then an echo of the prompt with other numbers, as small models answer), and a required key (401
otherwise). ``answer`` (a function of the request body) answers instead of the mode, e.g. as a vision rater.
``HostileServer`` misbehaves the ways real endpoints do.
"""

from __future__ import annotations

import ast
import json
import re
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from conftest import HANG_GUARD
from taskverse.algebra.semantics import Evaluator
from taskverse.algebra.tracker import Context, GoalTracker
from taskverse.textenv.env import resolve_target, shared_library
from taskverse.world.rules import Rules
from taskverse.world.search import Planner, greedy_choice


def greedy_answer(prompt: str) -> str:
    library = shared_library()
    rules = Rules.for_library(library)
    task = re.search(r"^Task: (.*)\.$", prompt, re.M).group(1)
    inventory = ast.literal_eval(re.search(r"^Inventory: (.*)$", prompt, re.M).group(1))
    found_line = re.search(r"^Found: (.*)$", prompt, re.M)
    found = re.findall(r"(\S+) \((\w+)\)", found_line.group(1)) if found_line else []
    candidates = dict(re.findall(r"(\d+): ([^;\n]+)", prompt.split("Candidate Actions:\n", 1)[1].split("\n")[0]))
    target = resolve_target(task, library)
    planner = Planner(rules, GoalTracker(target.expression, Evaluator.for_library(library), Context()), {})
    state = {rules.index[("item", n)]: c for n, c in inventory.items()}
    state.update({rules.index[(kind, name)]: 1 for name, kind in found})
    state[rules.index[("dimension", "overworld")]] = 1
    choice = greedy_choice(planner, planner.normalize(state), planner.tracker.initial())
    by_name = {name.strip(): number for number, name in candidates.items()}
    number = by_name.get(rules.descriptions[choice], "0") if choice is not None else "0"
    return f"The cheapest way forward is {rules.descriptions[choice] if choice is not None else 'unclear'}.\n" \
           f"ACTION: {number}"


class Server:
    """Serve on 127.0.0.1 (an ephemeral port) until ``close``; at most ``limit`` requests."""

    def __init__(self, mode: str = "greedy", key: str | None = None, limit: int = 2000, gate: int = 0,
                 answer: Callable[[dict[str, Any]], str] | None = None) -> None:
        self.mode, self.key, self.limit, self.requests, self.answer = mode, key, limit, 0, answer
        self.bodies: list[dict[str, Any]] = []  # every request's body, as sent
        # with a gate of N, no answer goes out before N requests are in flight at once (then all pass)
        self.gate = threading.Barrier(gate) if gate else None
        self.opened = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                server.requests += 1
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.bodies.append(body)
                if server.gate is not None and not server.opened.is_set():
                    server.gate.wait(HANG_GUARD)
                    server.opened.set()
                if server.requests > server.limit:
                    return self._send(429, {"error": {"message": "too many requests"}})
                if server.key is not None and self.headers.get("Authorization") != f"Bearer {server.key}":
                    return self._send(401, {"error": {"message": "invalid api key", "type": "invalid_request_error"}})
                if not self.path.endswith("/chat/completions"):
                    return self._send(404, {"error": {"message": "no such route"}})
                prompt = body["messages"][-1]["content"]
                if server.answer is not None:
                    content = server.answer(body)
                elif server.mode == "greedy":
                    content = greedy_answer(prompt)
                elif server.mode == "chatty":
                    content = greedy_answer(prompt).rsplit("ACTION: ", 1)[1] + "\nActions taken so far: 0, no action."
                else:
                    content = "I like turtles."
                self._send(200, {
                    "id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": body["model"],
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": content}}],
                    "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": len(content) // 4,
                              "total_tokens": (len(prompt) + len(content)) // 4},
                })

            def _send(self, status: int, data: Any) -> None:
                raw = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _completion(content: Any, usage: Any = None) -> dict[str, Any]:
    return {"id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
            "usage": usage if usage is not None else {"prompt_tokens": 5, "completion_tokens": 1}}


HOSTILE_BODIES: dict[str, bytes] = {
    "not_utf8": b'{"choices": [{"message": {"content": "\xff\xfe ACTION: 0"}}]}',
    "not_json": b"<html>502 Bad Gateway</html>",
    "choices_string": json.dumps({"choices": "ACTION: 0"}).encode(),
    "choices_empty": json.dumps({"choices": []}).encode(),
    "null_message": json.dumps({"choices": [{"message": None}]}).encode(),
    "integer_content": json.dumps(_completion(7)).encode(),
    "list_body": b"[1, 2, 3]",
    "deep": b"[" * 100_000 + b"]" * 100_000,
    "deep_content": b'{"choices": [{"message": {"content": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}]}",
}
"""Answers (status 200) that are not a usable chat completion: each must waste the step, never end the run."""

ODD_USAGE: dict[str, bytes] = {
    "string_usage": json.dumps(_completion("ACTION: 0", {"prompt_tokens": "many", "completion_tokens": []})).encode(),
    "infinite_usage": json.dumps(_completion("ACTION: 0", {"prompt_tokens": float("inf"),
                                                           "completion_tokens": float("nan")})).encode(),
    "huge_usage": json.dumps(_completion("ACTION: 0", {"prompt_tokens": 10**400, "completion_tokens": -3})).encode(),
    "usage_string": json.dumps(_completion("ACTION: 0", "lots")).encode(),
}
"""Usable answers whose token counts are not numbers: the answer counts, the counts are left out."""


class HostileServer:
    """An OpenAI-compatible endpoint on loopback that misbehaves one way (``kind``) on every request.

    Kinds: a key of ``HOSTILE_BODIES`` or ``ODD_USAGE``; ``huge`` (a 300 MB answer, written as long as the client
    reads); ``endless`` (an answer that never ends); ``drip`` (headers, then one byte every 0.2 s for ever);
    ``drip_headers`` (the status line and headers one byte every 0.2 s); ``silent`` (reads the request, never
    answers); ``status_500`` / ``status_429`` (errors worth a retry). ``requests`` counts what came in;
    ``stop`` ends every answer still being written.
    """

    def __init__(self, kind: str) -> None:
        self.kind, self.requests = kind, 0
        self.stop = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                server.requests += 1
                self.rfile.read(int(self.headers["Content-Length"]))
                try:
                    server._answer(self)
                except OSError:  # the client hung up: what a bounded reader does
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def _answer(self, handler: BaseHTTPRequestHandler) -> None:
        kind, out = self.kind, handler.wfile
        body = HOSTILE_BODIES.get(kind) or ODD_USAGE.get(kind)
        if body is not None or kind.startswith("status_"):
            status = int(kind[7:]) if kind.startswith("status_") else 200
            body = body or json.dumps({"error": {"message": "busy"}}).encode()
            handler.send_response(status)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            out.write(body)
            return
        if kind == "silent":
            self.stop.wait()
            return
        if kind == "drip_headers":
            for byte in b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10\r\n":
                if self.stop.wait(0.2):
                    return
                out.write(bytes([byte]))
                out.flush()
            self.stop.wait()
            return
        size = 300 * 1024 * 1024 if kind == "huge" else 10**15
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(size))
        handler.end_headers()
        head = b'{"choices": [{"message": {"content": "'
        out.write(head)
        written = len(head)
        if kind == "drip":
            while not self.stop.wait(0.2):
                out.write(b"A")
                out.flush()
            return
        chunk = b"A" * (1024 * 1024)
        while written + len(chunk) < size and not self.stop.is_set():
            out.write(chunk)
            written += len(chunk)

    def close(self) -> None:
        self.stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()
