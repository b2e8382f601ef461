"""The clients as a user installs them: the Python wheel (`python -m build`, `twine check`, its
metadata, installed into a fresh virtual environment and used against a live server), the npm
package (`npm pack`, installed into a fresh project, compiled against and run), and the Python
sources' minimum version (vermin: nothing newer than Python 3.10)."""

from __future__ import annotations

import email.parser
import json
import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

from .conftest import ROOT

PYTHON_CLIENT = ROOT / "clients" / "python"
TYPESCRIPT = ROOT / "clients" / "typescript"


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        command, check=False, cwd=cwd, capture_output=True, text=True, env={**os.environ, **(env or {})}
    )
    assert done.returncode == 0, f"{' '.join(command)}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_python_sources_need_nothing_newer_than_3_10() -> None:
    # `typing_extensions` backports `Self`; annotations are evaluated as the running version would.
    output = run(
        [
            str(Path(sys.executable).parent / "vermin"),
            "--target=3.10-",
            "--violations",
            "--eval-annotations",
            "--backport",
            "typing_extensions",
            "--no-tips",
            "referee_api",
            "referee_client",
        ],
        PYTHON_CLIENT,
    )
    assert "Minimum required versions" in output


def test_wheel_has_complete_metadata_and_works_when_installed(tmp_path: Path, server_url: str) -> None:
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(PYTHON_CLIENT)], PYTHON_CLIENT)
    wheels = list(dist.glob("referee_client-*.whl"))
    sdists = list(dist.glob("referee_client-*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, list(dist.iterdir())
    run([sys.executable, "-m", "twine", "check", "--strict", str(wheels[0]), str(sdists[0])], tmp_path)

    with zipfile.ZipFile(wheels[0]) as wheel:
        names = wheel.namelist()
        metadata_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = email.parser.Parser().parsestr(wheel.read(metadata_name).decode())
    assert metadata["Name"] == "referee-client"
    assert metadata["Requires-Python"] == ">=3.10"
    assert metadata["License-Expression"] == "Apache-2.0"
    assert metadata["Summary"] and metadata["Description-Content-Type"] == "text/markdown"
    assert "Programming Language :: Python :: 3.10" in metadata.get_all("Classifier", [])
    requires = " ".join(metadata.get_all("Requires-Dist", []))
    for dependency in ("httpx", "attrs", "typing-extensions"):
        assert dependency in requires.replace("_", "-"), requires
    for marker in (
        "referee_api/py.typed",
        "referee_client/py.typed",
        "referee_api/models/criterion_kind_json_schema.py",
    ):
        assert marker in names, marker
    assert not any("/tests/" in n or n.startswith("tests/") for n in names)

    # A fresh environment that sees the test environment's packages (the client's dependencies,
    # installed from PyPI there) through a .pth file, but not the client's sources. The wheel is
    # installed even when the test environment holds a copy of the client (the README's
    # `pip install ./clients/python`), so the import below must find the wheel's.
    environment = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(environment)
    python = environment / "bin" / "python"
    purelib = run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp_path).strip()
    (Path(purelib) / "test-environment.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--ignore-installed", str(wheels[0])], tmp_path)
    script = (
        "import referee_client, referee_api.models as m\n"
        "assert referee_client.__file__.startswith(%r), referee_client.__file__\n"
        "from referee_client import Referee\n"
        "with Referee(%r) as referee:\n"
        "    item = m.MathScoreItem(verifier='math', input_=m.MathInput(response='so \\\\boxed{4}', reference='4'))\n"
        "    [result] = referee.score([item])\n"
        "assert (result['status'], result['score']) == ('correct', 1.0), result\n"
        "print('installed wheel ok')\n"
    ) % (str(environment), server_url)
    env = {"PYTHONPATH": ""}
    assert "installed wheel ok" in run([str(python), "-c", script], tmp_path, env)


def test_npm_package_installs_and_works(tmp_path: Path, server_url: str) -> None:
    package = json.loads((TYPESCRIPT / "package.json").read_text())
    assert package.get("private") is not True
    tarball = run(["npm", "pack", "--silent", "--pack-destination", str(tmp_path)], TYPESCRIPT).strip().splitlines()[-1]
    project = tmp_path / "consumer"
    project.mkdir()
    (project / "package.json").write_text(json.dumps({"name": "consumer", "private": True, "type": "module"}))
    run(["npm", "install", "--offline", "--no-audit", "--no-fund", str(tmp_path / tarball)], project)
    installed = project / "node_modules" / "@referee" / "client"
    assert (installed / "dist" / "index.d.ts").exists() and (installed / "dist" / "schema.d.ts").exists()
    (project / "main.ts").write_text(
        'import { type ScoreRequest, isJudged, score } from "@referee/client";\n'
        "const request: ScoreRequest = {\n"
        '  items: [{ id: "a", verifier: "math", input: { response: "so \\\\boxed{4}", reference: "4" } }],\n'
        "};\n"
        'const [result] = await score(process.env["REFEREE_URL"] ?? "", request);\n'
        'if (result === undefined || result.status !== "correct" || !isJudged(result)) throw new Error(JSON.stringify(result));\n'
        'console.log("installed package ok");\n'
    )
    (project / "tsconfig.json").write_text(
        json.dumps(
            {
                "compilerOptions": {
                    "target": "ES2022",
                    "module": "NodeNext",
                    "moduleResolution": "NodeNext",
                    "strict": True,
                    "skipLibCheck": False,
                    "types": ["node"],
                    "typeRoots": [str(TYPESCRIPT / "node_modules" / "@types")],
                },
                "files": ["main.ts"],
            }
        )
    )
    run([str(TYPESCRIPT / "node_modules" / ".bin" / "tsc"), "-p", "."], project)
    output = run(["node", "main.js"], project, {"REFEREE_URL": server_url})
    assert "installed package ok" in output
