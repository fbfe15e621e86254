"""Rules of a declared profile (generator/check/profile.py): what a release declares refers to
what it declares; tasks and bundles follow it; Lingee's release, declaring nothing new, passes."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from builders import FACETS, bundle, profiled, release, task

from generator.check.profile import (
    check_axes_once,
    check_bundle_profile,
    check_profile,
    check_task_profile,
)
from generator.errors import Problem
from generator.load import Loaded, LoadedBundle
from generator.load.records import columns_from_records
from generator.load.source import Source
from generator.models import Bundle, Release, Task
from generator.models.profile import BUSINESS_METRICS, CORE_METRICS, KNOWN_METRICS


def _problems(model: Release) -> list[Problem]:
    return list(check_profile(Loaded(model, Source("r.yaml"))))


def _messages(problems: list[Problem]) -> list[str]:
    return [f"{p.field}: {p.message}" for p in problems]


def test_lingee_and_a_good_profile_pass() -> None:
    assert _problems(release()) == []
    assert _problems(profiled()) == []


def test_metrics_the_engine_needs_and_the_runs_measure() -> None:
    metrics = release().metrics
    assert {m.id for m in metrics} == set(KNOWN_METRICS)
    for dropped in (CORE_METRICS[0], BUSINESS_METRICS[0]):
        kept = tuple(m for m in metrics if m.id != dropped)
        assert _messages(_problems(release(metrics=[m.model_dump() for m in kept]))) == [
            f"metrics: direction not declared for {[dropped]}; every computed metric needs one"
        ]
    optional = tuple(m.model_dump() for m in metrics if m.id != "turns")
    assert _problems(release(metrics=optional)) == []
    vibes = {"id": "vibes", "title": "V", "direction": "higher"}
    (message,) = _messages(_problems(release(metrics=[*optional, vibes])))
    assert "unknown metric ids ['vibes']" in message
    assert "'measured: true'" in message
    turns = {"id": "turns", "title": "T", "direction": "lower", "measured": True}
    (message,) = _messages(_problems(release(metrics=[*optional, turns])))
    assert "['turns'] are computed by the engine, not measured" in message


def test_profile_ids_are_declared_once() -> None:
    twice = profiled(axes=[{"id": "m", "title": "M"}, {"id": "m", "title": "M2"}])
    assert _messages(_problems(twice)) == ["profile.axes: repeated ids: ['m']"]
    facets = copy.deepcopy(FACETS)
    facets[1]["values"].append({"id": "easy", "title": "again"})
    assert _messages(_problems(profiled(facets=facets))) == [
        "profile.facets[1].values: repeated ids: ['easy']"
    ]


def test_a_domain_names_a_measured_outcome_and_its_own_facets() -> None:
    data = profiled().model_dump(mode="json", exclude_none=True)
    data["domains"][3]["outcome"] = "earnings"
    data["domains"][2]["facets"] = ["capability", "colour"]
    data["domains"][2]["aggregate"]["facets"] = ["difficulty"]
    messages = _messages(_problems(Release.model_validate(data)))
    assert any("domains[3].outcome: 'earnings' is neither 'task_score'" in m for m in messages)
    assert any("domains[2].facets[1]: 'colour' is not a facet" in m for m in messages)
    assert any("domains[2].aggregate.facets: ['difficulty'] do not cut qa" in m for m in messages)


def test_a_required_field_needs_its_enumeration() -> None:
    data = release().model_dump(mode="json", exclude_none=True)
    data["enumerations"]["scenario_categories"] = []
    messages = _messages(_problems(Release.model_validate(data)))
    assert messages == [
        "enumerations.scenario_categories: empty, but every task must give a scenario_category "
        "(profile.task_fields); declare the values, or leave scenario_category out of task_fields"
    ]
    data["profile"] = {"task_fields": ["interaction"]}
    assert _problems(Release.model_validate(data)) == []


BOARD = {"kind": "board", "id": "b", "title": "B", "per": "backbone", "columns": "method"}


@pytest.mark.parametrize(
    ("view", "says"),
    [
        ({**BOARD, "rows": [{"domain": "qa"}], "per": "colour"}, "per: 'colour' is not an axis"),
        ({**BOARD, "rows": [{"domain": "qa"}], "columns": "backbone"}, "columns: a board's"),
        ({**BOARD, "rows": [{"domain": "nope"}]}, "rows[0].domain: 'nope' is not a domain"),
        (
            {**BOARD, "rows": [{"domain": "qa", "facets": {"difficulty": "mid"}}]},
            "rows[0].facets: 'mid' is not a value of 'difficulty'",
        ),
        (
            {**BOARD, "rows": [{"domain": "game", "facets": {"difficulty": "easy"}}]},
            "rows[0].facets: 'difficulty' does not cut game",
        ),
        (
            {
                "kind": "grid",
                "id": "g",
                "title": "G",
                "domain": "qa",
                "rows": "method",
                "columns": "method",
            },
            "columns: a grid's rows and columns are two different axes",
        ),
        (
            {
                "kind": "grid",
                "id": "g",
                "title": "G",
                "domain": "qa",
                "metric": "x",
                "rows": "method",
                "columns": "backbone",
            },
            "metric: 'x' is not a metric of the release",
        ),
        ({"kind": "dimensions", "id": "d", "title": "D", "domain": "x"}, "domain: 'x' is not"),
        (
            {
                "kind": "resources",
                "id": "r",
                "title": "R",
                "domain": "qa",
                "metrics": ["calls", "cost"],
            },
            "metrics: 'cost' is not a resource metric of the release",
        ),
    ],
)
def test_views_refer_to_what_the_release_declares(view: dict[str, Any], says: str) -> None:
    messages = _messages(_problems(profiled(views=[view])))
    assert len(messages) == 1, messages
    assert messages[0].startswith("profile.views[0].")
    assert says in messages[0]


def test_a_good_board_grid_and_resources_pass() -> None:
    views = [
        {**BOARD, "rows": [{"domain": "qa", "facets": {"difficulty": "hard"}}, {"domain": "game"}]},
        {
            "kind": "grid",
            "id": "g",
            "title": "G",
            "domain": "qa",
            "rows": "method",
            "columns": "backbone",
        },
        {
            "kind": "resources",
            "id": "r",
            "title": "R",
            "domain": "qa",
            "metrics": ["calls", "input_tokens"],
        },
    ]
    assert _problems(profiled(views=views)) == []


def _task_problems(model: Release, data: dict[str, Any]) -> list[str]:
    return _messages(list(check_task_profile(model, Task.model_validate(data), Source("t"), 0)))


def _qa_task(**facets: str) -> dict[str, Any]:
    data = task("q1", "qa", sub=None)  # type: ignore[arg-type]
    data.pop("subdivision")
    data["facets"] = facets
    return data


def test_a_task_gives_its_facets_and_required_fields() -> None:
    model = profiled()
    assert _task_problems(model, _qa_task(capability="ie", difficulty="easy")) == []
    assert _task_problems(model, _qa_task(capability="ie")) == [
        "tasks[0].facets: no value for 'difficulty', which cuts qa; expected one of "
        "['easy', 'hard']"
    ]
    assert _task_problems(model, _qa_task(capability="ie", difficulty="mid", colour="red")) == [
        "tasks[0].facets: 'mid' is not a value of 'difficulty'; expected one of ['easy', 'hard']",
        "tasks[0].facets: 'colour' does not cut qa; its facets: ['capability', 'difficulty']",
    ]
    bare = _qa_task(capability="ie", difficulty="easy")
    del bare["industry"]
    bare["subdivision"] = "a"
    assert _task_problems(model, bare) == [
        "tasks[0].industry: missing: this release requires it of every task (profile.task_fields)",
        "tasks[0].subdivision: qa declares no subdivisions; remove it",
    ]
    office = task("o1")
    del office["subdivision"]
    assert _task_problems(model, office) == [
        "tasks[0].subdivision: missing: a category of office; expected one of ['a', 'b']"
    ]


def _game_task(mode: str = "measure", **scoring: Any) -> dict[str, Any]:
    data = task("g1", "game", sub=None)  # type: ignore[arg-type]
    data.pop("subdivision")
    data["scoring"] = {"mode": mode, "core_delivery": "25 steps", **scoring}
    return data


def test_a_domain_scores_in_one_outcome_metric() -> None:
    model = profiled()
    assert _task_problems(model, _game_task(measure="cost", failure_value=9e4)) == []
    (wrong,) = _task_problems(model, _game_task(measure="calls", failure_value=1.0))
    assert "measure 'calls' differs from game's outcome 'cost'" in wrong
    (negative,) = _task_problems(model, _game_task(measure="cost", failure_value=-1.0))
    assert "failure_value -1.0 lies outside cost's range" in negative
    ruled = _game_task("rule-only", rule_items=[{"id": "R1", "title": "r"}])
    (mixed,) = _task_problems(model, ruled)
    assert "mode 'rule-only', but game scores in the measure 'cost'" in mixed
    measured = _qa_task(capability="ie", difficulty="easy")
    measured["scoring"] = _game_task(measure="cost", failure_value=1.0)["scoring"]
    (in_qa,) = _task_problems(model, measured)
    assert "differs from qa's outcome 'task_score'" in in_qa


def test_judge_items_name_declared_dimensions() -> None:
    data = _qa_task(capability="ie", difficulty="easy")
    data["scoring"] = {
        "mode": "judge-only",
        "core_delivery": "d",
        "judge_items": [
            {"id": "J1", "title": "s", "max_level": 10, "dimension": "structure"},
            {"id": "J2", "title": "s", "max_level": 10, "dimension": "structur"},
        ],
    }
    (message,) = _task_problems(profiled(), data)
    assert "judge item J2: 'structur' is not a dimension of the release" in message


def _loaded_bundle(model: Bundle) -> LoadedBundle:
    return LoadedBundle(
        model.combination.id,
        Loaded(model, Source("b.yaml")),
        columns_from_records([], []),
        "runs.jsonl",
    )


def _placed(combo: str, state: str | None = None, **axes: str) -> Bundle:
    data = bundle(combo).model_dump(mode="json", by_alias=True, exclude_none=True)
    data["combination"]["axes"] = axes
    data["combination"]["tags"] = ["memory"]
    if state:
        data["carried_state"] = state
    return Bundle.model_validate(data)


def test_a_bundle_sits_on_the_axes_with_declared_tags() -> None:
    model = profiled()
    good = _placed("a", method="CoT", backbone="GPT")
    assert list(check_bundle_profile(model, _loaded_bundle(good))) == []
    odd = _placed("b", method="CoT", colour="red")
    assert _messages(list(check_bundle_profile(model, _loaded_bundle(odd)))) == [
        "combination.axes: no value on the release's axes ['backbone']",
        "combination.axes: ['colour'] are not axes of the release; expected ['method', 'backbone']",
    ]
    (tag,) = _messages(
        list(
            check_bundle_profile(
                release(),
                _loaded_bundle(
                    bundle("c").model_copy(
                        update={"combination": good.combination.model_copy(update={"axes": {}})}
                    )
                ),
            )
        )
    )
    assert tag == "combination.tags: 'memory' is not a tag of the release"


def test_carried_state_is_refused_unless_the_release_labels_it() -> None:
    memory = _placed("a", "an episodic memory across tasks", method="AMEM", backbone="GPT")
    assert list(check_bundle_profile(profiled(), _loaded_bundle(memory))) == []
    refused = profiled(carried_state="refused")
    (message,) = _messages(list(check_bundle_profile(refused, _loaded_bundle(memory))))
    assert message.startswith("carried_state: this method carries state across tasks")
    assert "(§4.2(3))" in message


def test_two_combinations_never_share_a_place() -> None:
    one = _placed("a", method="CoT", backbone="GPT")
    two = _placed("b", method="CoT", backbone="GPT")
    other = _placed("c", method="GEPA", backbone="GPT")
    found = list(check_axes_once(profiled(), [_loaded_bundle(b) for b in (one, two, other)]))
    assert [(p.path, p.field) for p in found] == [("b.yaml", "combination.axes")]
    assert "also the place of 'a'" in found[0].message


def test_a_domain_may_show_the_task_score_under_its_own_scale() -> None:
    """A judged score in [0, 1] shown on 0-10: a metric 'of: task_score', the domain's
    outcome; its tasks are judged as any (not a measure), and an id without it is refused."""
    shown = {
        "id": "judged",
        "title": "Judged",
        "direction": "higher",
        "of": "task_score",
        "scale": 0.1,
    }
    data = profiled().model_dump(mode="json", exclude_none=True)
    data["metrics"].append(shown)
    data["domains"][2]["outcome"] = "judged"
    model = Release.model_validate(data)
    assert _problems(model) == []
    assert model.outcome("qa").unit_interval
    assert _task_problems(model, _qa_task(capability="ie", difficulty="easy")) == []
    data["metrics"][-1] = {k: v for k, v in shown.items() if k != "of"}
    messages = _messages(_problems(Release.model_validate(data)))
    assert any("unknown metric ids ['judged']" in m for m in messages)
    assert any("domains[2].outcome: 'judged' is neither" in m for m in messages)


MONEY = {
    "id": "cost_cny",
    "title": "Cost",
    "direction": "lower",
    "measured": True,
    "currency": "CNY",
}
PRICING = {"currency": "CNY", "source": "provider price lists", "date": "2026-06-01"}


def _with_money(*metrics: dict[str, Any]) -> Release:
    data = profiled().model_dump(mode="json", exclude_none=True)
    data["metrics"] += list(metrics)
    return Release.model_validate(data)


def test_money_is_measured_in_one_currency() -> None:
    assert _problems(_with_money(MONEY)) == []
    unmeasured = _messages(_problems(_with_money({**MONEY, "measured": False})))
    assert any("['cost_cny'] are money: each run records what it cost" in m for m in unmeasured)
    usd = {**MONEY, "id": "cost_usd", "currency": "USD"}
    (several,) = _messages(_problems(_with_money(MONEY, usd)))
    assert "money in several currencies ['CNY', 'USD']" in several


def _priced(pricing: dict[str, str] | None) -> Bundle:
    data = _placed("a", method="CoT", backbone="GPT").model_dump(mode="json", exclude_none=True)
    if pricing is not None:
        data["pricing"] = pricing
    return Bundle.model_validate(data)


def test_a_bundle_discloses_its_pricing_in_the_release_s_currency() -> None:
    money = _with_money(MONEY)
    assert list(check_bundle_profile(money, _loaded_bundle(_priced(PRICING)))) == []
    (missing,) = _messages(list(check_bundle_profile(money, _loaded_bundle(_priced(None)))))
    assert missing.startswith("pricing: none; this release counts money in CNY")
    usd = {**PRICING, "currency": "USD"}
    (other,) = _messages(list(check_bundle_profile(money, _loaded_bundle(_priced(usd)))))
    assert other.startswith("pricing: prices in USD; this release counts money in CNY")
    assert list(check_bundle_profile(profiled(), _loaded_bundle(_priced(None)))) == []


def test_rule_items_name_declared_rule_classes() -> None:
    data = _qa_task(capability="ie", difficulty="easy")
    data["scoring"]["rule_items"][0]["rule_class"] = "file-typ"
    model = profiled(rule_classes=[{"id": "file-type", "title": "File type"}])
    (message,) = _task_problems(model, data)
    assert "rule item R1: 'file-typ' is not a rule class of the release" in message
    data["scoring"]["rule_items"][0]["rule_class"] = "file-type"
    assert _task_problems(model, data) == []
