"""A small OpenAI-compatible chat-completions server for the judge tests and benchmark (127.0.0.1, port 0).

It checks every request it receives (method, path, JSON body, model, messages) and answers with a JSON judge
answer. Faults are planned per item (the user message names it): ``server.plan["q3"] = ["429", "ok"]`` answers
the first request for q3 with a 429 and the second normally. Kinds: ``ok``, ``429`` (with Retry-After),
``500``, ``503``, ``slow`` (waits ``slow_seconds``), ``bad_json`` (a 200 whose body is not JSON), ``truncated``
(a body shorter than its Content-Length, then the connection closed), ``refusal``, ``length``,
``content_filter``, ``not_json`` (an answer that is not JSON), ``400``. ``hold_after=N`` answers N requests
and holds the others until ``server.release`` is set.
"""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ANSWER = {"good_question": True, "author_named": False, "function": "CLAIM", "sentence_ok": True,
          "note": "specific finding", "confidence": 0.9}
#: The closed-book answer by default: nothing remembered.
RECALL_NONE = {"title": None, "first_author": None, "year": None, "doi": None}
CLOSED_BOOK_LINE = "chemref closed-book recall, prompt "
_ITEM = re.compile(r"\bitem ([\w.-]*\w)")


def item_of(body: dict[str, Any]) -> str:
    """The item a request is about: ``item NAME`` in its last user message (else the whole message)."""
    content = next((m.get("content", "") for m in reversed(body.get("messages", [])) if m.get("role") == "user"), "")
    match = _ITEM.search(content)
    return match.group(1) if match else content


class JudgeServer:
    """Start with ``with JudgeServer() as server:``; ``server.url`` is ``http://127.0.0.1:PORT/v1``."""

    def __init__(self, *, delay: float = 0.0, slow_seconds: float = 3.0, model: str = "test-model",
                 api_key: str | None = None, hold_after: int | None = None) -> None:
        self.delay, self.slow_seconds, self.model, self.api_key = delay, slow_seconds, model, api_key
        #: after this many answers, hold every other request until ``release`` is set (a run stuck mid-way)
        self.hold_after = hold_after
        self.release = threading.Event()
        self.answered = 0
        self.plan: dict[str, list[str]] = {}
        self.answers: dict[str, dict[str, Any]] = {}
        #: a closed-book request's answer (its system message opens with the closed-book prompt's line), from
        #: its request body
        self.recall: Any = lambda body: RECALL_NONE
        self.problems: list[str] = []
        self.seen: dict[str, int] = {}
        self.requests = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self.connections = 0
        self.lock = threading.Lock()
        self.httpd: ThreadingHTTPServer | None = None

    # ---- what the handler calls
    def check(self, handler: BaseHTTPRequestHandler, raw: bytes) -> dict[str, Any] | None:
        problems = []
        if handler.command != "POST":
            problems.append(f"method {handler.command}")
        if handler.path != "/v1/chat/completions":
            problems.append(f"path {handler.path}")
        if handler.headers.get("Content-Type", "").split(";")[0] != "application/json":
            problems.append(f"content type {handler.headers.get('Content-Type')}")
        if self.api_key is not None and handler.headers.get("Authorization") != f"Bearer {self.api_key}":
            problems.append("no or wrong API key")
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
            problems.append("body is not JSON")
        if isinstance(body, dict):
            if body.get("model") != self.model:
                problems.append(f"model {body.get('model')!r}")
            messages = body.get("messages")
            if not (isinstance(messages, list) and messages and all(
                    isinstance(m, dict) and m.get("role") in ("system", "user", "assistant")
                    and isinstance(m.get("content"), str) for m in messages)):
                problems.append("messages are not a list of {role, content}")
        elif body is not None:
            problems.append("body is not a JSON object")
        if problems:
            with self.lock:
                self.problems.append("; ".join(problems))
            return None
        return body

    def action(self, item: str) -> str:
        with self.lock:
            self.seen[item] = self.seen.get(item, 0) + 1
            steps = self.plan.get(item)
            if steps:
                return steps.pop(0)
            return "ok"

    def completion(self, item: str, kind: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        messages = (body or {}).get("messages") or [{}]
        if str(messages[0].get("content", "")).startswith(CLOSED_BOOK_LINE):
            answer = self.answers.get(item) or self.recall(body)
        else:
            answer = self.answers.get(item, ANSWER)
        content: str | None = json.dumps(answer)
        finish = "stop"
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if kind == "refusal":
            message = {"role": "assistant", "content": None, "refusal": "I can't help with that."}
        elif kind == "length":
            message["content"] = content[:20]
            finish = "length"
        elif kind == "content_filter":
            message["content"] = ""
            finish = "content_filter"
        elif kind == "not_json":
            message["content"] = "This is a good question."
        return {"id": f"chatcmpl-{abs(hash(item)) % 10**8}", "object": "chat.completion", "created": 0, "model": self.model,
                "choices": [{"index": 0, "finish_reason": finish, "message": message}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}}

    # ---- life
    def __enter__(self) -> "JudgeServer":
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive
            disable_nagle_algorithm = True  # headers and body go out at once (no 40 ms delayed-ACK stall)

            def log_message(self, *args: Any) -> None:
                pass

            def setup(self) -> None:
                super().setup()
                with server.lock:
                    server.connections += 1

            def do_GET(self) -> None:
                self._reply(404, b'{"error": {"message": "not found"}}')

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                with server.lock:
                    server.requests += 1
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                try:
                    self._answer(raw)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout): nothing to answer
                finally:
                    with server.lock:
                        server.in_flight -= 1

            def _answer(self, raw: bytes) -> None:
                body = server.check(self, raw)
                if body is None:
                    self._reply(400, b'{"error": {"message": "bad request", "type": "invalid_request_error"}}')
                    return
                item = item_of(body)
                if server.hold_after is not None:
                    with server.lock:
                        held = server.answered >= server.hold_after
                        server.answered += 1
                    if held:
                        server.release.wait(30)
                kind = server.action(item)
                if server.delay:
                    time.sleep(server.delay)
                if kind == "429":
                    self._reply(429, b'{"error": {"message": "rate limited"}}', {"Retry-After": "0"})
                elif kind in ("500", "503"):
                    self._reply(int(kind), b'{"error": {"message": "server error"}}')
                elif kind == "400":
                    self._reply(400, b'{"error": {"message": "bad request"}}')
                elif kind == "bad_json":
                    self._reply(200, b'{"id": "chatcmpl-x", "choices": [')
                elif kind == "truncated":
                    data = json.dumps(server.completion(item, "ok", body)).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data[: len(data) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    self.connection.shutdown(2)
                else:
                    if kind == "slow":
                        time.sleep(server.slow_seconds)
                    data = json.dumps(server.completion(item, kind, body)).encode()
                    self._reply(200, data, {"x-request-id": f"req-{server.requests}"})

            def _reply(self, status: int, data: bytes, headers: dict[str, str] | None = None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

        class Server(ThreadingHTTPServer):
            daemon_threads = True
            request_queue_size = 128

        self.httpd = Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    @property
    def url(self) -> str:
        assert self.httpd is not None
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __exit__(self, *exc: object) -> None:
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()


def write_requests(path: Any, items: list[str], model: str = "test-model") -> None:
    """A Batch input file with one request per item (``item NAME`` in the user message)."""
    with open(path, "w", encoding="utf-8") as handle:
        for item in items:
            handle.write(json.dumps({
                "custom_id": item, "method": "POST", "url": "/v1/chat/completions",
                "body": {"model": model, "temperature": 0, "max_tokens": 300,
                         "response_format": {"type": "json_object"},
                         "messages": [{"role": "system", "content": "chemref question judge, prompt judge-v1"},
                                      {"role": "user", "content": f"Judge item {item}."}]}}) + "\n")
