"""Configuration differences: one page per pair listing exactly the fields that differ."""

from __future__ import annotations

import html
from dataclasses import replace
from itertools import combinations

from pagetools import shown

from generator.disclosure.diff import configuration_fields, field_label
from generator.pages import VersionContext
from generator.pages.blocks.cells import harness_name, model_name
from generator.pages.blocks.render import Page
from generator.pages.combination.config_diffs import diff_pages, diff_path, diffs_index, related


def _fields(ctx: VersionContext, combo: str) -> dict[str, str]:
    bundle = ctx.frame.bundles[combo]
    return configuration_fields(ctx.cards[bundle.combination.harnesscard], bundle)


def _check_pages(ctx: VersionContext, pages: list[Page]) -> None:
    combos = sorted(ctx.frame.bundles)
    assert [p.path for p in pages] == [diff_path(a, b) for a, b in combinations(combos, 2)]
    for page, (a, b) in zip(pages, combinations(combos, 2), strict=True):
        fa, fb = _fields(ctx, a), _fields(ctx, b)
        differing = {k for k in fa.keys() | fb.keys() if fa.get(k) != fb.get(k)}
        (table,) = page.tables
        # named as readers know the combinations: harness (mode) × model, as in the navigation
        names = [f"{harness_name(ctx, c)} × {model_name(ctx, c)}" for c in (a, b)]
        if names[0] == names[1]:  # the same harness and model, configured otherwise
            names = [f"{n} ({c})" for n, c in zip(names, (a, b), strict=True)]
        assert page.title == " vs ".join(names)
        heading = html.unescape(shown(page)).splitlines()[0]
        assert heading == f"# Configuration: {names[0]} and {names[1]}"
        assert table.columns[1:] == tuple(names)
        assert [r.record["field"] for r in table.rows] == [
            k for k in [*fa, *(k for k in fb if k not in fa)] if k in differing
        ]
        for row in table.rows:
            k = row.record["field"]
            assert (row.record[a], row.record[b]) == (fa.get(k, "(absent)"), fb.get(k, "(absent)"))
            assert row.record["label"] == field_label(k)
            assert row.cells[0].text == field_label(k)  # the label is shown, not the key
        text = html.unescape(shown(page))
        assert "card." not in text
        assert "configuration.pipeline" not in text
        assert (
            f"their HarnessCards and configuration records: {len(differing)} field(s)"
            in " ".join(text.split())
        )
        same = sum(k in fb and fa[k] == fb[k] for k in fa)
        assert f"{same} identical fields" in text
        assert ctx.fingerprints[a] in text
        assert ctx.fingerprints[b] in text


def test_every_pair_lists_exactly_the_fields_that_differ(
    contexts: list[VersionContext], small: VersionContext
) -> None:
    for ctx in [small, *contexts]:
        _check_pages(ctx, diff_pages(ctx))


def test_one_changed_setting_is_the_one_difference(small: VersionContext) -> None:
    bundles = dict(small.frame.bundles)
    same = [p for p in diff_pages(small) if p.stem == "p--q"]
    assert [len(p.tables[0].rows) for p in same] == [0]  # p and q: one harness, one model
    config = bundles["q"].configuration
    bundles["q"] = bundles["q"].model_copy(
        update={"configuration": config.model_copy(update={"temperature": 0.7})}
    )
    changed = replace(small, frame=replace(small.frame, bundles=bundles))
    (page,) = [p for p in diff_pages(changed) if p.stem == "p--q"]
    assert [(r.record["field"], r.record["p"], r.record["q"]) for r in page.tables[0].rows] == [
        ("configuration.temperature", str(config.temperature), "0.7")
    ]
    _check_pages(changed, diff_pages(changed))


def test_the_index_counts_each_pair_s_differences(contexts: list[VersionContext]) -> None:
    assert [c.version for c in contexts] == ["v1.0", "v1.1"]
    for ctx in contexts:
        pages = diff_pages(ctx)
        index = diffs_index(ctx, pages)
        (table,) = index.tables
        assert [r.record["page"] for r in table.rows] == [f"{p.stem}.html" for p in pages]
        assert [r.record["differing_fields"] for r in table.rows] == [
            len(p.tables[0].rows) for p in pages
        ]
        assert [(r.record["a"], r.record["b"]) for r in table.rows] == list(
            combinations(sorted(ctx.frame.bundles), 2)
        )
        assert f"the {len(ctx.frame.bundles)} published combinations" in shown(index)


def test_related_combinations_share_a_harness_or_a_model(
    contexts: list[VersionContext], small: VersionContext
) -> None:
    combos = 0
    for ctx in [small, *contexts]:
        for combo, bundle in ctx.frame.bundles.items():
            combos += 1
            mine = bundle.combination
            want = []
            for other, theirs in sorted(ctx.frame.bundles.items()):
                c = theirs.combination
                shared = [
                    what
                    for what, same in (
                        ("harness", c.harnesscard == mine.harnesscard),
                        (
                            "model",
                            c.model.name == mine.model.name
                            and c.model.version == mine.model.version,
                        ),
                    )
                    if same
                ]
                if other != combo and shared:
                    want.append((other, " and ".join(shared)))
            assert related(ctx, combo) == want
    assert combos == 12  # p, q, r and s; five combinations in v1.0, three in v1.1
    assert dict(related(small, "p"))["q"] == "harness and model"


def test_a_pair_has_one_path_whatever_its_order() -> None:
    assert diff_path("b", "a") == diff_path("a", "b") == "diffs/a--b.md"


def test_pair_pages_stay_out_of_the_search_and_the_index_does_not(
    contexts: list[VersionContext],
) -> None:
    pages = diff_pages(contexts[-1])
    assert pages
    for page in pages:
        assert not page.searched
        assert "search:\n  exclude: true\n" in page.sources()[page.path].split("---\n")[1]
    index = diffs_index(contexts[-1], pages)
    assert index.searched
    assert "search:" not in index.sources()[index.path].split("---\n")[1]
