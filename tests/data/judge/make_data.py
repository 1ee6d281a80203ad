"""Writes the judge test data beside this file (made-up records, answers and labels; run it again after the
prompt changes: ``PYTHONPATH=. python tests/data/judge/make_data.py``)."""

import json
from pathlib import Path

from chemref.questions.judge.prepare import prepare_requests

HERE = Path(__file__).parent
ANSWER = {"good_question": True, "author_named": False, "function": "CLAIM", "sentence_ok": True,
          "note": "specific finding", "confidence": 0.9}


def record(ident, score, doi, reason=None, excerpt=None):
    text = excerpt or f"The made-up sentence {ident} reports that compound {ident[-4:]} binds the receptor [CITATION]."
    row = {"id": ident, "excerpt": text, "sentence": text.replace("[CITATION]", "(1)"), "citation_start": 0,
           "citation_end": 3, "citation_text": "(1)", "target_doi": doi, "target_pmid": None,
           "target_title": f"A study of {ident}", "target_authors": ["Doe", "Roe"], "target_year": 2020,
           "target_container": "J. Made-up Chem.", "target_type": "journal", "source_file": f"{ident[:4]}.xml",
           "source_pmcid": None, "source_doi": f"10.9/{ident[:4]}", "source_license":
           "https://creativecommons.org/licenses/by/4.0/", "ref_id": "r1", "section": "introduction",
           "findability": 0.5, "score": score}
    if reason:
        row["reason"] = reason
    return row


QUESTIONS = [record("artA-p1-s1", 0.9, "10.1/a1"), record("artA-p1-s2", 0.8, "10.1/a2"),
             record("artA-p2-s1", 0.7, "10.1/a1"), record("artB-p1-s1", 0.85, "10.2/b1"),
             record("artB-p1-s2", 0.75, "10.2/b2")]
REJECTED = [record("artA-p3-s1", 0.6, "10.1/a3", "per_article_cap"), record("artA-p4-s1", 0.2, "10.1/a4", "min_score"),
            record("artA-p5-s1", None, "10.1/a5", "length"), record("artA-p6-s1", 0.5, "10.1/a6", "min_score"),
            record("artB-p2-s1", 0.5, "10.2/b3", "per_target_cap"), record("artB-p3-s1", 0.3, "10.2/b4", "min_score"),
            record("artB-p4-s1", 0.35, "10.2/b5", "min_score"), record("artB-p5-s1", 0.4, "10.2/b6", "min_score"),
            record("artB-p6-s1", 0.45, "10.2/b7", "min_score"), record("artB-p7-s1", 0.55, "10.2/b8", "min_score"),
            record("artB-p8-s1", 0.65, "10.2/b9", "min_score"), record("artB-p9-s1", 0.66, "10.2/b10", "min_score")]

# what the judge answered (content of the assistant message, or a fault)
ANSWERS = {
    "artA-p1-s1": dict(ANSWER),
    "artA-p1-s2": {**ANSWER, "good_question": False, "note": "textbook background", "confidence": 0.2},
    "artA-p2-s1": {**ANSWER, "confidence": 0.8},
    "artA-p3-s1": {**ANSWER, "confidence": 0.95},
    "artA-p4-s1": {**ANSWER, "confidence": 0.4},
    "artA-p6-s1": {**ANSWER, "confidence": 0.85},
    "artB-p1-s1": "refusal",
    "artB-p2-s1": {**ANSWER, "author_named": True, "note": "names Doe"},
    "artB-p3-s1": "http_error",
    "artB-p4-s1": "length",
    "artB-p5-s1": "prose",
    "artB-p6-s1": "extra_key",
    "artB-p7-s1": {**ANSWER, "function": "PASSING", "note": "software used"},
    "artB-p8-s1": "fenced",
    "artB-p9-s1": dict(ANSWER),  # stale: the request was prepared from another excerpt
}
LABELS = {
    "artA-p1-s1": (True, False, "CLAIM"), "artA-p1-s2": (False, False, "CLAIM"), "artA-p2-s1": (True, False, "CLAIM"),
    "artA-p3-s1": (False, False, "PASSING"), "artA-p4-s1": (True, False, "CLAIM"), "artA-p6-s1": (True, False, "CLAIM"),
    "artB-p2-s1": (False, True, "CLAIM"), "artB-p7-s1": (False, False, "PASSING"), "artB-p8-s1": (True, False, "CLAIM"),
    "artB-p1-s1": (True, False, "CLAIM"), "artA-p5-s1": (False, False, "CLAIM"),
}


def completion(content, finish="stop", refusal=None):
    message = {"role": "assistant", "content": content}
    if refusal:
        message["refusal"] = refusal
    return {"status_code": 200, "request_id": "req_1", "body": {
        "id": "chatcmpl-1", "object": "chat.completion", "model": "judge-model",
        "choices": [{"index": 0, "finish_reason": finish, "message": message}]}}


def response(ident, answer):
    row = {"id": f"batch_req_{ident}", "custom_id": ident, "response": None, "error": None}
    if isinstance(answer, dict):
        row["response"] = completion(json.dumps(answer))
    elif answer == "refusal":
        row["response"] = completion(None, refusal="I can't help with that.")
    elif answer == "http_error":
        row["error"] = {"code": "http_5xx", "message": "HTTP 500 (after 6 tries)"}
    elif answer == "length":
        row["response"] = completion('{"good_question": tr', finish="length")
    elif answer == "prose":
        row["response"] = completion("This is a good question.")
    elif answer == "extra_key":
        row["response"] = completion(json.dumps({**ANSWER, "reason": "extra"}))
    elif answer == "fenced":
        row["response"] = completion("```json\n" + json.dumps({**ANSWER, "confidence": 0.7}) + "\n```")
    return row


def main():
    def write(name, rows):
        with open(HERE / name, "w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")

    write("questions.jsonl", QUESTIONS)
    write("rejected.jsonl", REJECTED)
    sent = [r for r in QUESTIONS + REJECTED if r.get("reason") != "length"]
    stale = {**next(r for r in sent if r["id"] == "artB-p9-s1"), "excerpt": "An older excerpt [CITATION]."}
    sent = [stale if r["id"] == "artB-p9-s1" else r for r in sent]
    write("requests.jsonl", prepare_requests(sent, model="judge-model"))
    write("responses.jsonl", [response(i, a) for i, a in ANSWERS.items()])  # artB-p1-s2: missing
    write("labels.jsonl", [{"id": i, "good_question": g, "author_named": a, "function": f, "sentence_ok": True,
                            "note": ""} for i, (g, a, f) in LABELS.items()])
    write("requests_golden.jsonl", prepare_requests([QUESTIONS[0]], model="golden-model"))


if __name__ == "__main__":
    main()
