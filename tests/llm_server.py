"""A small OpenAI-compatible chat completions server on loopback, for tests of the ``openai:`` agent.

It answers like a model would, from the prompt text alone: it reads the Figure 5 observation (task, inventory,
found things, numbered candidates) and answers the greedy rule's choice as "ACTION: <number>" after a line of
reasoning. Modes: ``greedy``, ``nonsense`` (answers prose naming no action), and a required key (401 otherwise).
"""

from __future__ import annotations

import ast
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

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

    def __init__(self, mode: str = "greedy", key: str | None = None, limit: int = 2000) -> None:
        self.mode, self.key, self.limit, self.requests = mode, key, limit, 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                server.requests += 1
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if server.requests > server.limit:
                    return self._send(429, {"error": {"message": "too many requests"}})
                if server.key is not None and self.headers.get("Authorization") != f"Bearer {server.key}":
                    return self._send(401, {"error": {"message": "invalid api key", "type": "invalid_request_error"}})
                if not self.path.endswith("/chat/completions"):
                    return self._send(404, {"error": {"message": "no such route"}})
                prompt = body["messages"][-1]["content"]
                content = greedy_answer(prompt) if server.mode == "greedy" else "I like turtles."
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
