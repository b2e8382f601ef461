"""The generated Python models type score items per verifier: mypy (for Python 3.10) accepts a
well-formed item and refuses a misspelled verifier id, a misspelled input field, and another
verifier's input, each on its own line and nowhere else."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from .conftest import ROOT

SNIPPET = """\
from referee_api.models import ExactMatchInput, MathInput, MathScoreItem, ScoreRequest
from referee_client import Referee

ok = MathScoreItem(verifier="math", input_=MathInput(response="2", reference="2"))
bad_verifier = MathScoreItem(verifier="maths", input_=MathInput(response="2", reference="2"))  # error: arg-type
bad_field = MathInput(response="2", refrence="2")  # error: call-arg
wrong_input = MathScoreItem(verifier="math", input_=ExactMatchInput(response="2", reference="2"))  # error: arg-type
request = ScoreRequest(items=[ok])
with Referee() as referee:
    results = referee.score([ok, {"verifier": "math", "input": {"response": "2", "reference": "2"}}])
    first: str = results[0]["status"]
"""


def test_mypy_refuses_misspelled_items_and_only_those(tmp_path: Path) -> None:
    snippet = tmp_path / "items.py"
    snippet.write_text(SNIPPET)
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "mypy"),
            "--python-version",
            "3.10",
            "--no-incremental",
            "--follow-imports=silent",
            "--show-error-codes",
            str(snippet),
        ],
        check=False,
        capture_output=True,
        text=True,
        env={"MYPYPATH": str(ROOT / "clients" / "python"), "PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
    )
    found = {
        (int(m.group(1)), m.group(2)) for m in re.finditer(r"items\.py:(\d+): error: .*\[([a-z-]+)\]", done.stdout)
    }
    wanted = {
        (number, m.group(1))
        for number, text in enumerate(SNIPPET.splitlines(), start=1)
        if (m := re.search(r"# error: ([a-z-]+)", text))
    }
    assert len(wanted) == 3
    assert found == wanted, done.stdout + done.stderr
