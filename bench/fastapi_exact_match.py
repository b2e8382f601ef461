"""FastAPI peer of Referee's `POST /v1/score`, limited to the `exact-match` verifier.

It is the comparison point of `bench/http_load.sh`: the same request and response shapes as
Referee, the same per-item work (validate the item, optionally extract the answer, normalise
both strings, compare), written the way a FastAPI service such as SandboxFusion is written
(pydantic models for the body and the response, an `async def` handler).

Run it with `uvicorn fastapi_exact_match:app --workers 2 --no-access-log`.
"""

from __future__ import annotations

import re
import time
import unicodedata
from typing import Any, Literal, Optional

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, ValidationError

VERIFIER_ID = "exact-match"
WHITESPACE_RUN = re.compile(r"\s+")

Operation = Literal["eq", "ne", "like", "ilike"]
Extraction = Literal["none", "answer_tag", "boxed", "answer_line", "auto"]


class ExactMatchInput(BaseModel):
    """Input of one exact-match item, with the same options and defaults as Referee's."""

    model_config = ConfigDict(extra="forbid")

    response: str
    reference: str
    operation: Operation = "eq"
    trim: bool = True
    collapse_whitespace: bool = True
    case_fold: bool = False
    nfkc: bool = False
    extract: Extraction = "none"


class ScoreItem(BaseModel):
    """One item of a score request; `input` is validated per verifier, per item."""

    id: Optional[str] = None
    verifier: str
    input: dict[str, Any]


class ScoreRequest(BaseModel):
    items: list[ScoreItem]


class ScoreResult(BaseModel):
    id: Optional[str]
    verifier: str
    score: float
    status: str
    details: dict[str, Any]
    elapsed_us: int


class ScoreResponse(BaseModel):
    results: list[ScoreResult]


ANSWER_OPEN = "<answer>"
ANSWER_CLOSE = "</answer>"
BOX_COMMANDS = ("\\boxed", "\\fbox")
ANSWER_MARKERS = ("final answer", "answer")


def rfind_ascii_ci(text: str, needle: str) -> int:
    """Index of the last ASCII-case-insensitive occurrence of `needle`, or -1."""
    return text.lower().rfind(needle) if text.isascii() else _rfind_ascii_ci_slow(text, needle)


def _rfind_ascii_ci_slow(text: str, needle: str) -> int:
    for start in range(len(text) - len(needle), -1, -1):
        window = text[start : start + len(needle)]
        if window.isascii() and window.lower() == needle:
            return start
    return -1


def last_answer_tag(text: str) -> Optional[str]:
    """Content of the last complete `<answer>...</answer>` pair (tag names in any case)."""
    close = rfind_ascii_ci(text, ANSWER_CLOSE)
    if close < 0:
        return None
    opening = rfind_ascii_ci(text[:close], ANSWER_OPEN)
    if opening < 0:
        return None
    return text[opening + len(ANSWER_OPEN) : close]


def braced_after(rest: str) -> Optional[str]:
    """Content of a `{...}` group at the start of `rest`, braces balanced, escapes skipped."""
    body = rest.lstrip()
    if not body.startswith("{"):
        return None
    depth = 1
    escaped = False
    for index in range(1, len(body)):
        char = body[index]
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return body[1:index]
    return None


def last_boxed(text: str) -> Optional[str]:
    """Content of the last `\\boxed{...}` or `\\fbox{...}` whose braces balance."""
    best: Optional[tuple[int, str]] = None
    for command in BOX_COMMANDS:
        search_end = len(text)
        while (at := text.rfind(command, 0, search_end)) >= 0:
            content = braced_after(text[at + len(command) :])
            if content is not None:
                if best is None or at > best[0]:
                    best = (at, content)
                break
            search_end = at
    return best[1] if best else None


def last_answer_line(text: str) -> Optional[str]:
    """Rest of the last line starting with `Answer:` or `Final answer:`, markdown allowed."""
    for line in reversed(text.splitlines()):
        line = line.lstrip().lstrip("#*_ ")
        for marker in ANSWER_MARKERS:
            head = line[: len(marker)]
            if len(head) < len(marker) or not head.isascii() or head.lower() != marker:
                continue
            rest = line[len(marker) :].lstrip("*_").lstrip()
            if not rest.startswith(":"):
                continue
            return rest[1:].lstrip("*_").strip().rstrip("*_").strip()
    return None


def extract(text: str, mode: Extraction) -> Optional[str]:
    """The answer inside `text`, or None when the requested marker is absent."""
    if mode == "none":
        return text
    if mode == "answer_tag":
        return last_answer_tag(text)
    if mode == "boxed":
        return last_boxed(text)
    if mode == "answer_line":
        return last_answer_line(text)
    for extractor in (last_answer_tag, last_boxed, last_answer_line):
        found = extractor(text)
        if found is not None:
            return found
    return text


def normalise(text: str, options: ExactMatchInput) -> str:
    """NFKC, trim, whitespace collapse and lowercasing, in that order, as Referee does."""
    if options.nfkc:
        text = unicodedata.normalize("NFKC", text)
    if options.trim:
        text = text.strip()
    if options.collapse_whitespace:
        text = WHITESPACE_RUN.sub(" ", text)
    if options.case_fold:
        text = text.lower()
    return text


def compare(response: str, reference: str, operation: Operation) -> bool:
    if operation == "eq":
        return response == reference
    if operation == "ne":
        return response != reference
    if operation == "like":
        return reference in response
    return reference.lower() in response.lower()


def score_item(item: ScoreItem) -> ScoreResult:
    started = time.perf_counter_ns()
    if item.verifier != VERIFIER_ID:
        score, status = 0.0, "invalid_input"
        details: dict[str, Any] = {"error": f"unknown verifier {item.verifier!r}"}
    else:
        try:
            options = ExactMatchInput.model_validate(item.input)
        except ValidationError as error:
            score, status = 0.0, "invalid_input"
            details = {"error": str(error)}
        else:
            extracted = extract(options.response, options.extract)
            if extracted is None:
                score, status = 0.0, "unparseable"
                details = {
                    "error": f"no {options.extract} found in the response",
                    "extract": options.extract,
                }
            else:
                response = normalise(extracted, options)
                reference = normalise(options.reference, options)
                holds = compare(response, reference, options.operation)
                score, status = (1.0, "correct") if holds else (0.0, "incorrect")
                details = {} if options.extract == "none" else {"extracted": response}
    elapsed_us = (time.perf_counter_ns() - started) // 1000
    return ScoreResult(
        id=item.id,
        verifier=item.verifier,
        score=score,
        status=status,
        details=details,
        elapsed_us=elapsed_us,
    )


app = FastAPI(title="exact-match peer of Referee")


@app.post("/v1/score", response_model=ScoreResponse)
async def score(request: ScoreRequest) -> ScoreResponse:
    return ScoreResponse(results=[score_item(item) for item in request.items])


@app.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@app.get("/readyz")
async def readyz() -> dict[str, str]:
    return {"status": "ready"}
