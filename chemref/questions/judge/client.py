"""``chemref questions judge run``: send Batch-format requests to an OpenAI-compatible server.

The requests file is in the OpenAI Batch input format (one ``{custom_id, method, url, body}`` per line); the
answers are written in the Batch output format, one line per request, appended and flushed as each answer
arrives, so a run that is killed loses only the requests in flight. Running the same command again resumes:
ids already answered are skipped, error lines are dropped and their requests sent again, and a last line torn
by the kill is cut off.

This is chemref's only network use, and only to the endpoint given: one ``httpx.AsyncClient`` (HTTP
keep-alive, at most ``concurrency`` connections), no proxy, ``.netrc`` or other settings taken from the
environment. The API key is read from an environment variable, checked (one line of printable ASCII), sent as
``Authorization: Bearer`` and never written anywhere: every server body, exception text and URL that reaches the
output or a message goes through :mod:`chemref._io.secrets` first, and a body that is not an answer is stored only
as a bounded, scrubbed excerpt. A body is read as sent: a ``Content-Encoding`` other than ``identity`` is refused
(an error line), never inflated. httpx is the optional extra ``chemref[judge]``, imported only when requests are sent.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import time
import uuid
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from chemref._io import RunLock, atomic_write, check_output
from chemref._io.secrets import (
    EXCERPT_CHARS,
    MAX_KEY_CHARS,
    check_api_key,
    excerpt,
    finite_json,
    safe_url,
    scrub,
    scrub_json,
)
from chemref._version import __version__
from chemref.errors import InputError
from chemref.jsonl import json_line, json_text, read_jsonl
from chemref.progress import Progress
from chemref.questions.judge.answers import check_model_name

__all__ = ["Request", "RunSummary", "FAILURE_KINDS", "read_requests", "request_url", "run_requests",
           "answered_ids", "INSTALL_HINT"]

INSTALL_HINT = "pip install 'chemref[judge]'"
#: How a request can fail, in the order the summary lists them.
FAILURE_KINDS = ("timeout", "connection", "http_429", "http_5xx", "invalid_json", "http_4xx")
#: The longest wait between two tries (seconds), whatever ``Retry-After`` or the backoff say.
MAX_WAIT = 600.0
#: The longest ``Retry-After`` obeyed (seconds, as the OpenAI Python client): a longer one is not waited for (the
#: backoff is used instead, and the request fails after its retries, to be sent again by the next run).
MAX_RETRY_AFTER = 60.0
#: The largest response body read (bytes): an answer of a few hundred tokens takes a few kB.
MAX_RESPONSE_BYTES = 8 * 1024 * 1024
#: the most bytes of a refused request's body (any status but 200) that are read: enough for its stored excerpt
ERROR_BODY_BYTES = 4 * (EXCERPT_CHARS + MAX_KEY_CHARS)
_REQUEST_KEYS = ("custom_id", "method", "url", "body")
#: the longest request ``url`` taken (characters): a Batch path is a few dozen
MAX_URL_CHARS = 1000
#: a request ``url``: a path of the characters RFC 3986 allows in one, a query allowed (no white space, no
#: control character, nothing httpx would refuse after the run has begun)
_URL_PATH = re.compile(r"/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*)?")
_REQUEST_HINT = "expected one JSON object per line with custom_id, method, url and body (the OpenAI Batch input " \
                "format, as 'chemref questions judge prepare' writes)"


@dataclass(frozen=True, slots=True)
class Request:
    """One line of a requests file: ``body`` is sent as JSON with POST to the endpoint plus ``url``."""

    custom_id: str
    url: str
    body: Mapping[str, Any]
    line: int = 0


@dataclass(frozen=True, slots=True)
class RunSummary:
    """What one ``judge run`` did: ``already`` requests were answered by an earlier run and skipped;
    ``failed`` counts, per kind of failure (:data:`FAILURE_KINDS`), the requests that still failed after
    the retries (each has an error line in the output)."""

    requests: int
    already: int
    sent: int
    answered: int
    failed: Mapping[str, int] = field(default_factory=dict)
    retries: int = 0
    seconds: float = 0.0
    max_in_flight: int = 0
    output: str = ""

    @property
    def failures(self) -> int:
        return sum(self.failed.values())

    def to_dict(self) -> dict[str, Any]:
        return {"requests": self.requests, "already": self.already, "sent": self.sent, "answered": self.answered,
                "failed": dict(self.failed), "retries": self.retries, "seconds": self.seconds,
                "max_in_flight": self.max_in_flight, "output": self.output}

    def to_text(self) -> str:
        failed = f"{self.failures} failed"
        if self.failures:
            failed += " (" + ", ".join(f"{kind} {n}" for kind, n in self.failed.items() if n) + ")"
        return (f"judge run: {self.requests} requests, {self.already} already answered, {self.sent} sent: "
                f"{self.answered} answered, {failed}; {self.retries} retries; {self.seconds:.1f} s; "
                f"at most {self.max_in_flight} in flight")


def request_url(endpoint: str, path: str) -> str:
    """``endpoint`` + the request's ``path``; an endpoint ending in ``/v1`` (``http://host:8000/v1``, as the
    OpenAI clients take it) is accepted as well as one without (``http://host:8000``)."""
    base = safe_url(endpoint).rstrip("/")
    if base.endswith("/v1") and (path == "/v1" or path.startswith("/v1/")):
        base = base[:-3]
    return base + path



def _check_request(row: Mapping[str, Any], path: str, line: int) -> Request:
    def bad(message: str) -> InputError:
        return InputError(message, path=path, line=line, hint=_REQUEST_HINT)

    missing = [key for key in _REQUEST_KEYS if key not in row]
    if missing:
        raise bad(f"missing {', '.join(missing)}")
    ident, method, url, body = (row[key] for key in _REQUEST_KEYS)
    if not isinstance(ident, str) or not ident:
        raise bad(f"custom_id must be a non-empty string, got {ident!r}")
    if method != "POST":
        raise bad(f"method must be \"POST\", got {method!r}")
    if (not isinstance(url, str) or len(url) > MAX_URL_CHARS or not _URL_PATH.fullmatch(url)
            or "://" in url):
        shown = repr(url) if not isinstance(url, str) or len(url) <= 60 else \
            f"{url[:60]!r} ... ({len(url):,} characters)"
        raise bad(f"url must be a path such as \"/v1/chat/completions\" (at most {MAX_URL_CHARS} characters of "
                  f"those a URL path holds: no white space or control character), got {shown}")
    if not isinstance(body, dict):
        raise bad(f"body must be a JSON object, got {type(body).__name__}")
    if "model" in body:
        if not isinstance(body["model"], str):
            raise bad(f"body.model must be a string, got {type(body['model']).__name__}")
        check_model_name(body["model"], path=path, line=line, what="body.model")
    return Request(ident, url, body, line)


def read_requests(path: str | os.PathLike[str]) -> list[Request]:
    """The requests of a Batch input file, checked (the four keys, POST, a path, an object body; each
    ``custom_id`` once); a bad line is an :class:`InputError` naming the file and the line."""
    where = os.fspath(path)
    requests: list[Request] = []
    first: dict[str, int] = {}
    for number, row in read_jsonl(where, unique=True):
        request = _check_request(row, where, number)
        if request.custom_id in first:
            raise InputError(f"custom_id {request.custom_id!r} is requested twice (first on line "
                             f"{first[request.custom_id]})", path=where, line=number,
                             hint="give each request its own custom_id")
        first[request.custom_id] = number
        requests.append(request)
    return requests


#: the keys of a Batch output line, exactly
_OUTPUT_KEYS = frozenset(("id", "custom_id", "response", "error"))


def _is_output_line(row: Mapping[str, Any]) -> bool:
    """A line ``judge run`` (or a hosted batch) could have written: exactly the four keys, a response object with
    an integer status or none, an error object or none."""
    response, error = row.get("response"), row.get("error")
    return (set(row) == _OUTPUT_KEYS and (error is None or isinstance(error, dict))
            and (response is None or (isinstance(response, dict) and isinstance(response.get("status_code"), int)
                                      and not isinstance(response.get("status_code"), bool)))
            and (response is not None or error is not None))


def _is_answer(row: Mapping[str, Any]) -> bool:
    """A Batch output line that holds an answer (not an error line, which the next run retries)."""
    response = row.get("response")
    return row.get("error") is None and isinstance(response, dict) and response.get("status_code") == 200


def answered_ids(output: str | os.PathLike[str], requested: Iterable[str]) -> set[str]:
    """The ids ``output`` (a Batch output file of an earlier run) already answers, for a resumed run.

    The file is made ready for appending: a last line torn by a kill (no line end) is cut off unless it is a
    whole answer, and error lines are dropped (their requests are sent again). Another damaged line, an answer
    to an id that is not in ``requested``, or an id answered twice is an :class:`InputError`."""
    target = Path(output)
    if not target.exists():
        return set()
    where = os.fspath(output)
    wanted = set(requested)
    hint = "this is not the output of 'judge run' for these requests: write to another file (-o)"
    done: dict[str, int] = {}
    drop: set[int] = set()
    torn = False
    with open(target, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            last = not raw.endswith(b"\n")
            if not raw.strip():
                continue
            try:
                row = json.loads(raw)
                if not isinstance(row, dict):
                    raise ValueError
            except (ValueError, RecursionError):
                if last:  # torn by a kill while it was written: its request is sent again
                    drop.add(number)
                    continue
                raise InputError("not a JSON object (the Batch output format)", path=where, line=number,
                                 hint=hint) from None
            torn = torn or last
            ident = row.get("custom_id")
            if not isinstance(ident, str):
                raise InputError("no custom_id", path=where, line=number, hint=hint)
            if ident not in wanted:
                raise InputError(f"answers custom_id {ident!r}, which is not in the requests file", path=where,
                                 line=number, hint=hint)
            if not _is_output_line(row):  # someone else's line: never dropped, even with a requested id
                raise InputError("not a line of the Batch output format (exactly id, custom_id, response and error)",
                                 path=where, line=number, hint=hint)
            if not _is_answer(row):
                drop.add(number)
                continue
            if ident in done:
                raise InputError(f"custom_id {ident!r} is answered twice (first on line {done[ident]})",
                                 path=where, line=number, hint="keep one answer per id")
            done[ident] = number
    if drop or torn:
        with open(target, "rb") as handle, atomic_write(target, "wb") as out:
            for number, raw in enumerate(handle, start=1):
                if number not in drop and raw.strip():
                    out.write(raw if raw.endswith(b"\n") else raw + b"\n")
    return set(done)


def _retry_after(value: str | None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (seconds or an HTTP date), None when absent or bad."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - time.time())


#: doublings of the first wait counted (``2.0 ** 1024`` overflows; any wait is capped at :data:`MAX_WAIT` anyway)
_MAX_DOUBLINGS = 1000


def backoff(attempt: int, first_wait: float, retry_after: float | None = None,
            rand: Callable[[float, float], float] = random.uniform) -> float:
    """The wait before try ``attempt + 1``: exponential (``first_wait * 2**attempt``) with full jitter, at least
    ``Retry-After`` when the server gave one of at most :data:`MAX_RETRY_AFTER` (a longer one is not obeyed),
    never more than :data:`MAX_WAIT`."""
    wait = rand(0.5, 1.0) * first_wait * (2.0 ** min(attempt, _MAX_DOUBLINGS))
    if retry_after is not None and retry_after <= MAX_RETRY_AFTER:
        wait = max(wait, retry_after)
    return min(wait, MAX_WAIT)


class _Reply:
    """A response read whole, at most :data:`MAX_RESPONSE_BYTES` of body: the status, the headers, the bytes."""

    def __init__(self, status_code: int, headers: Any, content: bytes) -> None:
        self.status_code, self.headers, self.content = status_code, headers, content


class _TooLarge(Exception):
    """A response body over :data:`MAX_RESPONSE_BYTES` (not read further)."""


class _Encoded(Exception):
    """A response whose body is encoded (gzip, deflate, ...) although ``identity`` was asked for: not read."""


def _error_body(response: _Reply) -> dict[str, Any]:
    """The body of a refused request as it is stored: the server's JSON object with every string scrubbed when
    it is short, else ``{"error": {"message": <scrubbed excerpt>}}``."""
    try:
        body = finite_json(response.content)
    except (ValueError, UnicodeDecodeError, RecursionError):
        body = None
    if isinstance(body, dict):
        body = scrub_json(body)
        if len(json_text(body)) <= EXCERPT_CHARS:  # a longer one is kept as an excerpt
            return body
    return {"error": {"message": excerpt(response.content)}}


def _answer_body(content: bytes) -> tuple[dict[str, Any] | None, str]:
    """The body of an answer as it is stored (:func:`scrub_json`), or None and why it cannot be read."""
    try:
        body = finite_json(content)
        if not isinstance(body, dict):
            raise ValueError("not a JSON object")
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        return None, excerpt(str(exc), 200)
    return scrub_json(body), ""


@dataclass
class _Counters:
    answered: int = 0
    retries: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    failed: dict[str, int] = field(default_factory=lambda: {kind: 0 for kind in FAILURE_KINDS})


def _line(custom_id: str, *, response: dict[str, Any] | None = None,
          error: dict[str, str] | None = None) -> dict[str, Any]:
    return {"id": f"batch_req_{uuid.uuid4().hex}", "custom_id": custom_id, "response": response, "error": error}


class _Sender:
    """Sends requests with one client and turns each into its Batch output line (after the retries)."""

    def __init__(self, client: Any, endpoint: str, *, timeout: float, max_retries: int, first_wait: float,
                 counters: _Counters) -> None:
        self.client, self.endpoint, self.timeout = client, endpoint, timeout
        self.max_retries, self.first_wait, self.counters = max_retries, first_wait, counters

    async def _post(self, url: str, content: bytes) -> Any:
        c = self.counters
        c.in_flight += 1
        c.max_in_flight = max(c.max_in_flight, c.in_flight)
        try:
            # the whole exchange within the timeout (httpx's own timeouts are per read, so a server that
            # sends a byte a second would never time out)
            return await asyncio.wait_for(self._exchange(url, content), self.timeout)
        finally:
            c.in_flight -= 1

    async def _exchange(self, url: str, content: bytes) -> _Reply:
        """POST ``content``; the reply, its body read as sent up to :data:`MAX_RESPONSE_BYTES` (:class:`_TooLarge`
        past it: an endless body never fills the memory; :class:`_Encoded` for a compressed body, not read)."""
        async with self.client.stream("POST", url, content=content) as response:
            encoding = response.headers.get("content-encoding", "").strip().lower()
            if encoding not in ("", "identity"):
                raise _Encoded(encoding)
            # a refusal is stored only as an excerpt: its body is read no further than the excerpt needs
            limit = MAX_RESPONSE_BYTES if response.status_code == 200 else ERROR_BODY_BYTES
            body = bytearray()
            async for chunk in response.aiter_raw():  # the bytes as sent: httpx decodes nothing
                body += chunk
                if len(body) > limit:
                    if response.status_code != 200:
                        del body[limit:]
                        break
                    # freed now: the exception's traceback holds this frame until the cycle collector runs
                    body.clear()
                    raise _TooLarge
            return _Reply(response.status_code, response.headers, bytes(body))

    async def send(self, request: Request) -> tuple[dict[str, Any], str | None]:
        """The output line for ``request`` and its failure kind (None when answered)."""
        import httpx

        url = request_url(self.endpoint, request.url)
        content = json.dumps(request.body, ensure_ascii=False).encode("utf-8")
        kind, message = "connection", ""
        tries = self.max_retries + 1
        for attempt in range(tries):
            retry_after = None
            try:
                response = await self._post(url, content)
            except (asyncio.TimeoutError, httpx.TimeoutException):
                kind, message = "timeout", f"no complete answer within {self.timeout:g} s"
            except _TooLarge:
                kind, message = "invalid_json", (f"{url}: a response body larger than "
                                                 f"{MAX_RESPONSE_BYTES >> 20} MB, not read further")
            except _Encoded as exc:
                kind, message = "invalid_json", (f"a response body with Content-Encoding {excerpt(str(exc), 60)!r}, "
                                                 "not read (chemref asks for identity: an encoded body could "
                                                 "inflate far past the size limit)")
            except httpx.RequestError as exc:  # refused, reset, a body cut short
                kind, message = "connection", f"{type(exc).__name__}: {excerpt(str(exc), 300)}".rstrip(": ")
            except httpx.InvalidURL as exc:  # a URL httpx will not send: every try would be refused the same way
                note = f"InvalidURL: {excerpt(str(exc), 300)} (not sent)"
                return _line(request.custom_id, error={"code": "connection", "message": scrub(note)}), "connection"
            else:
                status = response.status_code
                request_id = excerpt(response.headers.get("x-request-id") or "", 200) or f"req_{uuid.uuid4().hex}"
                if status == 200:
                    # parsed and scrubbed in a worker thread: a large body never stalls the other exchanges
                    body, problem = await asyncio.to_thread(_answer_body, response.content)
                    if body is not None:
                        return _line(request.custom_id, response={"status_code": 200, "request_id": request_id,
                                                                   "body": body}), None
                    kind, message = "invalid_json", (f"HTTP 200 with a body that is not a JSON object "
                                                     f"({problem}): {excerpt(response.content, 300)}")
                elif status == 429 or status >= 500:
                    kind = "http_429" if status == 429 else "http_5xx"
                    message = f"HTTP {status}: {excerpt(response.content, 300)}".rstrip(": ")
                    retry_after = _retry_after(response.headers.get("retry-after"))
                else:  # the request itself is refused (400, 401, 404, ...): trying again gives the same
                    refused = await asyncio.to_thread(_error_body, response)
                    return _line(request.custom_id, response={"status_code": status, "request_id": request_id,
                                                               "body": refused}), "http_4xx"
            if attempt + 1 < tries:
                self.counters.retries += 1
                await asyncio.sleep(backoff(attempt, self.first_wait, retry_after))
        note = f"{message} (after {tries} tr{'ies' if tries > 1 else 'y'})"
        return _line(request.custom_id, error={"code": kind, "message": scrub(note)}), kind


async def _run(todo: list[Request], handle: Any, *, endpoint: str, api_key: str | None, concurrency: int,
               timeout: float, max_retries: int, first_wait: float, counters: _Counters, bar: Any) -> None:
    import httpx


    # identity: a body is read as sent (a compressed one could unpack far past the size limit in one chunk)
    headers = {"Content-Type": "application/json", "Accept": "application/json", "Accept-Encoding": "identity",
               "User-Agent": f"chemref/{__version__}"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    # trust_env=False: no proxy, .netrc or certificate settings from the environment: only the endpoint given
    async with httpx.AsyncClient(headers=headers, limits=limits, timeout=httpx.Timeout(timeout, pool=None),
                                 trust_env=False, follow_redirects=False) as client:
        sender = _Sender(client, endpoint, timeout=timeout, max_retries=max_retries, first_wait=first_wait,
                         counters=counters)
        pending = iter(todo)

        async def worker() -> None:
            for request in pending:  # one shared iterator: each request goes to one worker
                row, kind = await sender.send(request)
                handle.write(json_line(row))
                handle.flush()  # in the file (the kernel's) before the next answer: a kill loses nothing written
                if kind is None:
                    counters.answered += 1
                else:
                    counters.failed[kind] += 1
                bar.update(1, 0 if kind is None else 1)

        await asyncio.gather(*(worker() for _ in range(min(concurrency, len(todo)))))


def run_requests(requests: str | os.PathLike[str] | list[Request], output: str | os.PathLike[str], *,
                 endpoint: str, api_key: str | None = None, concurrency: int = 8, timeout: float = 120.0,
                 max_retries: int = 5, first_wait: float = 1.0, progress: bool = True) -> RunSummary:
    """Send every request not yet answered in ``output`` to ``endpoint`` and append the answers to ``output``.

    At most ``concurrency`` requests are in flight. A 429, a 5xx, a connection error, a timeout (``timeout``
    seconds for the whole exchange) or a 200 whose body is not JSON is tried again up to ``max_retries``
    times, waiting :func:`backoff` (``first_wait`` doubled each time, with jitter; at least ``Retry-After``).
    A request that still fails gets an error line (``"response": null, "error": {code, message}``); another
    status (400, 401, ...) gets its response line at once. Both are sent again by the next run."""
    if isinstance(requests, (str, os.PathLike)):
        requests = read_requests(requests)
    if concurrency < 1:
        raise InputError(f"concurrency must be at least 1, got {concurrency}")
    if not timeout > 0:
        raise InputError(f"timeout must be more than 0 seconds, got {timeout}")
    if max_retries < 0:
        raise InputError(f"max_retries must be 0 or more, got {max_retries}")
    if first_wait < 0:
        raise InputError(f"the first wait must be 0 seconds or more, got {first_wait}")
    api_key = check_api_key(api_key)  # a key that cannot be sent stops the run before anything is sent
    safe_url(endpoint)  # so does a bad endpoint
    try:
        import httpx  # noqa: F401
    except ImportError:
        raise InputError("sending requests needs httpx, which is not installed", hint=INSTALL_HINT) from None

    target = Path(output)
    check_output(target)
    start = time.monotonic()
    with RunLock(target.with_name(f".{target.name}.lock"), f"to {target}"):
        done = answered_ids(target, (r.custom_id for r in requests))
        todo = [r for r in requests if r.custom_id not in done]
        counters = _Counters()
        bar = Progress(len(requests), done=len(done), desc="judging", unit="request", counted="failed",
                       enabled=progress and bool(todo))
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "a", encoding="utf-8") as handle:
                if todo:
                    asyncio.run(_run(todo, handle, endpoint=endpoint, api_key=api_key, concurrency=concurrency,
                                     timeout=timeout, max_retries=max_retries, first_wait=first_wait,
                                     counters=counters, bar=bar))
        finally:
            bar.close()
    return RunSummary(requests=len(requests), already=len(done), sent=len(todo), answered=counters.answered,
                      failed={k: n for k, n in counters.failed.items() if n}, retries=counters.retries,
                      seconds=round(time.monotonic() - start, 3), max_in_flight=counters.max_in_flight,
                      output=os.fspath(target))
