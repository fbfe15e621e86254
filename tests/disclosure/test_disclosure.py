"""How the site shows completeness, fingerprints, diffs and the disclosure floor (the
modules themselves: test_completeness.py, test_fingerprint.py, test_diff.py)."""

from __future__ import annotations

import hashlib
import html
import json
from pathlib import Path
from typing import Any

from generator.disclosure import fingerprint
from generator.disclosure.diff import field_label
from generator.load import Inputs
from generator.load.validate import validate_as
from generator.load.yamlfile import read_yaml
from generator.models import HarnessCard

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "harnesscard"
REPO = Path(__file__).resolve().parents[2]


def _card(path: Path) -> HarnessCard:
    parsed = read_yaml(path, path.name)
    assert not isinstance(parsed, Exception)
    assert isinstance(parsed, tuple)
    card = validate_as(HarnessCard, *parsed)
    assert isinstance(card, HarnessCard)
    return card


def test_site_shows_fingerprints_and_withheld_fields(inputs: Inputs, site: Path) -> None:
    v10 = next(v for v in inputs.releases if v.folder == "v1.0")
    domain_page = (site / "v1.0" / "enterprise" / "index.html").read_text("utf-8")
    assert len(v10.bundles) == 5
    for loaded in v10.bundles:
        b = loaded.bundle.model
        card = inputs.cards[b.combination.harnesscard].model
        fp = fingerprint(card, b)
        combo = b.combination.id
        record = json.loads(
            (site / "v1.0" / "combinations" / f"{combo}.configuration-record.json").read_text(
                "utf-8"
            )
        )
        assert record["fingerprint"] == fp
        text = json.dumps(
            record["fingerprinted"], sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )
        assert hashlib.sha256(text.encode()).hexdigest()[:12] == fp  # as documented
        assert f'title="configuration fingerprint">{fp}</span>' in domain_page
        page = (site / "v1.0" / "combinations" / f"{combo}.html").read_text("utf-8")
        assert fp in page
    card_page = (site / "v1.0" / "cards" / "lingee-2.3.html").read_text("utf-8")
    assert card_page.count('class="lg-withheld"') == 1
    assert "proprietary guardrails" in card_page  # the reason is shown
    assert "42 of 43" in card_page
    export = json.loads((site / "v1.0" / "cards" / "lingee-2.3.harnesscard.json").read_text())
    assert export["layers"]["verification"]["anomaly_detection"] == {
        "withheld": "Heuristics are part of the product's proprietary guardrails; described "
        "to auditors on request."
    }


def test_diff_pages_link_pairs_sharing_a_harness(site: Path) -> None:
    page = site / "v1.0" / "diffs" / "deepseek-harness-code--deepseek-harness-dual.html"
    text = page.read_text("utf-8")
    assert html.escape(field_label("combination.harness_mode")) in text  # its label, not its key
    assert "combination.harness_mode" not in text
    assert "1 field(s)" in text
    card = (site / "v1.0" / "combinations" / "deepseek-harness-code.html").read_text("utf-8")
    assert "../diffs/deepseek-harness-code--deepseek-harness-dual.html" in card


def test_disclosure_floor_warns_fails_strict_and_labels(
    example: Path, run_cli: Any, tmp_path: Path
) -> None:
    card = example / "harnesscards" / "opencode-0.9.yaml"
    text = card.read_text("utf-8")
    card.write_text(
        text.replace(
            'sandboxing: {value: "Container isolation"}', 'sandboxing: {withheld: "Not published."}'
        ),
        "utf-8",
    )
    lenient = run_cli("validate", "--root", str(example))
    assert lenient.exit_code == 0
    assert (
        "results/v1.0/bundles/opencode/bundle.yaml:7: warning: combination.harnesscard: "
        "card 'opencode-0.9' does not disclose execution.sandboxing, which the v1.0 disclosure "
        "floor requires disclosed"
    ) in lenient.output
    assert run_cli("validate", "--root", str(example), "--strict").exit_code == 1
    out = tmp_path / "site"
    assert run_cli("build", "--root", str(example), "--out", str(out)).exit_code == 0
    general = (out / "v1.0" / "general" / "index.html").read_text("utf-8")
    assert general.count("below the disclosure floor") >= 1
    result_card = (out / "v1.0" / "combinations" / "opencode.html").read_text("utf-8")
    assert "Below the disclosure floor" in result_card
    other = (out / "v1.0" / "combinations" / "lingee.html").read_text("utf-8")
    assert "Below the disclosure floor" not in other


def test_unknown_floor_field_is_an_error(example: Path, run_cli: Any) -> None:
    release = example / "results" / "v1.0" / "release.yaml"
    release.write_text(
        release.read_text("utf-8").replace("- execution.sandboxing", "- execution.sandbox"), "utf-8"
    )
    result = run_cli("validate", "--root", str(example))
    assert result.exit_code == 1
    assert (
        "disclosure_floor[0]: 'execution.sandbox' is not a minimum HarnessCard field"
        in result.output
    )
