"""One version scored: its published runs, each run's scores and every domain's report.

The scoring stage of the build (:func:`generator.build.build`) starts here: each domain of a
version is aggregated on its own (§4.4: no figure mixes domains), from the same scored runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from generator.load import LoadedRelease
from generator.memory import release_unused_memory
from generator.models import Release
from generator.score.experiments import experiment_results
from generator.score.frame import VersionFrame
from generator.score.report import build_report, published_frame
from generator.score.results import Report
from generator.score.runs import score_runs


@dataclass(frozen=True)
class ScoredVersion:
    """A checked version with its scores."""

    loaded: LoadedRelease
    frame: VersionFrame  # the runs of bundles with publication consent (§7.2)
    scored: pd.DataFrame  # the frame's runs with their scores (score_runs)
    reports: Mapping[str, Report]  # by domain id, in the release's order

    @property
    def release(self) -> Release:
        return self.frame.release


def score_version(loaded: LoadedRelease) -> ScoredVersion:
    """Score every run of a checked version, then report each of its domains."""
    assert loaded.release is not None, "a version is scored only once its release is read"
    frame = published_frame(loaded)
    scored = score_runs(frame)
    experiments = experiment_results(loaded)  # treatments are in their experiments only
    reports = {}
    for domain in frame.release.domains:
        found = experiments.get(domain.id, [])
        reports[domain.id] = build_report(loaded, domain.id, frame, scored, found)
        release_unused_memory()  # the bootstrap's temporaries
    return ScoredVersion(loaded=loaded, frame=frame, scored=scored, reports=reports)
