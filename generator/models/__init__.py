"""The data contract: frozen pydantic models, the single source of truth for every input.

Their JSON Schemas (``python -m generator schema``) are generated from these classes.
"""

from pydantic import BaseModel

from generator.models.base import FORMAT_VERSION
from generator.models.bundle import Bundle
from generator.models.catalog import Catalog, Task
from generator.models.deepdive import DeepDive
from generator.models.harnesscard import HarnessCard
from generator.models.release import KNOWN_METRICS, Release
from generator.models.runs import RunRecord, RunsHeader

#: Every input kind: schema file stem → model. Runs files hold a header line, then records.
INPUT_MODELS: dict[str, type[BaseModel]] = {
    "release": Release,
    "tasks": Catalog,
    "harnesscard": HarnessCard,
    "bundle": Bundle,
    "runs-header": RunsHeader,
    "run": RunRecord,
    "deepdive": DeepDive,
}

__all__ = [
    "FORMAT_VERSION",
    "INPUT_MODELS",
    "KNOWN_METRICS",
    "Bundle",
    "Catalog",
    "DeepDive",
    "HarnessCard",
    "Release",
    "RunRecord",
    "RunsHeader",
    "Task",
]
