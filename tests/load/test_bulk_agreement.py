"""The bulk checks and pydantic accept and refuse the same run records, field by field.

For every constrained field of :class:`RunRecord` and of its verdicts, values at and around
each declared constraint (and of the wrong JSON type) are put into an otherwise valid record.
pydantic's verdict on the line is the truth. The bulk checker must flag every value pydantic
refuses (it may flag more: those go to pydantic), and the loader as a whole must report a
problem exactly when pydantic does.
"""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from generator.load.jsonlines import read_runs
from generator.load.runcolumns import read_fast
from generator.load.runschema import field_constraints, unwrap
from generator.models.base import MAX_INT
from generator.models.runs import JudgeVerdict, Measure, RuleVerdict, RunRecord

BASE: dict[str, Any] = {
    "task": "t1",
    "run": 1,
    "seed": 0,
    "status": "valid",
    "delivery": True,
    "rules": [{"id": "R1", "pass": True}],
    "judge": [{"id": "J1", "level": 1, "evidence": ["E1"], "rationale": "r"}],
    "judge_valid": True,
    "input_tokens": 1,
    "output_tokens": 1,
    "duration_s": 1.0,
    "turns": 1,
    "measures": [{"id": "cost", "value": 2.5}, {"id": "calls", "value": 3}],
}
STRINGS = [
    "",
    " ",
    "  ",
    "a",
    " a",
    "a ",
    "a b",
    "\x1c",
    "a\x1c",
    "\u3000a",
    "\u00a0",
    "é",
    "-a",
    "a-b.c_d",
    "a\n",
    "1",
    "x" * 128,
    "x" * 129,
]
WRONG_TYPES: list[Any] = [None, True, 1, 1.5, "1", [], {}]


def _probes(info: Any) -> list[Any]:
    """Values at and around the field's declared constraints, and of other JSON types."""
    base, _ = unwrap(info.annotation)
    out: list[Any] = list(WRONG_TYPES)
    if base is str or typing.get_origin(base) is typing.Literal:
        out += STRINGS + list(typing.get_args(base))
        for m in field_constraints(info, info.annotation):
            limit = getattr(m, "max_length", None)
            if limit:
                out += ["x" * limit, "x" * (limit + 1), " " + "x" * (limit - 1) + " "]
    if base is int:
        out += [-1, 0, 1, 2, MAX_INT, MAX_INT + 1, -MAX_INT, -MAX_INT - 1]
    if base is float:
        out += [-1.0, -0.0, 0.0, 1e-300, 0.5, 1e308, 3]
    return out


def _fields() -> list[tuple[str, str, Any]]:
    """(where, field, value): every field of the record and of its verdicts, with probes."""
    out = []
    models = (("", RunRecord), ("rules", RuleVerdict), ("judge", JudgeVerdict))
    for where, model in (*models, ("measures", Measure)):
        for name, info in model.model_fields.items():
            if (
                typing.get_origin(unwrap(info.annotation)[0]) in (tuple, list)
                and model is RunRecord
            ):
                continue  # the verdict lists are probed through their items' fields
            key = info.alias or name
            out += [(where, key, value) for value in _probes(info)]
    return out


def _record(where: str, key: str, value: Any) -> dict[str, Any]:
    record = json.loads(json.dumps(BASE))
    target = record if not where else record[where][0]
    target[key] = value
    return record


def _pydantic_accepts(line: str) -> bool:
    try:
        RunRecord.model_validate_json(line)
    except ValidationError:
        return False
    return True


CASES = _fields()


@pytest.mark.parametrize(
    ("where", "key", "value"), CASES, ids=[f"{w}.{k}={v!r}" for w, k, v in CASES]
)
def test_bulk_and_per_line_agree(where: str, key: str, value: Any, tmp_path: Path) -> None:
    line = json.dumps(_record(where, key, value), ensure_ascii=False, separators=(",", ":"))
    accepted = _pydantic_accepts(line)
    raw = ('{"format_version":1}\n' + json.dumps(BASE) + "\n" + line + "\n").encode()
    fast = read_fast(raw, raw.index(b"\n") + 1, 2)
    if not accepted:  # the bulk path may never vouch for a line pydantic refuses
        assert fast is None or 3 in fast.suspect_lines, line
    path = tmp_path / "runs.jsonl"
    path.write_bytes(raw)
    _, problems = read_runs(path, "runs.jsonl")
    assert [p.line for p in problems] == ([] if accepted else [3]), (line, problems)
