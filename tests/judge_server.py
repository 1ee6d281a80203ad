"""A small OpenAI-compatible chat-completions server for the judge tests and benchmark (127.0.0.1, port 0).

It checks every request it receives (method, path, JSON body, model, messages) and answers with a JSON judge
answer. Faults are planned per item (the user message names it): ``server.plan["q3"] = ["429", "ok"]`` answers
the first request for q3 with a 429 and the second normally. Kinds: ``ok``, ``429`` (with Retry-After),
``500``, ``503``, ``slow`` (waits ``slow_seconds``), ``bad_json`` (a 200 whose body is not JSON), ``truncated``
(a body shorter than its Content-Length, then the connection closed), ``refusal``, ``length``,
``content_filter``, ``not_json`` (an answer that is not JSON), ``400``, ``401``, ``403``, ``nan`` (a 200 whose
body holds a bare ``NaN``), ``gzip2`` (a body gzipped twice, said by ``Content-Encoding: gzip, gzip``), ``bomb``
and ``deflate_bomb`` (1 MB that inflates to 1 GB), ``deep`` and ``deep401`` (a 200, a 401, whose JSON body
nests 500 deep), ``key_pieces`` (a good answer whose body also holds the ``Authorization`` key it received in
pieces of 6 characters, as a list and as keys of an object), ``key_header`` (a good answer whose
``x-request-id`` header is the key it received, in base32). ``hold_after=N`` answers N requests and holds the others
until ``server.release`` is set. ``echo_auth=True``: every error body (400, 401, 403, 429, 5xx) echoes the
``Authorization`` header it received, raw and JSON-quoted, and so does its ``x-request-id`` header (a hostile or
careless server). ``fallback``: the kinds given in turn to requests whose item has no plan.
"""

from __future__ import annotations

import base64
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
                 api_key: str | None = None, hold_after: int | None = None, echo_auth: bool = False,
                 fallback: list[str] | None = None) -> None:
        self.delay, self.slow_seconds, self.model, self.api_key = delay, slow_seconds, model, api_key
        self.echo_auth = echo_auth
        self.fallback = list(fallback or [])
        self.fallback_used = 0
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
            if self.fallback:
                self.fallback_used += 1
                return self.fallback[(self.fallback_used - 1) % len(self.fallback)]
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
                    self._error(429, "rate limited", {"Retry-After": "0"})
                elif kind in ("500", "503"):
                    self._error(int(kind), "server error")
                elif kind in ("400", "401", "403"):
                    self._error(int(kind), {"400": "bad request", "401": "invalid API key",
                                            "403": "forbidden"}[kind])
                elif kind == "nan":
                    data = json.dumps(server.completion(item, "ok")).encode()
                    self._reply(200, data.replace(b'"created": 0', b'"created": NaN'))
                elif kind in ("gzip2", "bomb", "deflate_bomb"):
                    self._reply(200, *_encoded(kind, json.dumps(server.completion(item, "ok")).encode()))
                elif kind in ("deep", "deep401"):
                    nested = '{"a": ' * 500 + "1" + "}" * 500
                    self._reply(200 if kind == "deep" else 401,
                                (nested if kind == "deep" else f'{{"error": {nested}}}').encode())
                elif kind in ("key_pieces", "key_header"):
                    key = self.headers.get("Authorization", "").removeprefix("Bearer ")
                    data = server.completion(item, "ok", body)
                    if kind == "key_pieces":
                        pieces = [key[i:i + 6] for i in range(0, len(key), 6)]
                        data["pieces"] = pieces
                        data["ids"] = {piece: n for n, piece in enumerate(pieces)}
                        self._reply(200, json.dumps(data).encode())
                    else:
                        self._reply(200, json.dumps(data).encode(),
                                    {"x-request-id": base64.b32encode(key.encode()).decode()})
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

            def _error(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
                if not server.echo_auth:
                    self._reply(status, json.dumps({"error": {"message": message}}).encode(), headers)
                    return
                sent = self.headers.get("Authorization", "")
                body = {"error": {"message": f"{message}; you sent Authorization: {sent}", "type": "echo",
                                  "headers": dict(self.headers.items())}}
                data = json.dumps(body).encode() + b"\n" + f"raw: Authorization: {sent}".encode()
                if status >= 500 or status == 429:  # not JSON at all: the raw text
                    data = f"<html>{message}: your request had Authorization: {sent}</html>".encode()
                self._reply(status, data, {**(headers or {}), "x-request-id": sent.replace("\n", " ")[:200]})

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


#: what the bomb kinds inflate to (bytes of zeros)
BOMB_BYTES = 1 << 30
_BOMBS: dict[str, bytes] = {}


def _encoded(kind: str, data: bytes) -> tuple[bytes, dict[str, str]]:
    """The body and headers of an encoded reply: ``data`` gzipped twice, or a bomb (made once, then kept)."""
    import gzip
    import struct
    import zlib

    if kind == "gzip2":
        return gzip.compress(gzip.compress(data)), {"Content-Encoding": "gzip, gzip"}
    if kind not in _BOMBS:
        # one megabyte of zeros deflated after a full flush gives the same bytes each time: repeated, with the
        # last block and the checksums of the whole, it is a valid stream of BOMB_BYTES made in a second
        packer = zlib.compressobj(9, zlib.DEFLATED, -15)
        block = bytes(1 << 20)
        piece = packer.compress(block) + packer.flush(zlib.Z_FULL_FLUSH)
        raw = piece * (BOMB_BYTES >> 20) + packer.flush()
        crc, adler = 0, 1
        for _ in range(BOMB_BYTES >> 20):
            crc, adler = zlib.crc32(block, crc), zlib.adler32(block, adler)
        if kind == "bomb":
            _BOMBS[kind] = (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff" + raw
                            + struct.pack("<II", crc, BOMB_BYTES & 0xFFFFFFFF))
        else:
            _BOMBS[kind] = b"\x78\xda" + raw + struct.pack(">I", adler)
    return _BOMBS[kind], {"Content-Encoding": "gzip" if kind == "bomb" else "deflate"}


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
