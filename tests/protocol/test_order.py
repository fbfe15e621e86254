"""Best first: descending when higher is better, ascending when lower is (§4.2)."""

from __future__ import annotations

from builders import release

from generator.protocol.order import best_first, metric_first


def test_the_best_end_follows_the_direction() -> None:
    assert best_first(True) == "desc"
    assert best_first(False) == "asc"


def test_a_release_s_metric_is_ordered_by_its_declared_direction() -> None:
    rel = release()
    directions = {m.id: m.direction for m in rel.metrics}
    assert "higher" in directions.values()
    for metric, direction in directions.items():
        assert metric_first(rel, metric) == ("desc" if direction == "higher" else "asc")
    assert metric_first(rel, "no-such-metric") is None
