"""The HarnessCard: the seven-layer configuration disclosure of one harness version.

Layers and minimum fields follow §5.1.2 and the paper it cites (Zhang et al., arXiv
2605.23950, Appendix A). Every field is disclosed or withheld with a reason; a missing
field is an error.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from pydantic import Discriminator, Field, Tag

from generator.models.base import Contract, Id, Markdown, Text, Versioned, VersionString

DisclosedValue = Annotated[
    str | bool | int | float | list[Annotated[str, Field(min_length=1)]],
    Field(description="The disclosed setting: text, a number, true/false or a list of texts."),
]


class Disclosed(Contract):
    value: DisclosedValue


class Withheld(Contract):
    withheld: Text = Field(description="Why this field is not disclosed.")


def _field_kind(data: Any) -> str | None:
    if isinstance(data, Disclosed | Withheld):
        return "withheld-field" if isinstance(data, Withheld) else "disclosed-field"
    if isinstance(data, dict):
        if "withheld" in data and "value" not in data:
            return "withheld-field"
        if "value" in data and "withheld" not in data:
            return "disclosed-field"
    return None


CardField = Annotated[
    Annotated[Disclosed, Tag("disclosed-field")] | Annotated[Withheld, Tag("withheld-field")],
    Discriminator(
        _field_kind,
        custom_error_type="card_field",
        custom_error_message="expected {value: ...} (disclosed) or {withheld: reason}",
    ),
]


def _f(title: str) -> Any:
    return Field(title=title)


class Layer(Contract):
    """Fields shared by every layer: vendor-named extra fields beyond the minimum."""

    additional: dict[Id, CardField] = Field(
        default_factory=dict, description="Further fields the vendor discloses or withholds."
    )

    def minimum_fields(self) -> dict[str, CardField]:
        """The layer's minimum fields in declaration order."""
        return {
            name: getattr(self, name) for name in type(self).model_fields if name != "additional"
        }


class ExecutionLayer(Layer):
    runtime_substrate: CardField = _f("Runtime substrate")
    sandboxing: CardField = _f("Sandboxing")
    filesystem_access: CardField = _f("Filesystem access")
    network_access: CardField = _f("Network access")
    task_timeout: CardField = _f("Task timeout")
    step_timeout: CardField = _f("Step timeout")
    max_steps: CardField = _f("Maximum steps")
    evaluation_entry_point: CardField = _f("Evaluation entry point")


class ToolLayer(Layer):
    tool_list: CardField = _f("Tool list")
    schema_style: CardField = _f("Schema style")
    tool_selection_policy: CardField = _f("Tool-selection policy")
    error_format: CardField = _f("Error format")
    retryable_error_classes: CardField = _f("Retryable error classes")
    tool_visibility: CardField = _f("Tools visible to the model or hidden middleware")


class ContextLayer(Layer):
    context_cap: CardField = _f("Context cap")
    ordering_policy: CardField = _f("Ordering policy")
    summarization_policy: CardField = _f("Summarization/compression policy")
    retrieval_method: CardField = _f("Retrieval method")
    persistent_memory: CardField = _f("Persistent memory")
    cache_policy: CardField = _f("Cache policy")


class SchedulingLayer(Layer):
    agent_loop: CardField = _f("Agent loop")
    stopping_rule: CardField = _f("Stopping rule")
    retry_policy: CardField = _f("Retry policy")
    escalation_behaviour: CardField = _f("Escalation behaviour")
    delegation_policy: CardField = _f("Delegation policy (sub-agents)")
    rollback_behaviour: CardField = _f("Rollback behaviour")


class ObservabilityLayer(Layer):
    logged_artifacts: CardField = _f("Logged artifacts")
    trajectory_format: CardField = _f("Trajectory format")
    checkpoints: CardField = _f("Checkpoints")
    traces: CardField = _f("Traces")
    validation_logs: CardField = _f("Validation logs")
    auditable_after_run: CardField = _f("Auditable after the run")


class VerificationLayer(Layer):
    output_parser: CardField = _f("Output parser")
    schema_validation: CardField = _f("Schema validation")
    self_checking: CardField = _f("Self-checking")
    test_execution: CardField = _f("Test execution")
    anomaly_detection: CardField = _f("Anomaly detection")
    final_output_validation: CardField = _f("Final-output validation")


class GovernanceLayer(Layer):
    permission_model: CardField = _f("Permission model")
    allow_deny_rules: CardField = _f("Allow/deny rules")
    side_effect_boundaries: CardField = _f("Side-effect boundaries")
    secret_handling: CardField = _f("Secret handling")
    human_approval_points: CardField = _f("Human approval points")


class Layers(Contract):
    execution: ExecutionLayer = Field(title="Execution")
    tool: ToolLayer = Field(title="Tool")
    context: ContextLayer = Field(title="Context")
    scheduling: SchedulingLayer = Field(title="Scheduling")
    observability: ObservabilityLayer = Field(title="Observability")
    verification: VerificationLayer = Field(title="Verification")
    governance: GovernanceLayer = Field(title="Governance")

    def items(self) -> list[tuple[str, Layer]]:
        """The seven layers in the checklist's order."""
        return [(name, getattr(self, name)) for name in type(self).model_fields]


#: The minimum fields of each layer, by layer name (§5.1.2).
MINIMUM_FIELDS: dict[str, tuple[str, ...]] = {
    name: tuple(f for f in layer_model.model_fields if f != "additional")
    for name, layer_model in (
        ("execution", ExecutionLayer),
        ("tool", ToolLayer),
        ("context", ContextLayer),
        ("scheduling", SchedulingLayer),
        ("observability", ObservabilityLayer),
        ("verification", VerificationLayer),
        ("governance", GovernanceLayer),
    )
}


class Harness(Contract):
    name: Text
    version: VersionString
    vendor: Text


class HarnessMode(Contract):
    """A mode the harness can run in (e.g. a tool-calling style, §5.2)."""

    id: Id
    title: Text
    description: Text


class HarnessCard(Versioned):
    """``harnesscards/<id>.yaml``: one harness version's seven-layer disclosure (§5.1.2)."""

    id: Id = Field(description="Card id; equals the file name without '.yaml'.")
    harness: Harness
    card_date: dt.date
    modes: tuple[HarnessMode, ...] = Field(
        default=(),
        description="Modes a bundle may choose with combination.harness_mode; none if empty.",
    )
    layers: Layers
    notes: Markdown | None = None
