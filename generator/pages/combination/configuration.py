"""A result card's configuration record (§5.1.3): the model and its settings, the pipeline
components, budgets, clarification, environment, evaluator and run dates — each as recorded,
or "not recorded" where the source of the results does not say (never a made-up value)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generator.models import Bundle
from generator.models.base import NOT_RECORDED, is_recorded
from generator.models.bundle import Model
from generator.pages.blocks.columns import pairs
from generator.pages.blocks.tables import Table

Entry = tuple[str, str, Any]  # (setting, shown, raw value downloaded)


def shown(value: Any, form: Callable[[Any], str] = str) -> str:
    """A recorded setting in ``form``; one the source did not record as "not recorded"."""
    return form(value) if is_recorded(value) else NOT_RECORDED


def thousands(value: int) -> str:
    return f"{value:,}"


def model_shown(model: Model, provider: bool = True) -> str:
    """The model as "name version (provider)" (without ``provider``: "name version"), saying
    which of them were not recorded: "GLM-5 (version and provider not recorded)", "GLM-5
    (Zhipu AI; version not recorded)"."""
    parts = ("version", "provider") if provider else ("version",)
    missing = [p for p in parts if not is_recorded(getattr(model, p))]
    named = model.name if "version" in missing else f"{model.name} {model.version}"
    if not provider and not missing:
        return named
    if provider and "provider" not in missing:
        unsaid = "; version not recorded" if missing else ""
        return f"{named} ({model.provider}{unsaid})"
    return f"{named} ({' and '.join(missing)} not recorded)"


def _model_entries(bundle: Bundle) -> list[Entry]:
    """The combination's model and generation settings."""
    c, cfg = bundle.combination, bundle.configuration
    threshold = cfg.compression_threshold
    return [
        ("Model", model_shown(c.model), c.model.name),
        ("Tokenizer", shown(c.model.tokenizer), c.model.tokenizer),
        ("Agent version", shown(c.agent_version), c.agent_version),
        ("Harness mode", c.harness_mode or "—", c.harness_mode),
        ("Temperature", shown(cfg.temperature), cfg.temperature),
        ("Top-p", shown(cfg.top_p), cfg.top_p),
        ("Max output tokens", shown(cfg.max_output_tokens, thousands), cfg.max_output_tokens),
        ("Context window", shown(cfg.context_window, thousands), cfg.context_window),
        (
            "Compression threshold",
            "none" if threshold is None else shown(threshold, lambda t: f"{t:,} tokens"),
            threshold,
        ),
        ("Reasoning mode", shown(cfg.reasoning_mode), cfg.reasoning_mode),
        ("Runs per task", str(cfg.runs_per_task), cfg.runs_per_task),
    ]


def _component_entries(bundle: Bundle) -> list[Entry]:
    """The pipeline components the combination ran with (§7.2)."""
    comp = bundle.configuration.pipeline_components
    named = [
        ("tasks", comp.tasks),
        ("data", comp.data),
        ("environment", comp.environment),
        ("protocol", comp.protocol),
        ("judge assets", comp.judge_assets),
        *[(f"scorer {n}", v) for n, v in comp.scorer.items()],
    ]
    return [(f"Component: {k}", v, v) for k, v in named]


def _retries(bundle: Bundle) -> str:
    b = bundle.budgets
    if not is_recorded(b.max_retries) and not is_recorded(b.retry_policy):
        return NOT_RECORDED
    return f"{shown(b.max_retries)} — {shown(b.retry_policy)}"


def _judge(bundle: Bundle) -> str:
    ev = bundle.evaluator
    if not is_recorded(ev.judge_model_version):
        return f"{shown(ev.judge_model)} (version not recorded)"
    return f"{shown(ev.judge_model)} {ev.judge_model_version}"


def _run_entries(bundle: Bundle) -> list[Entry]:
    """Budgets, clarification, environment, evaluator and run dates (§5.1.3)."""
    b, cl, ev, dates = bundle.budgets, bundle.clarification, bundle.evaluator, bundle.run_dates
    script = cl.simulated_user_script_version
    start, end = dates.start.isoformat(), dates.end.isoformat()
    seconds: Callable[[Any], str] = lambda v: f"{v:,} s"  # noqa: E731
    return [
        ("Budget: timeout", shown(b.timeout_s, seconds), b.timeout_s),
        ("Budget: steps", shown(b.max_steps, thousands), b.max_steps),
        ("Budget: tokens", shown(b.max_tokens, thousands), b.max_tokens),
        ("Retries after technical exceptions", _retries(bundle), b.max_retries),
        ("Clarification script", shown(script), script),
        ("Clarification waiting cap", shown(cl.waiting_cap_s, seconds), cl.waiting_cap_s),
        ("Clarification rules", shown(cl.rules), cl.rules),
        ("Environment snapshot", shown(bundle.environment_snapshot), bundle.environment_snapshot),
        ("Judge model", _judge(bundle), ev.judge_model),
        ("Judge prompt version", shown(ev.prompt_version), ev.prompt_version),
        ("Judge voting", shown(ev.voting), ev.voting),
        ("Run dates", f"{start} – {end}", f"{start}/{end}"),
        ("Evaluation", bundle.evaluation, bundle.evaluation),
    ]


CONFIGURATION = pairs(("Setting", "setting"), ("Value", "value"))


def config_table(bundle: Bundle) -> Table:
    """Every setting of the configuration record, one row each."""
    entries = _model_entries(bundle) + _component_entries(bundle) + _run_entries(bundle)
    caption = "Configuration record, budgets, clarification, environment and evaluator (§5.1.3)"
    return CONFIGURATION.table("configuration", caption, entries)
