"""SandboxFusion's `/run_code` against a live server: the `sandbox-fusion` client package,
unmodified, and the exact request verl's sandbox-fusion reward code sends, read back by verl's own
status mapping."""

from __future__ import annotations

import asyncio
import json
import warnings

import pytest
import requests

warnings.filterwarnings("ignore", category=DeprecationWarning)
sandbox_fusion = pytest.importorskip("sandbox_fusion")
from sandbox_fusion import (
    CommandRunStatus,
    RunCodeRequest,
    RunStatus,
    run_code,
    run_code_async,
)

# --- verl's calling code ---------------------------------------------------------------------
# Copied from volcengine/verl at commit b178a3cd56f58b2d502255daba591e92833930a7, Apache License
# 2.0: verl/utils/reward_score/sandbox_fusion/utils.py, the request of `call_sandbox_api` and the
# result mapping of `_process_single_case` (logging and metadata not used here left out).


def call_sandbox_api(
    sandbox_fusion_url,
    code,
    stdin,
    compile_timeout,
    run_timeout,
    memory_limit_mb,
    language,
):
    payload = json.dumps(
        {
            "compile_timeout": compile_timeout,
            "run_timeout": run_timeout,
            "code": code,
            "stdin": stdin,
            "memory_limit_MB": memory_limit_mb,
            "language": language,
            "files": {},
            "fetch_files": [],
        }
    )
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    request_timeout = compile_timeout + run_timeout + 10
    response = requests.post(
        sandbox_fusion_url, headers=headers, data=payload, timeout=request_timeout
    )
    response.raise_for_status()
    return response.json(), None


def result_status(api_response, expected_output):
    compile_result = api_response.get("compile_result")
    run_result = api_response.get("run_result")
    api_status = api_response.get("status")
    if api_status == "SandboxError":
        return -1
    if api_status == "Failed":
        compile_status = compile_result.get("status") if compile_result else None
        is_compile_error = compile_result and (
            compile_status in ["Error", "TimeLimitExceeded"]
            or (compile_status == "Finished" and compile_result.get("return_code") != 0)
        )
        if is_compile_error:
            return -4
        if run_result:
            run_status = run_result.get("status")
            if run_status == "TimeLimitExceeded":
                return -3
            if run_status == "Error" or (
                run_status == "Finished" and run_result.get("return_code") != 0
            ):
                return -2
        return -1
    if api_status == "Success":
        if run_result and run_result.get("status") == "Finished":
            actual_output = (
                run_result.get("stdout") if run_result.get("stdout") is not None else ""
            )
            return str(actual_output).rstrip("\n") == str(expected_output).rstrip("\n")
        return -1
    return -1


# --- end of verl's code ----------------------------------------------------------------------


def test_the_sandbox_fusion_client_runs_programs(server_url: str) -> None:
    ok = run_code(
        RunCodeRequest(code="print(int(input()) + 1)", language="python", stdin="41\n"),
        endpoint=server_url,
        max_attempts=1,
    )
    assert ok.status == RunStatus.Success, ok
    assert (ok.run_result.status, ok.run_result.return_code, ok.run_result.stdout) == (
        CommandRunStatus.Finished,
        0,
        "42\n",
    )
    assert ok.compile_result is None

    exit3 = run_code(
        RunCodeRequest(code="import sys; sys.exit(3)", language="python"),
        endpoint=server_url,
        max_attempts=1,
    )
    assert (exit3.status, exit3.run_result.status, exit3.run_result.return_code) == (
        RunStatus.Failed,
        CommandRunStatus.Finished,
        3,
    )

    raised = run_code(
        RunCodeRequest(code="raise ValueError('boom')", language="python"),
        endpoint=server_url,
        max_attempts=1,
    )
    assert raised.status == RunStatus.Failed and raised.run_result.return_code == 1
    assert "ValueError: boom" in raised.run_result.stderr

    slow = run_code(
        RunCodeRequest(
            code="while True:\n    pass", language="python", run_timeout=0.2
        ),
        endpoint=server_url,
        max_attempts=1,
    )
    assert (slow.status, slow.run_result.status, slow.run_result.return_code) == (
        RunStatus.Failed,
        CommandRunStatus.TimeLimitExceeded,
        None,
    )

    cpp = "#include <iostream>\nint main() { int a, b; std::cin >> a >> b; std::cout << a * b << std::endl; }"
    product = run_code(
        RunCodeRequest(code=cpp, language="cpp", stdin="6 7"),
        endpoint=server_url,
        max_attempts=1,
    )
    assert product.status == RunStatus.Success, product
    assert (
        product.compile_result.status == CommandRunStatus.Finished
        and product.compile_result.return_code == 0
    )
    assert product.run_result.stdout == "42\n"

    broken = run_code(
        RunCodeRequest(code="int main() { return x; }", language="cpp"),
        endpoint=server_url,
        max_attempts=1,
    )
    assert broken.status == RunStatus.Failed and broken.run_result is None
    assert (
        broken.compile_result.return_code != 0 and "x" in broken.compile_result.stderr
    )

    async_run = asyncio.run(
        run_code_async(
            RunCodeRequest(code="print('hi')", language="python"),
            endpoint=server_url,
            max_attempts=1,
        )
    )
    assert (
        async_run.status == RunStatus.Success and async_run.run_result.stdout == "hi\n"
    )


def test_nodejs_programs_run(server_url: str) -> None:
    run = run_code(
        RunCodeRequest(
            code="const [a, b] = require('fs').readFileSync(0, 'utf8').split(' ').map(Number);\n"
            "console.log(a + b, [a, b]);",
            stdin="2 40",
            language="nodejs",
        ),
        endpoint=server_url,
        max_attempts=1,
    )
    assert run.status == RunStatus.Success, run
    assert run.run_result.stdout == "42 [ 2, 40 ]\n"


def test_rust_programs_compile_and_run(server_url: str) -> None:
    run = run_code(
        RunCodeRequest(
            code="fn main() {\n    let mut s = String::new();\n"
            "    std::io::stdin().read_line(&mut s).unwrap();\n"
            "    let n: u64 = s.trim().parse().unwrap();\n"
            '    println!("{}", (1..=n).sum::<u64>());\n}\n',
            stdin="100",
            language="rust",
        ),
        endpoint=server_url,
        max_attempts=1,
    )
    assert run.status == RunStatus.Success, run
    assert run.run_result.stdout == "5050\n"
    assert run.compile_result is not None and run.compile_result.return_code == 0


def test_go_programs_compile_and_run(server_url: str) -> None:
    run = run_code(
        RunCodeRequest(
            code='package main\n\nimport "fmt"\n\nfunc main() {\n'
            "    var n int\n    fmt.Scan(&n)\n    fmt.Println(n * (n + 1) / 2)\n}\n",
            stdin="100",
            language="go",
        ),
        endpoint=server_url,
        max_attempts=1,
    )
    assert run.status == RunStatus.Success, run
    assert run.run_result.stdout == "5050\n"
    assert run.compile_result is not None and run.compile_result.return_code == 0


def test_what_is_not_supported_answers_the_error_shape(server_url: str) -> None:
    # A language SandboxFusion knows and this server does not run: SandboxError, which the
    # client raises after its retries.
    with pytest.raises(Exception, match="not supported by this server"):
        run_code(
            RunCodeRequest(code="<?php echo 1;", language="php"),
            endpoint=server_url,
            max_attempts=1,
        )
    raw = requests.post(
        f"{server_url}/run_code",
        json={"code": "print(1)", "language": "python", "files": {"a.txt": "aGk="}},
        timeout=30,
    )
    assert raw.status_code == 200 and raw.json()["status"] == "SandboxError", raw.text
    unknown = requests.post(
        f"{server_url}/run_code",
        json={"code": "x", "language": "brainfuck"},
        timeout=30,
    )
    assert (
        unknown.status_code == 422 and unknown.json()["code"] == "unknown_language"
    ), unknown.text


def test_verl_reads_every_outcome(server_url: str) -> None:
    url = f"{server_url}/run_code"
    cases = [
        (
            "a, b = map(int, input().split())\nprint(a + b)",
            "1 2\n",
            "python",
            "3",
            True,
        ),
        (
            "a, b = map(int, input().split())\nprint(a - b)",
            "1 2\n",
            "python",
            "3",
            False,
        ),
        ("print(undefined)", "", "python", "", -2),
        ("while True:\n    pass", "", "python", "", -3),
        ("int main() { return x; }", "", "cpp", "", -4),
        ("<?php echo 1;", "", "php", "1", -1),
    ]
    for code, stdin, language, expected, wanted in cases:
        response, error = call_sandbox_api(url, code, stdin, 1, 1, 1024, language)
        assert error is None
        assert result_status(response, expected) == wanted, (code, response)
