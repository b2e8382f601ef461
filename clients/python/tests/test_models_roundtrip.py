"""Every schema of the OpenAPI document round-trips through both generated clients: samples of
each schema (every union variant, every optional property, nullables both ways) are parsed into
the Python models and serialised back unchanged, and type-check against the TypeScript types
under `tsc --strict`, then survive a JSON round trip in Node. A model the generator dropped or
mistyped fails here instead of in a user's hands."""

from __future__ import annotations

import importlib
import json
import pkgutil
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import referee_api
from referee_api import models

from .conftest import ROOT
from .schema_samples import samples

DOCUMENT: dict[str, Any] = json.loads((ROOT / "openapi" / "openapi.json").read_text())
SCHEMAS: dict[str, Any] = DOCUMENT["components"]["schemas"]
TYPESCRIPT = ROOT / "clients" / "typescript"


def snake_case(name: str) -> str:
    """`JobState` → `job_state`, as the generator names modules."""
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


def is_union_or_scalar(schema: dict[str, Any]) -> bool:
    """Schemas the Python generator renders as a type alias (a union or a literal), not a class."""
    return any(key in schema for key in ("oneOf", "anyOf", "enum")) or schema.get("type") not in (None, "object")


def test_every_generated_module_imports() -> None:
    for module in pkgutil.walk_packages(referee_api.__path__, "referee_api."):
        importlib.import_module(module.name)


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_python_models_round_trip(name: str) -> None:
    schema = SCHEMAS[name]
    model = getattr(models, name, None)
    if not hasattr(model, "from_dict"):
        # A union's variants are components of their own and round-trip as such; a string enum
        # is a `Literal` with a check function that the models parse it with.
        assert is_union_or_scalar(schema), f"no model class for object schema {name}"
        if "enum" in schema:
            module = importlib.import_module(f"referee_api.models.{snake_case(name)}")
            check = getattr(module, f"check_{snake_case(name)}")
            for value in schema["enum"]:
                assert check(value) == value
            with pytest.raises(TypeError):
                check("not-" + str(schema["enum"][0]))
        return
    for instance in samples(DOCUMENT, name):
        parsed = model.from_dict(instance)
        assert parsed.to_dict() == instance, f"{name}: {instance}"
        assert model.from_dict(json.loads(json.dumps(parsed.to_dict()))).to_dict() == instance


def test_unions_resolve_each_variant_to_its_own_model() -> None:
    # Criterion.kind is the union that lost two of its variants to a generator bug.
    from referee_api.models import Criterion, CriterionKindJsonSchema, CriterionKindVerifier

    schema_kind = {"type": "json_schema", "schema": {"type": "object", "required": ["a"]}}
    verifier_kind = {"type": "verifier", "verifier": "math", "input": {"mode": "symbolic"}}
    for kind, model in [(schema_kind, CriterionKindJsonSchema), (verifier_kind, CriterionKindVerifier)]:
        criterion = Criterion.from_dict({"name": "c", "kind": kind})
        assert isinstance(criterion.kind, model)
        assert criterion.to_dict()["kind"] == kind


def typescript_literal(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def test_typescript_types_accept_every_sample(tmp_path: Path) -> None:
    tsc = TYPESCRIPT / "node_modules" / ".bin" / "tsc"
    assert tsc.exists(), "clients/typescript/node_modules is missing: run `npm ci` there (scripts/test does)"
    assert shutil.which("node"), "node is required"
    work = TYPESCRIPT / ".roundtrip"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    try:
        lines = [
            'import type { components } from "../src/schema.js";',
            'import { deepStrictEqual } from "node:assert";',
        ]
        lines.append("type S = components['schemas'];")
        lines.append("const checks: [unknown, string][] = [];")
        count = 0
        for name in sorted(SCHEMAS):
            for index, instance in enumerate(samples(DOCUMENT, name)):
                variable = f"sample_{count}"
                count += 1
                lines.append(f"const {variable}: S[{json.dumps(name)}] = {typescript_literal(instance)};")
                lines.append(f"checks.push([{variable}, {json.dumps(json.dumps(instance))}]); // {name} #{index}")
        lines.append(
            "for (const [value, text] of checks) deepStrictEqual(JSON.parse(JSON.stringify(value)), JSON.parse(text));"
        )
        lines.append("console.log(`round-tripped ${checks.length} samples`);")
        (work / "roundtrip.ts").write_text("\n".join(lines) + "\n")
        (work / "tsconfig.json").write_text(
            json.dumps(
                {
                    "extends": "../tsconfig.json",
                    "compilerOptions": {"rootDir": "..", "outDir": "dist", "noUnusedLocals": False},
                    "include": ["roundtrip.ts"],
                }
            )
        )
        compiled = subprocess.run(
            [str(tsc), "--strict", "-p", str(work)], check=False, capture_output=True, text=True, cwd=TYPESCRIPT
        )
        assert compiled.returncode == 0, compiled.stdout + compiled.stderr
        ran = subprocess.run(
            ["node", str(work / "dist" / ".roundtrip" / "roundtrip.js")], check=False, capture_output=True, text=True
        )
        assert ran.returncode == 0, ran.stdout + ran.stderr
        assert f"round-tripped {count} samples" in ran.stdout
    finally:
        shutil.rmtree(work, ignore_errors=True)
