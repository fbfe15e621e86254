"""Cells, notes and fragments the result pages share: estimates with their intervals, links
to combinations, what a rank and a † mean, the illustrative-release notice."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any

from markupsafe import Markup

from generator.pages.blocks.tables import Cell
from generator.pages.blocks.text import (
    NBSP,
    escape,
    escape_html,
    estimate,
    render_markdown,
)
from generator.pages.context import VersionContext
from generator.score.results import (
    CombinationScores,
    Estimate,
    Rate,
    Reliability,
)
from generator.score.rounding import RUNS
from generator.score.rounding import interval_mark as mark

VIEWS = ("risk_weighted_score", "key_process_success", "fatal_error_rate", "boundary_correctness")


def estimate_cell(e: Estimate | Rate | Reliability | None) -> Cell:
    if e is None or e.value is None:
        return Cell("—")
    return Cell(estimate_text(e), e.value)


def efficiency_cell(
    metric: str, text: Callable[[float | None], str]
) -> Callable[[CombinationScores], Cell]:
    """A combination's efficiency figure as ``text`` writes it, sorted by its value; where
    some valid runs leave the count out, followed by the runs it rests on ("on 40 of 60
    runs"), so that a partial mean never reads as a whole one; "not recorded" where no
    valid run records it."""

    def show(c: CombinationScores) -> Cell:
        value = getattr(c.efficiency, metric) if c.efficiency else None
        runs = c.efficiency.recorded.get(metric) if c.efficiency else None
        if value is None and runs == 0:
            return Cell("not recorded")
        if value is None or runs is None or c.coverage is None:
            return Cell(text(value), value)
        return Cell(f"{text(value)} (on {runs} of {c.coverage.valid_runs} runs)", value)

    return show


def estimate_text(e: Estimate | Rate | Reliability) -> str:
    """An estimate with its interval to the precision the interval supports, on one line,
    and what its interval is (:func:`interval_mark`)."""
    return estimate(e.value, e.low, e.high) + interval_mark(e)


# Beside an interval over too few tasks to resample: it covers run-to-run noise only.
RUNS_MARK = NBSP + RUNS


def interval_mark(e: Estimate | Rate | Reliability) -> str:
    """What follows a figure on a page (:func:`generator.score.rounding.interval_mark`, the
    † after a non-breaking space)."""
    return mark(e.value, e.low, e.high, e.interval, NBSP)


def runs_note(minimum: int) -> str:
    """What the † beside an interval means."""
    return (
        f"† Over fewer than {minimum} tasks: the interval shows only the run-to-run noise of "
        "these tasks, not the spread of a task population."
    )


def estimate_record(prefix: str, e: Estimate | Rate | Reliability | None) -> dict[str, Any]:
    if e is None:
        return {prefix: None, f"{prefix}_low": None, f"{prefix}_high": None}
    return {
        prefix: e.value,
        f"{prefix}_low": e.low,
        f"{prefix}_high": e.high,
        f"{prefix}_interval": e.interval,
    }


def harness_name(ctx: VersionContext, combo: str) -> str:
    """The combination's harness as readers know it: the HarnessCard's harness name, and the
    title of the mode it ran in, if the card declares modes (§5.2)."""
    c = ctx.frame.bundles[combo].combination
    axes = ctx.release.profile.axes
    if axes:  # its place on the release's axes but the last (method, over the backbone)
        return " · ".join(c.axes[a.id] for a in axes[:-1])
    card = ctx.cards[c.harnesscard]
    mode = next((m.title for m in card.modes if m.id == c.harness_mode), None)
    return f"{card.harness.name} ({mode.lower()})" if mode else card.harness.name


def model_name(ctx: VersionContext, combo: str) -> str:
    """The combination's model by its name (its value on the release's last axis, when the
    release declares axes)."""
    c = ctx.frame.bundles[combo].combination
    axes = ctx.release.profile.axes
    return c.axes[axes[-1].id] if axes else c.model.name


@lru_cache(maxsize=4096)
def combination_link(
    combo: str,
    depth: int,
    harness: str,
    model: str,
    fingerprint: str | None = None,
    below_floor: bool = False,
    carried: bool = False,
) -> str:
    """A combination in two short lines — its harness, linked to its result card, over
    "× model" and its configuration fingerprint as a small badge (remembered: every task page
    shows every combination)."""
    prefix = "../" * depth
    link = (
        f'<a href="{prefix}combinations/{escape(combo)}.html">{escape(harness)}</a>'
        f'<br><span class="lg-sub">×{NBSP}{escape(model)}</span>'
    )
    if fingerprint:
        link += (
            f' <span class="lg-badge" title="configuration fingerprint">'
            f"{escape(fingerprint)}</span>"
        )
    if below_floor:
        link += '<br><span class="lg-withheld">below the disclosure floor</span>'
    if carried:
        link += f'<br><span class="lg-withheld">{CARRIED}</span>'
    return link


#: The label of a combination whose method carries state across tasks (§4.2(3)).
CARRIED = "carries state across tasks"


def combo_cell(ctx: VersionContext, combo: str, depth: int) -> Cell:
    """A combination as every score table shows it: harness over model, fingerprint badge,
    floor label; sorted by its harness and model. (A combination whose bundle the frame
    left out shows its id.)"""
    if combo not in ctx.frame.bundles:
        return Cell(escape(combo), combo, html=True)
    harness, model = harness_name(ctx, combo), model_name(ctx, combo)
    return Cell(
        combination_link(
            combo,
            depth,
            harness,
            model,
            ctx.fingerprints.get(combo),
            bool(ctx.below_floor.get(combo)),
            ctx.frame.bundles[combo].carried_state is not None,
        ),
        f"{harness} × {model}",
        html=True,
    )


STATUS_TEXT = {
    "scored": "",
    "not-covered": "not covered",
    "no-valid-runs": "no valid runs",
    "withheld": "withheld",
}


def rank_note(minimum: int, confidence: float) -> str:
    """What a rank range means, as the pages say it."""
    return (
        "Rank: the best to the worst rank the data allows. A combination ranks below another "
        f"only when their paired difference is significant (its {confidence:.0%} interval "
        "excludes 0, over "
        f"at least {minimum} common tasks); overlapping ranges are not ordered by the data, "
        "though listed by score."
    )


def groups_note(ctx: VersionContext, groups: list[list[str]]) -> str:
    """Which combinations are compared with which, when settings vary by design (§4.1), by
    the names readers know; one alone in its group is compared with none, and not ranked."""
    shown = " · ".join("{" + ", ".join(display_name(ctx, c) for c in g) + "}" for g in groups)
    alone = [display_name(ctx, g[0]) for g in groups if len(g) == 1]
    said = (
        f"The release lets {', '.join(ctx.release.varying())} vary by design (§4.1): "
        f"differences, ranks and the frontier compare only combinations that share them: "
        f"{shown}."
    )
    if len(groups) > 1 and alone:
        said += f" Alone in its group, {' · '.join(alone)} is compared with none and not ranked."
    return said


def runs_basis(c: CombinationScores) -> bool:
    """Whether any interval of the combination covers run noise only."""
    shown = [c.task_score, c.rule_score, c.judge_score, c.success_rate, *c.reliability]
    return any(e is not None and e.interval == "runs" for e in shown)


def gated_cell(name: str, show: Callable[[Any], Cell]) -> Callable[[CombinationScores], Cell]:
    """A combination's figure ``name`` (its field, e.g. ``rule_score``) as ``show`` writes
    it, or "withheld" where the privacy gate withheld it (§4.4)."""

    def cell(c: CombinationScores) -> Cell:
        found = getattr(c, name)
        return Cell("withheld") if found is None and name in c.withheld else show(found)

    return cell


def judge_cell(c: CombinationScores, elsewhere: str = "") -> Cell:
    """The Judge score with its coverage, or why it is withheld — and, given ``elsewhere``
    (a link, safe HTML), where the withheld number can be read instead."""
    coverage = c.judge_coverage or ""
    if c.judge_score is None or c.judge_score.value is None:
        if coverage.startswith("withheld") and elsewhere:
            return Cell(f"withheld: {elsewhere}", html=True)
        return Cell("withheld" if coverage.startswith("withheld") else "—")
    text = estimate_text(c.judge_score)
    return Cell(
        f'{escape_html(text)}<br><span class="lg-sub">{escape_html(coverage)}</span>',
        c.judge_score.value,
        html=True,
    )


def view_cell(
    e: Estimate | Rate | None, name: str, withheld: list[str], elsewhere: str = ""
) -> Cell:
    """A business view with its interval, or why there is none (and, given ``elsewhere``, a
    link to where a withheld view can be read instead)."""
    if e is None:
        if name in withheld and elsewhere:
            return Cell(f"withheld: {elsewhere}", html=True)
        return Cell("withheld" if name in withheld else "not applicable")
    return estimate_cell(e)


def elsewhere_link(href: str, label: str) -> str:
    """A link to where a withheld number can be read instead, as a cell shows it."""
    return f'<a class="lg-elsewhere" href="{escape_html(href)}">see {escape_html(label)}</a>'


#: Beside a score that rests on fewer tasks than the others of its table.
FEWER_MARK = NBSP + "‡"


def scored_tasks(c: CombinationScores) -> int | None:
    """The tasks a scored combination's scores rest on (those with valid runs)."""
    if c.status != "scored" or c.coverage is None:
        return None
    return c.coverage.valid_tasks


def fewer_tasks(combos: Iterable[CombinationScores]) -> dict[str, int]:
    """The combinations of one table whose scores rest on fewer tasks than the most any of
    them rests on: combination -> its tasks. Empty when all rest on as many."""
    counts = {c.combination: n for c in combos if (n := scored_tasks(c)) is not None}
    most = max(counts.values(), default=0)
    return {k: n for k, n in counts.items() if n < most}


def fewer_note(ctx: VersionContext, fewer: Mapping[str, int], tasks: int, domain: str) -> str:
    """What the ‡ beside a score means, naming each marked combination, its tasks and the
    parts of the ``domain`` it does not cover (else its other tasks had no valid runs)."""
    if not fewer:
        return ""
    named = "; ".join(
        f"{display_name(ctx, k)}: {n} of {tasks} tasks{_not_covered(ctx, k, domain)}"
        for k, n in sorted(fewer.items())
    )
    return f"‡ Over fewer tasks than the others in this table, so not over the same tasks: {named}."


def _not_covered(ctx: VersionContext, combo: str, domain: str) -> str:
    """`` (not covered: <titles>)`` for the parts of ``domain`` the combination's bundle does
    not cover; empty if it covers them all."""
    bundle = ctx.frame.bundles.get(combo)
    titles = {(d.id, s.id): s.title for d in ctx.release.domains for s in d.subdivisions}
    gaps = [
        titles.get((domain, nc.subdivision), nc.subdivision) if nc.subdivision else "all"
        for nc in (bundle.not_covered if bundle else ())
        if nc.domain == domain
    ]
    return f" (not covered: {', '.join(gaps)})" if gaps else ""


def display_names(ctx: VersionContext) -> dict[str, str]:
    """Every combination of the version by its display name (:func:`display_name`); where
    two share one (the same harness and model, configured otherwise), each with its id."""
    names = {combo: display_name(ctx, combo) for combo in sorted(ctx.frame.bundles)}
    shared = Counter(names.values())
    return {k: f"{n} ({k})" if shared[n] > 1 else n for k, n in names.items()}


def display_name(ctx: VersionContext, combo: str) -> str:
    """A combination in one line: harness × model (its id if the frame left it out)."""
    if combo not in ctx.frame.bundles:
        return combo
    return f"{harness_name(ctx, combo)} × {model_name(ctx, combo)}"


def release_notice(ctx: VersionContext) -> Markup:
    """The release's ``notice`` as a banner, whenever it gives one (an illustrative release
    must): titled "Illustrative release" for such a release, else "Notice"."""
    if not ctx.release.notice:
        return Markup("")
    title = "Illustrative release" if ctx.release.illustrative else "Notice"
    return Markup(
        '<div class="admonition warning lg-illustrative"><p class="admonition-title">'
        f"{title}</p>" + render_markdown(ctx.release.notice) + "</div>"
    )
