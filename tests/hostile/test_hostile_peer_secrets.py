"""A hostile peer against the judge client, in process (fast): a reply nested hundreds of levels deep is one
error line and the run goes on; the key it echoes split into pieces across JSON strings, or across keys, or in
base32 in a header, is withheld; any JSON read (a file, a line, a server's body, a judge's answer) is refused
when it nests deeper than the bound, before anything walks it. A key too short to look for, and a request url
that cannot be sent, are refused before any request."""

from __future__ import annotations

import base64
import json
import re
import sys
import time
from pathlib import Path

import pytest

from chemref._io.limits import MAX_JSON_DEPTH, json_depth_problem
from chemref._io.secrets import WITHHELD, check_api_key, finite_json, holds_secret, register_secret, scrub_json
from chemref.errors import InputError
from chemref.jsonl import parse_json, read_jsonl
from chemref.questions.judge import client
from chemref.questions.judge.answers import json_object
from chemref.questions.judge.client import answered_ids, read_requests, run_requests

pytest.importorskip("httpx")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from judge_server import JudgeServer, write_requests  # noqa: E402

#: a fake key: random letters and digits, no word (its pieces must never match ordinary text)
KEY = "sk-Tq8vN3xWb6Lr9Zk2Hm5Pd7Jc4Yf1Gs"
#: the random part of KEY: no 8 letters or digits of it may be left in anything stored
_RANDOM = re.sub(r"[^a-z0-9]", "", KEY.lower())[2:]


def _left(text: str) -> list[str]:
    """The runs of 8 of the key's letters and digits that ``text`` still holds, its punctuation ignored."""
    letters = re.sub(r"[^a-z0-9]", "", text.lower())
    return [_RANDOM[i:i + 8] for i in range(len(_RANDOM) - 7) if _RANDOM[i:i + 8] in letters]


def _nested(depth: int) -> str:
    return '{"a": ' * depth + "1" + "}" * depth


# -- depth: bounded where JSON is read, and nothing that walks a value recurses
def test_json_deeper_than_the_bound_is_refused_wherever_it_is_read(tmp_path: Path) -> None:
    deep, fine = _nested(MAX_JSON_DEPTH + 1), _nested(MAX_JSON_DEPTH)
    assert json_depth_problem(fine) is None and json_depth_problem(deep) is not None
    assert json_depth_problem('["' + "[" * 500 + '"]') is None  # brackets inside a string do not count
    assert finite_json(fine) is not None
    with pytest.raises(ValueError, match="nested"):
        finite_json(_nested(500).encode())
    with pytest.raises(InputError, match="nested"):
        parse_json(deep, path="x.json")
    (tmp_path / "deep.jsonl").write_text('{"ok": 1}\n' + _nested(500) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="nested") as caught:
        list(read_jsonl(tmp_path / "deep.jsonl"))
    assert caught.value.line == 2
    assert json_object(_nested(500), ["a"]) == ("not_json", f"the answer is not one JSON object "
                                                            f"({json_depth_problem(_nested(500))})")


def test_scrub_json_walks_any_depth_without_recursion() -> None:
    register_secret(KEY)
    value: object = KEY
    for _ in range(5000):
        value = {"a": [value]}
    scrubbed = scrub_json(value)
    for _ in range(5000):
        scrubbed = scrubbed["a"][0]  # type: ignore[index]
    assert scrubbed == "[redacted]"


def test_a_deeply_nested_reply_is_an_error_line_and_the_run_goes_on(tmp_path: Path) -> None:
    write_requests(tmp_path / "req.jsonl", ["deep", "deep401", "fine"])
    with JudgeServer() as server:
        server.plan = {"deep": ["deep"], "deep401": ["deep401"]}
        summary = run_requests(tmp_path / "req.jsonl", tmp_path / "out.jsonl", endpoint=server.url,
                               max_retries=0, timeout=10, progress=False)
    rows = {row["custom_id"]: row for _, row in read_jsonl(tmp_path / "out.jsonl")}
    assert summary.answered == 1 and set(rows) == {"deep", "deep401", "fine"}
    assert rows["deep"]["error"]["code"] == "invalid_json" and "nested" in rows["deep"]["error"]["message"]
    assert rows["deep401"]["response"]["status_code"] == 401
    assert rows["fine"]["response"]["status_code"] == 200


# -- a key split across the strings of a reply
SPLIT = {
    "pieces in a list": {"ok": "fine", "pieces": [KEY[i:i + 7] for i in range(0, len(KEY), 7)]},
    "pieces under separate keys": {"ok": "fine", **{f"p{i}": KEY[i:i + 6] for i in range(0, len(KEY), 6)}},
    "pieces as keys": {"ok": "fine", "ids": {KEY[i:i + 6]: i for i in range(0, len(KEY), 6)}},
    "key and value in turn": {"ok": "fine", **{KEY[i:i + 5]: KEY[i + 5:i + 10] for i in range(0, len(KEY), 10)}},
    "nested pieces": {"a": {"b": KEY[:7]}, "c": [{"d": KEY[7:14]}, KEY[14:21]], "e": KEY[21:]},
}


@pytest.mark.parametrize("value", SPLIT.values(), ids=list(SPLIT))
def test_a_key_split_across_strings_withholds_every_string(value: dict) -> None:
    register_secret(KEY)
    assert not any(holds_secret(piece) for piece in (KEY[:7], KEY[7:14], KEY[14:21]))  # no piece alone does
    stored = json.dumps(scrub_json(value))
    assert _left(stored) == [] and WITHHELD in stored


def test_a_string_withheld_whole_leaves_the_rest_when_nothing_else_holds_a_key() -> None:
    register_secret(KEY)
    assert scrub_json({"note": "fine", "echo": ".".join(KEY)}) == {"note": "fine", "echo": WITHHELD}


def test_a_key_in_pieces_or_in_a_header_never_reaches_the_responses(tmp_path: Path) -> None:
    register_secret(KEY)  # as the judge commands do with the key they send
    write_requests(tmp_path / "req.jsonl", ["pieces", "header", "note"])
    with JudgeServer(api_key=KEY) as server:
        server.plan = {"pieces": ["key_pieces"], "header": ["key_header"]}
        server.answers["note"] = {"good_question": True, "author_named": False, "function": "CLAIM",
                                  "sentence_ok": True, "note": " / ".join(KEY[i:i + 5] for i in range(0, len(KEY), 5)),
                                  "confidence": 0.9}
        run_requests(tmp_path / "req.jsonl", tmp_path / "out.jsonl", endpoint=server.url, api_key=KEY,
                     max_retries=0, timeout=10, progress=False)
        assert server.problems == []
    text = (tmp_path / "out.jsonl").read_text(encoding="utf-8")
    decoded = "".join(base64.b32decode(run + "=" * (-len(run) % 8)).decode("latin-1")
                      for run in re.findall(r"[A-Z2-7]{16,}", text))
    assert _left(text) == [] and _left(decoded) == []
    rows = {row["custom_id"]: row for _, row in read_jsonl(tmp_path / "out.jsonl")}
    assert rows["header"]["response"]["request_id"] == WITHHELD
    assert rows["header"]["response"]["body"]["choices"]  # the answer itself is kept


# -- what is sent: a key too short to look for, a url that cannot be sent
def test_a_key_too_short_to_be_scrubbed_is_refused_before_any_request() -> None:
    with pytest.raises(InputError, match="shorter than 4") as caught:
        check_api_key("Zq7", source="OPENAI_API_KEY")
    assert "Zq7" not in str(caught.value) and "OPENAI_API_KEY" in str(caught.value)
    assert check_api_key("Zq7w") == "Zq7w"


@pytest.mark.parametrize("url", ["/v1/chat/completions\r\nX-Injected: 1", "/v1/\x00x", "/v1/" + "a" * 100_000,
                                 "/v1/chat completions", "/v1/chät"],
                         ids=["CR LF", "NUL", "100 kB", "a space", "not ASCII"])
def test_a_request_url_that_cannot_be_sent_is_one_error_naming_its_line(tmp_path: Path, url: str) -> None:
    write_requests(tmp_path / "req.jsonl", ["a", "b"])
    rows = (tmp_path / "req.jsonl").read_text(encoding="utf-8").splitlines()
    rows[1] = json.dumps({**json.loads(rows[1]), "url": url})
    (tmp_path / "req.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="url must be a path") as caught:
        read_requests(tmp_path / "req.jsonl")
    assert caught.value.line == 2 and "a" * 100 not in str(caught.value)  # a long url is cut in the message


def test_a_resumed_output_holding_a_line_nested_too_deep_is_one_error(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("[" * 5000 + "]" * 5000 + "\n" + '{"custom_id": "a"}\n', encoding="utf-8")
    with pytest.raises(InputError, match="not a JSON object") as caught:
        answered_ids(out, ["a"])
    assert caught.value.line == 1


def test_a_body_slow_to_scrub_never_times_out_the_other_requests(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def slow_scrub(value: object) -> object:
        if "stall-here" in json.dumps(value):
            time.sleep(3.0)  # a body crafted to be slow to scrub (the GIL released, as a C-heavy scrub does)
        return scrub_json(value)

    monkeypatch.setattr(client, "scrub_json", slow_scrub)
    write_requests(tmp_path / "req.jsonl", ["stall", "a", "b", "c"])
    with JudgeServer(slow_seconds=0.5) as server:
        server.plan = {"a": ["slow"], "b": ["slow"], "c": ["slow"]}
        server.answers["stall"] = {"good_question": True, "author_named": False, "function": "CLAIM",
                                   "sentence_ok": True, "note": "stall-here", "confidence": 0.9}
        summary = run_requests(tmp_path / "req.jsonl", tmp_path / "out.jsonl", endpoint=server.url,
                               concurrency=4, max_retries=0, timeout=2.0, progress=False)
    assert summary.failures == 0 and summary.answered == 4


def test_a_body_of_many_strings_holding_a_key_is_withheld_whole_at_once() -> None:
    register_secret(KEY)
    body = {"choices": [{"message": {"content": "fine"}}], "x": [f"bearer key {KEY[:9]}%"] * 50_000}
    started = time.process_time()
    stored = scrub_json(body)
    assert time.process_time() - started < 5.0
    text = json.dumps(stored)
    assert _left(text) == []
    # withheld whole, with no search for the strings that hold it (bools: a diff of the text would be slow)
    assert (KEY[:9] in text, "fine" in text) == (False, False)
