"""A small scored version for the page tests, and the text a page shows (its blocks expanded)."""

from __future__ import annotations

import base64
import dataclasses
import json
import re
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any, NamedTuple

import yaml
from builders import FIXTURES, bundle, catalog, release, run, task, version

from generator.load import Loaded
from generator.load.source import Source
from generator.models import Bundle, HarnessCard, RunRecord
from generator.models.views import View
from generator.pages import VersionContext, version_context
from generator.pages.blocks.render import Page
from generator.pages.blocks.text import decimals
from generator.score.declared import decided
from generator.score.results import Estimate, Rate, Reliability
from generator.score.rounding import DECIMALS, fixed
from generator.score.version import score_version

CARD = HarnessCard.model_validate(
    yaml.safe_load((FIXTURES / "harnesscard" / "valid-mixed.yaml").read_text(encoding="utf-8"))
)

#: Office: public t1–t4 (a, b), held-out h1, h2 (a) and h3 (b, alone: its scopes are
#: withheld). ERP: public e1 (dual-channel, key process, boundary) and e2, sub-division x.
TASKS = [
    task("t1"),
    task("t2", rules=3),
    task("t3", sub="b"),
    task("t4", sub="b", fatal=1),
    task("h1", group="held-out"),
    task("h2", group="held-out"),
    task("h3", sub="b", group="held-out"),
    task("e1", "erp", "x", judge=(4,), risk="high", chain="chain", boundary=True),
    task("e2", "erp", "x"),
]
#: Combination -> (tokenizer, runs passing every item out of the two of each task, input
#: tokens a run spends beyond its task's own). ``s`` costs more than ``q`` and scores less.
COMBINATIONS = {
    "p": ("tok-a", 2, 150),
    "q": ("tok-a", 1, 100),
    "r": ("tok-b", 0, 50),
    "s": ("tok-a", 0, 400),
}

#: (combination, task, run) of the evaluation-incomplete runs: excluded, never scored 0.
INCOMPLETE = {("q", "t3", 2), ("s", "e2", 1)}


def _runs(combo: str, passing: int, cost: int) -> list[RunRecord]:
    out = []
    for n, t in enumerate(TASKS):
        items = t["scoring"]["rule_items"]
        of = sum(not i.get("fatal", False) for i in items)
        fatal = tuple(True for i in items if i.get("fatal"))
        judge = tuple(2 for _ in t["scoring"].get("judge_items", []))
        for i in (1, 2):
            out.append(
                run(
                    t["id"],
                    i,
                    passed=of if i <= passing else (n % of),
                    of=of,
                    fatal=fatal,
                    judge=judge,
                    tokens=(100 * (n + 1) + cost, 10 * i),
                    duration=5.0 + n + i,
                    turns=1 + i,
                    failure=None if i <= passing else "wrong",
                    valid=(combo, t["id"], i) not in INCOMPLETE,
                )
            )
    return out


def small_runs() -> dict[str, list[RunRecord]]:
    """The run records of the small version, by combination (``hidden`` has no consent)."""
    runs = {c: _runs(c, passing, cost) for c, (_, passing, cost) in COMBINATIONS.items()}
    runs["hidden"] = _runs("hidden", 2, 0)
    return runs


def bundle_with_card(combo: str, **extra: Any) -> Bundle:
    """A bundle of the builders' whose card is :data:`CARD`, with any further fields."""
    data = bundle(combo).model_dump(mode="json", exclude_none=True)
    data["combination"]["harnesscard"] = CARD.id
    return Bundle.model_validate({**data, **extra})


def small_version(change: Callable[[str, RunRecord], RunRecord] | None = None) -> VersionContext:
    """Four combinations over two tokenizers (``r`` not covered on ERP) and a fifth
    without consent, scored and made into a page context; ``change`` is given each
    combination's run records, one by one, to return another."""
    rel = release(groups={"public": 6, "held_out": 3, "min_held_out_aggregate": 2})
    runs = {c: [change(c, r) if change else r for r in rs] for c, rs in small_runs().items()}
    bundles = {
        c: bundle(
            c,
            tokenizer=tok,
            not_covered=[{"domain": "erp", "reason": "no ERP access"}] if c == "r" else None,
        )
        for c, (tok, _, _) in COMBINATIONS.items()
    }
    bundles["hidden"] = bundle("hidden", consent=False)
    loaded = version(rel, catalog(TASKS), runs, bundles)
    cards = {CARD.id: Loaded(CARD, Source("card.yaml"))}
    return version_context(score_version(loaded), cards)


def declaring(ctx: VersionContext, *views: View) -> VersionContext:
    """The context as if its release also declared ``views``: the release's profile with
    them, and each report's scopes decided again over it (as
    :func:`generator.score.report.build_report` decides them last), so the report carries
    what the views decide (a scatter's frontier, a board's ranks)."""
    profile = ctx.release.profile
    more = profile.model_copy(update={"views": (*profile.views, *views)})
    rel = ctx.release.model_copy(update={"profile": more})
    reports = {
        d: r.model_copy(update={"scopes": decided(r.scopes, rel, r.combinations)})
        for d, r in ctx.reports.items()
    }
    return dataclasses.replace(ctx, release=rel, reports=reports)


_BLOCK = re.compile(r"<!--lg-html:([A-Za-z0-9+/=]+)-->")


def shown(markdown: str | Page) -> str:
    """A page's Markdown with its finished HTML blocks (tables, charts) put back."""
    text = markdown.markdown if isinstance(markdown, Page) else markdown
    return _BLOCK.sub(lambda m: base64.b64decode(m.group(1)).decode("utf-8"), text)


class _Rows(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self._cell = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag == "td":
            self.rows[-1].append("")
            self._cell = True

    def handle_endtag(self, tag: str) -> None:
        self._cell = self._cell and tag != "td"

    def handle_data(self, data: str) -> None:
        if self._cell:
            self.rows[-1][-1] += data


def row_texts(html: str) -> list[list[str]]:
    """The text of each data cell of each table row in ``html``."""
    parser = _Rows()
    parser.feed(html)
    parser.close()
    return [row for row in parser.rows if row]


class Plot(NamedTuple):
    """What a chart draws: its div's id, its traces and its layout (plotly's JSON)."""

    div: str
    traces: list[dict[str, Any]]
    layout: dict[str, Any]


def drawn(value: float) -> float:
    """A number as a chart carries it: to the downloads' decimals."""
    return round(value, DECIMALS)


def plots(html: str) -> list[Plot]:
    """Every chart of a page (or of one chart's HTML), read from its ``Plotly.newPlot`` call."""
    decoder = json.JSONDecoder()
    found = []
    text = shown(html)
    for match in re.finditer(r"Plotly\.newPlot\(\s*", text):
        at = match.end()
        values = []
        for _ in range(3):
            value, at = decoder.raw_decode(text, at)
            values.append(value)
            at = re.compile(r"\s*,\s*").match(text, at).end()  # type: ignore[union-attr]
        found.append(Plot(*values))
    return found


__all__ = [
    "CARD",
    "COMBINATIONS",
    "INCOMPLETE",
    "TASKS",
    "Plot",
    "drawn",
    "plots",
    "row_texts",
    "shown",
    "small_runs",
    "small_version",
]


def shown_estimate(e: Estimate | Rate | Reliability) -> str:
    """An estimate as a cell should show it, written out here: the value and its bounds to
    the decimals the interval supports, joined by non-breaking spaces, † after run noise."""
    mark = "\u00a0†" if e.interval == "runs" else ""
    d = decimals(e.low, e.high)
    assert e.value is not None
    assert e.low is not None
    assert e.high is not None
    v, low, high = (fixed(x, d) for x in (e.value, e.low, e.high))  # the one rounding rule
    return f"{v}\u00a0[{low},\u00a0{high}]{mark}"
