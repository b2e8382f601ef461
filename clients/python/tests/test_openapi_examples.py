"""The request examples of the OpenAPI document work: each is sent, as the reference page's
"Try it out" sends it, to a server with the default configuration, and must be answered with the
operation's success status. The RLPR model routes need a configured model, which a default
server does not have; they must be refused for that reason only (409), not for their body."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import ROOT, Server

DOCUMENT: dict[str, Any] = json.loads((ROOT / "openapi" / "openapi.json").read_text())

#: Operations that need more than a default server: the status they answer there, and its code.
NEEDS_A_MODEL = {"prepare": (409, "not_tokenizing"), "reload": (409, "not_reloadable")}

#: Operations whose example depends on another's having run first.
ORDER = ["create_rubric", "update_rubric"]


def examples() -> list[tuple[str, str, str, dict[str, Any]]]:
    """(operation id, method, path, request body media) of every operation with an example."""
    found = []
    for path, item in DOCUMENT["paths"].items():
        for method, operation in item.items():
            for media_type, media in operation.get("requestBody", {}).get("content", {}).items():
                if "example" in media:
                    found.append((operation["operationId"], method, path, {media_type: media["example"]}))
    return sorted(found, key=lambda e: (ORDER.index(e[0]) if e[0] in ORDER else -1, e[0]))


def success_status(operation: dict[str, Any]) -> int:
    return min(int(status) for status in operation["responses"] if status.startswith("2"))


@pytest.fixture(scope="module")
def fresh_server() -> Iterator[str]:
    server = Server()
    try:
        yield server.url
    finally:
        server.stop()


def test_the_scoring_operations_have_examples() -> None:
    ids = {operation_id for operation_id, *_ in examples()}
    assert {"score", "score_with_verifier", "get_reward", "submit", "create_rubric"} <= ids, ids


def test_every_request_example_is_answered_with_success(fresh_server: str) -> None:
    with httpx.Client(base_url=fresh_server, timeout=60) as http:
        for operation_id, method, path, body in examples():
            operation = DOCUMENT["paths"][path][method]
            url = path
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "path":
                    assert "example" in parameter, f"{operation_id}: path parameter {parameter['name']} has no example"
                    url = url.replace("{" + parameter["name"] + "}", str(parameter["example"]))
            [(media_type, example)] = body.items()
            if media_type == "application/json":
                response = http.request(method, url, json=example)
            else:
                response = http.request(method, url, content=example, headers={"content-type": media_type})
            if operation_id in NEEDS_A_MODEL:
                status, code = NEEDS_A_MODEL[operation_id]
                assert (response.status_code, response.json()["code"]) == (status, code), response.text
                continue
            assert response.status_code == success_status(operation), f"{operation_id}: {response.text}"
            if operation_id in ("score", "score_with_verifier"):
                results = response.json()["results"]
                assert results and all(r["status"] in ("correct", "incorrect") for r in results), results
            if operation_id == "get_reward":
                assert response.json()["rewards"] == [1.0, 0.0], response.text
