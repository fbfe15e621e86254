"""What a release declares beyond Lingee Bench's defaults, in words for the methodology page:
each domain's outcome metric, its cells, the scoring modes its tasks use, the judged
dimensions, facets, carried state and levels. Nothing for a release that declares nothing
new (Lingee's), so its page reads as before."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from generator.models import Release, Task
from generator.models.profile import Metric
from generator.pages.blocks.text import scale_label, shown_as, spelled


def _metric(m: Metric) -> str:
    """A metric as the methodology names it: title, direction, unit and display."""
    said = [f"{m.direction} is better"]
    if m.unit:
        said.append(f"in {m.unit}")
    shown = scale_label(m.scale, m.bounds.high, m.bounds.low)
    if shown:
        said.append(shown_as(shown))
    if m.bounds.signed:
        said.append("can be negative")
    return f"{m.title} ({', '.join(said)})"


def _modes(tasks: Iterable[Task]) -> list[str]:
    counts = Counter(t.scoring.mode for t in tasks)
    out = []
    if counts["judge-only"]:
        out.append(
            f"{spelled(counts['judge-only'])} judge-only task(s): S = J, the mean of g/G over "
            "their Judge items; a run zeroed by D or a fatal item scores 0."
        )
    if counts["measure"]:
        out.append(
            f"{spelled(counts['measure'])} measure task(s): S is the run's measured value; a "
            "run zeroed by D or a fatal item, or without a value, takes the task's declared "
            "failure value (never 0 by default: 0 is the best value of a cost)."
        )
    return out


def _span(settings: list[dict[str, Any]], figure: str, keep: Callable[[str], bool]) -> str:
    """The least and greatest measured rate of a figure over the settings kept: "0.92–0.95"."""
    rates = [
        s["figures"][figure]["rate"]
        for s in settings
        if keep(s["setting"]) and figure in s["figures"]
    ]
    if not rates:
        return "—"
    low, high = f"{min(rates):.2f}", f"{max(rates):.2f}"
    return low if low == high else f"{low}–{high}"


def measured_lines(coverage: dict[str, Any] | None) -> list[str]:
    """The measured coverage of a measured outcome's intervals (``bench/coverage_measure.py``),
    as a line of the declarations; none when it has not been measured."""
    measure = (coverage or {}).get("measure")
    if not measure:
        return []
    settings = measure["settings"]
    mean, noise = "coverage: domain mean", "coverage: run noise, mean of these tasks"
    return [
        "The mean of a measured outcome takes value ± t × se over resampled tasks, corrected "
        "for the skew of its task values (Hall's transformation); "
        "over fewer tasks, the run noise of its runs (Welch–Satterthwaite). Measured on "
        f"{spelled(len(settings))} kinds of simulated release of "
        f"{settings[0]['releases']:,} each, the 95% interval held the truth: a skewed cost's "
        f"mean {_span(settings, mean, lambda s: s.startswith('cost'))}, signed earnings' "
        f"{_span(settings, mean, lambda s: s.startswith('earnings'))}; the run noise of two "
        f"or three tasks {_span(settings, noise, lambda s: 'no failed' in s)} without failed "
        f"runs, {_span(settings, noise, lambda s: 'no failed' not in s)} with "
        f"{measure['failed_runs']:.0%} of runs failed, which few runs rarely show."
    ]


def declared_lines(
    release: Release, tasks: Iterable[Task] = (), coverage: dict[str, Any] | None = None
) -> list[str]:
    """The release's declarations beyond Lingee's defaults, a Markdown line each."""
    out = []
    for d in release.domains:
        outcome = release.outcome(d.id)
        if outcome.id != "task_score":
            how = "the Task Score" if outcome.of else "a value each run measures"
            out.append(f"**{d.title}** scores in {_metric(outcome)}: {how}.")
        if d.task_sets:
            named = ", ".join(s.title for s in d.task_sets)
            out.append(
                f"**{d.title}** publishes its task sets apart ({named}): every figure lies "
                f"within one, its pages show the {d.task_sets[0].title} set, each other set "
                "has a page of its own, and the sets are compared (rank agreement with its "
                "interval), never pooled."
            )
        if d.aggregate.over == "cells":
            names = " × ".join(
                f.title.lower() for f in release.profile.facets if f.id in d.aggregate.facets
            )
            out.append(
                f"**{d.title}**: beside the equal-weight mean over tasks, the equal-weight "
                f"mean over its cells ({names}) of each cell's mean — each with its interval."
            )
    out += _modes(tasks)
    profile = release.profile
    if profile.dimensions:
        named = ", ".join(x.title for x in profile.dimensions)
        out.append(
            f"Judged dimensions: {named}. A judged overall item is a figure of its own, out of "
            "J and never recomputed from the dimensions."
        )
    if profile.facets:
        named = ", ".join(f"{f.title} ({spelled(len(f.values))} values)" for f in profile.facets)
        out.append(
            f"Facets cutting the domains into scopes: {named}. A held-out group too small to "
            "show is withheld per facet value exactly as per sub-division (§4.4)."
        )
    multi = [f.title for f in profile.facets if f.multi]
    if multi:
        out.append(
            f"{', '.join(multi)}: a task may hold several values and counts in each, so values "
            "overlap; a value's held-out figure is shown only where no group of fewer "
            "held-out tasks than the minimum can be derived from all that is shown (§4.4)."
        )
    if profile.channels:
        named = " and ".join(c.title for c in profile.channels)
        out.append(
            f"Judge channels: {named}, each with its own evaluator in every bundle. Each "
            "channel's score, with its interval and the tasks it judged, stands beside the "
            "Task Score that combines them; a channel's share of a scope is withheld where it "
            "would let a small held-out group be derived (§4.4)."
        )
    if profile.continuous_levels:
        out.append("Judge levels may be any number from 0 to G, not only whole levels.")
    if profile.carried_state == "labelled":
        out.append(
            "Combinations whose method carries state across tasks are published with a label, "
            "and their reliability@k is withheld: their runs are not independent trials "
            "(§4.2(3)). Their other intervals resample tasks as if independent, which state "
            "carried from task to task makes them only approximately."
        )
    for e in profile.experiments:
        out.append(
            f"Experiment **{e.title}** ({e.factor.lower()}, {spelled(len(e.levels))} "
            f"level{'s' if len(e.levels) != 1 else ''} against {e.baseline}): measured on "
            f"{spelled(len(set(e.targets)))} target tasks, disjoint from the "
            f"{spelled(len(set(e.sources)))} source tasks. Its treatment bundles are compared "
            "with their baselines (the same configuration fingerprint) only in its view, and "
            "are on no board."
        )
    if any(release.outcome(d.id).measured for d in release.domains):
        out += measured_lines(coverage)
    money = [
        m.title for m in release.metrics if m.measured and m.comparable and m.kind == "resource"
    ]
    if money:
        out.append(f"Compared across models: {', '.join(money)}; tokens only within a tokenizer.")
    return out
