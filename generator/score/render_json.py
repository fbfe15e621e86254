"""The JSON form of a :class:`Report`: stable, documented by its schema."""

from __future__ import annotations

import json
from typing import Any

from generator.score.results import Report
from generator.score.rounding import DECIMALS


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, DECIMALS)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


def to_json(report: Report) -> str:
    """Stable JSON: fields in model order, floats rounded to six decimals."""
    data = _rounded(report.model_dump(mode="json"))
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
