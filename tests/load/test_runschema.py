"""The Arrow schema of a runs file and the vectorised checks, both read off the run models."""

from __future__ import annotations

import json
import typing

import annotated_types as at
import pyarrow as pa
import pyarrow.json as pj
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic.fields import FieldInfo

from generator.load.runschema import (
    PARSE,
    SCHEMA,
    arrow_schema,
    arrow_type,
    bad_values,
    field_constraints,
    flag_rows,
    implemented,
    models_checked_in_bulk,
    to_bools,
    unwrap,
)
from generator.models.base import Id, Text
from generator.models.runs import JudgeVerdict, RuleVerdict, RunRecord

GOOD = {
    "task": "t1",
    "run": 1,
    "seed": 0,
    "status": "valid",
    "delivery": True,
    "rules": [{"id": "R1", "pass": True}],
    "judge": [{"id": "J1", "level": 1, "evidence": ["E1"]}],
    "judge_valid": True,
    "input_tokens": 1,
    "output_tokens": 1,
    "duration_s": 1.0,
    "turns": 1,
}


def test_the_schema_comes_from_the_model() -> None:
    assert arrow_schema(RunRecord) == SCHEMA
    assert set(SCHEMA.names) == {f.alias or n for n, f in RunRecord.model_fields.items()}
    judge = SCHEMA.field("judge").type.value_type
    assert judge.field("level").type == pa.float64()  # a level may be continuous
    assert SCHEMA.field("rules").type.value_type.field("pass").type == pa.bool_()


def test_unwrap_removes_annotated_and_optional() -> None:
    assert unwrap(int) == (int, False)
    assert unwrap(int | None) == (int, True)
    assert unwrap(typing.Annotated[str | None, "x"]) == (str, True)
    assert unwrap(typing.Optional[typing.Annotated[float, "y"]]) == (float, True)  # noqa: UP045


def test_arrow_types_follow_the_annotations() -> None:
    assert arrow_type(bool) == pa.bool_()
    assert arrow_type(int | None) == pa.int64()
    assert arrow_type(typing.Literal["a", "b"]) == pa.string()
    assert arrow_type(tuple[str, ...]) == pa.list_(pa.string())
    assert arrow_type(RuleVerdict) == pa.struct([("id", pa.string()), ("pass", pa.bool_())])


def test_field_constraints_expand_grouped_constraints() -> None:
    info = FieldInfo.from_annotation(Id)
    found = field_constraints(info, info.annotation)
    assert any(isinstance(m, at.MaxLen) and m.max_length == 128 for m in found)
    assert not any(isinstance(m, at.GroupedMetadata) for m in found)
    bounded = FieldInfo.from_annotation(typing.Annotated[int, Field(ge=0, le=9)] | None)
    kinds = {type(m) for m in field_constraints(bounded, bounded.annotation)}
    assert {at.Ge, at.Le} <= kinds


def test_every_constraint_of_the_run_record_is_implemented_or_left_to_pydantic() -> None:
    fields = 0
    for model in (RunRecord, RuleVerdict, JudgeVerdict):
        for info in model.model_fields.values():
            assert implemented(info, info.annotation)  # today's models: all implemented
            fields += 1
    assert fields == sum(len(m.model_fields) for m in (RunRecord, RuleVerdict, JudgeVerdict)) > 0


def test_a_note_with_a_refused_character_is_flagged_as_pydantic_refuses_it() -> None:
    info = RunRecord.model_fields["note"]
    values = ["ok", "bell\a", "\x00", "rtl \u202e", "c1 \x85 x", "tab\tline\nend", " pad ", None]
    got = bad_values(pa.array(values, pa.string()), info, info.annotation).tolist()

    class One(BaseModel):
        note: Text | None

    def refused(v: str) -> bool:
        try:
            One(note=v)
        except ValidationError:
            return True
        return False

    # " pad " is flagged for pydantic to strip (Arrow strips less); it accepts it
    assert got == [False, True, True, True, True, False, True, False]
    assert [v is not None and refused(v) for v in values] == [
        False, True, True, True, True, False, False, False
    ]  # fmt: skip


def test_bad_values_follow_the_field_constraints() -> None:
    info = JudgeVerdict.model_fields["id"]
    values = ["J1", "", "-a", "a b", "x" * 128, "x" * 129, None]
    got = bad_values(pa.array(values, pa.string()), info, info.annotation).tolist()

    class One(BaseModel):
        id: Id

    def refused(v: str) -> bool:
        try:
            One(id=v)
        except ValidationError:
            return True
        return False

    assert got == [False if v is None else refused(v) for v in values]
    level = JudgeVerdict.model_fields["level"]
    assert bad_values(pa.array([0, 3, -1]), level, level.annotation).tolist() == [
        False,
        False,
        True,
    ]


def test_an_unknown_constraint_fails_closed() -> None:
    info = FieldInfo.from_annotation(typing.Annotated[str, at.Predicate(str.isupper)])
    assert not implemented(info, info.annotation)
    flagged = bad_values(pa.array(["A", "b", None]), info, info.annotation)
    assert flagged.tolist() == [True, True, False]  # every value goes to pydantic


@settings(max_examples=examples(40), deadline=None)
@given(
    st.lists(
        st.one_of(st.none(), st.text("Rr0_.- é", max_size=4), st.just("R" * 129)),
        min_size=1,
        max_size=30,
    )
)
def test_long_string_columns_are_checked_by_distinct_value(values: list[str | None]) -> None:
    """Past 4,096 values an id column is checked once per distinct value; every value is
    judged as when checked one by one (nulls are not the constraint's business)."""
    info = JudgeVerdict.model_fields["id"]
    many = pa.array(values * (4097 // len(values) + 1), pa.string())
    one_by_one = [
        bool(bad_values(pa.array([v], pa.string()), info, info.annotation)[0]) for v in values
    ]
    assert bad_values(many, info, info.annotation).tolist() == one_by_one * (
        len(many) // len(values)
    )


def test_a_column_of_more_than_4096_distinct_strings_is_checked() -> None:
    """Free-text rationales are all distinct: the dictionary holds every value, and the
    check of its values is the check of a flat array (not another dictionary)."""
    info = JudgeVerdict.model_fields["id"]
    values = [f"R{i}" for i in range(5000)] + ["bad id", None]
    flagged = bad_values(pa.array(values, pa.string()), info, info.annotation)
    assert flagged.tolist() == [False] * 5000 + [True, False]


def test_to_bools_reads_nulls_as_asked() -> None:
    array = pa.array([True, None, False])
    assert to_bools(array).tolist() == [True, False, False]
    assert to_bools(array, True).tolist() == [True, True, False]


def test_flag_rows_marks_the_records_pydantic_refuses() -> None:
    records = [dict(GOOD)]
    records.append({**GOOD, "run": 0})  # run >= 1
    records.append({**GOOD, "rules": [{"id": "bad id", "pass": True}]})
    records.append({**GOOD, "judge": [{"id": "J1", "level": -2}]})
    records.append({**GOOD, "duration_s": -1.0})
    records.append({k: v for k, v in GOOD.items() if k != "delivery"})  # required
    records.append({**GOOD, "task": "t2", "seed": 5})
    text = "\n".join(json.dumps(r) for r in records).encode()
    table = pj.read_json(pa.BufferReader(text), parse_options=PARSE)

    def refused(record: dict[str, object]) -> bool:
        try:
            RunRecord.model_validate(record)
        except ValidationError:
            return True
        return False

    assert flag_rows(table).tolist() == [refused(r) for r in records]
    assert flag_rows(table).tolist() == [False, True, True, True, True, True, False]


def test_models_with_validator_functions_go_to_pydantic_whole() -> None:
    class Checked(BaseModel):
        x: int

        @field_validator("x")
        @classmethod
        def _even(cls, v: int) -> int:
            return v

    class Lowered(BaseModel):
        model_config = ConfigDict(str_to_lower=True)
        y: str

    assert models_checked_in_bulk((RunRecord, RuleVerdict, JudgeVerdict))
    assert not models_checked_in_bulk((Checked,))
    assert not models_checked_in_bulk((Lowered,))
