"""Declared views (generator/models/views.py): told apart by kind, a board never totals."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from generator.models.views import Board, View

KINDS: dict[str, dict[str, Any]] = {
    "board": {"per": "m", "columns": "x", "rows": [{"domain": "qa"}]},
    "grid": {"domain": "qa", "rows": "a", "columns": "b"},
    "dimensions": {"domain": "qa"},
    "resources": {"domain": "qa", "metrics": ["calls"]},
    "scatter": {"domain": "qa", "x": "cost", "log_x": True},
    "effect": {"domain": "qa", "within": "model", "across": "harness"},
    "transfer": {"experiment": "skills"},
    "agreement": {"domain": "qa"},
    "sets": {"domain": "qa"},
}


def test_a_board_never_totals() -> None:
    board = {"kind": "board", "id": "b", "title": "B", **KINDS["board"]}
    assert not Board.model_validate(board).total
    with pytest.raises(ValidationError, match="never has a total row or column"):
        Board.model_validate({**board, "total": True})


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_views_are_told_apart_by_kind(kind: str) -> None:
    view = TypeAdapter(View).validate_python({"kind": kind, "id": "v", "title": "V", **KINDS[kind]})
    assert view.kind == kind
    assert type(view).__name__.lower() == kind


def test_an_unknown_kind_or_field_is_refused() -> None:
    with pytest.raises(ValidationError):
        TypeAdapter(View).validate_python({"kind": "pie", "id": "p", "title": "P"})
    with pytest.raises(ValidationError):
        TypeAdapter(View).validate_python(
            {"kind": "sets", "id": "s", "title": "S", "domain": "qa", "pooled": True}
        )
