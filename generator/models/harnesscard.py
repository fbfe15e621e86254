"""The HarnessCard: the seven-layer configuration disclosure of one harness version.

Layers and minimum fields follow §5.1.2 and the paper it cites (Zhang et al., arXiv
2605.23950, Appendix A). Every field is disclosed, withheld with a reason (the vendor knows and
declines to tell), or ``not recorded`` (the source of the results does not say); a missing
field is an error.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, Discriminator, Field, Tag

from generator.models.base import (
    NOT_RECORDED,
    OR_NOT_RECORDED,
    Contract,
    Date,
    Float,
    Id,
    Markdown,
    NotRecorded,
    Text,
    Versioned,
    VersionString,
    named_version,
)
from generator.models.freetext import plain_text

DisclosedValue = Annotated[
    Annotated[str, AfterValidator(plain_text)]
    | bool
    | int
    | Float
    | list[Annotated[str, Field(min_length=1), AfterValidator(plain_text)]],
    Field(description="The disclosed setting: text, a number, true/false or a list of texts."),
]


class Disclosed(Contract):
    value: DisclosedValue


class Withheld(Contract):
    withheld: Text = Field(description="Why this field is not disclosed.")


def _field_kind(data: Any) -> str | None:
    if isinstance(data, Disclosed | Withheld):
        return "withheld-field" if isinstance(data, Withheld) else "disclosed-field"
    if isinstance(data, str) and data == NOT_RECORDED:
        return "not-recorded-field"
    if isinstance(data, dict):
        if "withheld" in data and "value" not in data:
            return "withheld-field"
        if "value" in data and "withheld" not in data:
            return "disclosed-field"
    return None


CardField = Annotated[
    Annotated[Disclosed, Tag("disclosed-field")]
    | Annotated[Withheld, Tag("withheld-field")]
    | Annotated[NotRecorded, Tag("not-recorded-field")],
    Discriminator(
        _field_kind,
        custom_error_type="card_field",
        custom_error_message=(
            f"expected {{value: ...}} (disclosed), {{withheld: reason}} or {NOT_RECORDED}"
        ),
    ),
]


def field_state(field: Disclosed | Withheld | str) -> str:
    """'disclosed', 'withheld' or 'not recorded'."""
    if isinstance(field, Disclosed):
        return "disclosed"
    return "withheld" if isinstance(field, Withheld) else NOT_RECORDED


def _f(title: str, description: str) -> Any:
    return Field(
        title=title,
        description=f"{description} Disclosed ({{value: ...}}), withheld ({{withheld: reason}}) "
        f"or {NOT_RECORDED} (the source of the results does not say).",
    )


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
    runtime_substrate: CardField = _f(
        "Runtime substrate",
        "Where the agent runs: container image, VM or host, and what runs beside it.",
    )
    sandboxing: CardField = _f(
        "Sandboxing", "How the run is isolated from the host and from other runs."
    )
    filesystem_access: CardField = _f(
        "Filesystem access", "Which files and folders the agent may read and write."
    )
    network_access: CardField = _f(
        "Network access", "Which hosts or endpoints the agent may reach."
    )
    task_timeout: CardField = _f("Task timeout", "Wall-clock limit of a whole task run.")
    step_timeout: CardField = _f("Step timeout", "Time limit of one agent step or tool call.")
    max_steps: CardField = _f("Maximum steps", "Most steps the harness lets the agent take.")
    evaluation_entry_point: CardField = _f(
        "Evaluation entry point", "How the evaluator is invoked when the run ends."
    )


class ToolLayer(Layer):
    tool_list: CardField = _f("Tool list", "The tools offered to the model.")
    schema_style: CardField = _f(
        "Schema style", "How tools are described to the model, e.g. JSON Schema function calling."
    )
    tool_selection_policy: CardField = _f(
        "Tool-selection policy", "How tools are chosen or filtered per step."
    )
    error_format: CardField = _f("Error format", "How tool errors are reported back to the model.")
    retryable_error_classes: CardField = _f(
        "Retryable error classes", "Which tool errors the harness retries on its own."
    )
    tool_visibility: CardField = _f(
        "Tools visible to the model or hidden middleware",
        "Whether the model sees every tool, or middleware acts unseen.",
    )


class ContextLayer(Layer):
    context_cap: CardField = _f("Context cap", "Most tokens of context the model is given.")
    ordering_policy: CardField = _f(
        "Ordering policy", "In which order instructions, history and tool output are placed."
    )
    summarization_policy: CardField = _f(
        "Summarization/compression policy", "When and how the history is summarised or compressed."
    )
    retrieval_method: CardField = _f(
        "Retrieval method", "How documents or memories are retrieved into the context."
    )
    persistent_memory: CardField = _f(
        "Persistent memory", "What is kept across steps or tasks outside the context."
    )
    cache_policy: CardField = _f("Cache policy", "How prompt or tool results are cached.")


class SchedulingLayer(Layer):
    agent_loop: CardField = _f(
        "Agent loop", "The loop that drives the agent, e.g. ReAct or plan-and-execute."
    )
    stopping_rule: CardField = _f("Stopping rule", "When the harness ends a run.")
    retry_policy: CardField = _f("Retry policy", "How failed steps or calls are retried.")
    escalation_behaviour: CardField = _f(
        "Escalation behaviour", "When and how the agent asks the user or a human for help."
    )
    delegation_policy: CardField = _f(
        "Delegation policy (sub-agents)", "Whether and how sub-agents are started."
    )
    rollback_behaviour: CardField = _f(
        "Rollback behaviour", "How side effects are undone after a failure."
    )


class ObservabilityLayer(Layer):
    logged_artifacts: CardField = _f("Logged artifacts", "What the harness records of each run.")
    trajectory_format: CardField = _f("Trajectory format", "Format of the recorded trajectory.")
    checkpoints: CardField = _f("Checkpoints", "Which intermediate states are saved.")
    traces: CardField = _f("Traces", "Which traces (spans, tool calls, model calls) are kept.")
    validation_logs: CardField = _f("Validation logs", "Logs of the harness's own checks.")
    auditable_after_run: CardField = _f(
        "Auditable after the run", "Whether a run can be audited afterwards, and how."
    )


class VerificationLayer(Layer):
    output_parser: CardField = _f("Output parser", "How the model's output is parsed into actions.")
    schema_validation: CardField = _f(
        "Schema validation", "Whether tool calls and outputs are checked against schemas."
    )
    self_checking: CardField = _f(
        "Self-checking", "Whether the agent reviews its own work before finishing."
    )
    test_execution: CardField = _f(
        "Test execution", "Whether the harness runs tests on the result."
    )
    anomaly_detection: CardField = _f(
        "Anomaly detection", "How unusual behaviour is detected during a run."
    )
    final_output_validation: CardField = _f(
        "Final-output validation", "How the final output is checked before delivery."
    )


class GovernanceLayer(Layer):
    permission_model: CardField = _f("Permission model", "What the agent may do without asking.")
    allow_deny_rules: CardField = _f(
        "Allow/deny rules", "Explicit allow and deny rules for actions."
    )
    side_effect_boundaries: CardField = _f(
        "Side-effect boundaries", "Limits on side effects outside the task workspace."
    )
    secret_handling: CardField = _f(
        "Secret handling", "How credentials and secrets are given and protected."
    )
    human_approval_points: CardField = _f(
        "Human approval points", "Actions that need a human's approval."
    )


class Layers(Contract):
    execution: ExecutionLayer = Field(
        title="Execution", description="Where and within which limits the agent runs."
    )
    tool: ToolLayer = Field(title="Tool", description="The tools and how they are offered.")
    context: ContextLayer = Field(
        title="Context", description="What the model sees, and how the context is managed."
    )
    scheduling: SchedulingLayer = Field(
        title="Scheduling", description="The agent loop: stopping, retries, escalation."
    )
    observability: ObservabilityLayer = Field(
        title="Observability", description="What is recorded of a run."
    )
    verification: VerificationLayer = Field(
        title="Verification", description="How actions and outputs are checked."
    )
    governance: GovernanceLayer = Field(
        title="Governance", description="Permissions, approvals and side-effect limits."
    )

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
    name: Text = Field(description="Name of the harness, e.g. 'Lingee'.")
    version: VersionString | NotRecorded = Field(
        description="Version of the harness the card describes; quote it in YAML." + OR_NOT_RECORDED
    )
    vendor: Text | NotRecorded = Field(description="Who makes the harness." + OR_NOT_RECORDED)

    @property
    def title(self) -> str:
        """The name and version, or the name "(version not recorded)"."""
        return named_version(self.name, self.version)

    @property
    def maker(self) -> str:
        """The vendor, or "vendor not recorded"."""
        return "vendor not recorded" if self.vendor == NOT_RECORDED else self.vendor


class HarnessMode(Contract):
    """A mode the harness can run in (e.g. a tool-calling style, §5.2)."""

    id: Id
    title: Text = Field(description="Display name of the mode.")
    description: Text = Field(description="What the mode changes.")


class HarnessCard(Versioned):
    """``harnesscards/<id>.yaml``: one harness version's seven-layer disclosure (§5.1.2)."""

    id: Id = Field(description="Card id; equals the file name without '.yaml'.")
    harness: Harness = Field(description="The harness and version the card describes.")
    card_date: Date = Field(description="Date of the card (YYYY-MM-DD); not fingerprinted.")
    modes: tuple[HarnessMode, ...] = Field(
        default=(),
        description="Modes a bundle may choose with combination.harness_mode; none if empty.",
    )
    layers: Layers = Field(description="The seven layers of the disclosure (§5.1.2).")
    notes: Markdown | None = Field(default=None, description="Free notes; not fingerprinted.")
