"""'Not recorded' end to end (issue 27): a copy of the example whose first bundle of each
version does not record its model version, provider, tokenizer, agent version and generation
settings, whose other bundles record no duration (``counts_not_recorded``), and whose
HarnessCard does not record one field. It validates, builds, and the site says "not
recorded" where the source does not say, counts it apart from withheld, fingerprints the
state and compares a tokenizer nobody recorded with no other."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from edit import replace
from synthetic import REPO, script

from generator.cli import cli
from generator.disclosure.fingerprint import digest, fingerprint
from generator.load import load_inputs

VALID = script(REPO / "bench" / "valid_releases.py", "bench_valid_releases")
FIRST = "deepseek-harness-standard"  # the first bundle of v1.1, in id order
TITLE = "DeepSeek Harness (standard function calling) × GLM-5.3-Flash"
CARD = "deepseek-harness-1.4"


def _invoke(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), prog_name="python -m generator")
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("not-recorded")
    root = work / "root"
    choices = VALID.Choices(
        base="example", counts={"duration_s": "one-bundle"}, not_recorded="one-bundle"
    )
    VALID.write(choices, root)
    card = root / "harnesscards" / f"{CARD}.yaml"
    text = card.read_text(encoding="utf-8")
    sandboxing = re.search(r"^    sandboxing:.*$", text, re.MULTILINE)
    assert sandboxing is not None
    replace(card, sandboxing.group(0), "    sandboxing: not recorded")
    assert "valid:" in _invoke("validate", "--root", str(root))
    _invoke("build", "--root", str(root), "--out", str(work / "site"))
    return work / "site" / "v1.1"


def _text(path: Path) -> str:
    """A page's words: its tags, scripts and styles dropped, entities read, spaces joined."""
    raw = path.read_text(encoding="utf-8")
    raw = re.sub(r"<(script|style)\b.*?</\1>", " ", raw, flags=re.DOTALL)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", raw)).split())


def test_the_card_shows_each_setting_the_source_does_not_say(site: Path) -> None:
    words = _text(site / "combinations" / f"{FIRST}.html")
    assert "Model GLM-5.3-Flash (version not recorded)" in words  # the card's header
    assert "GLM-5.3-Flash (version and provider not recorded)" in words  # its record
    for setting in ("Tokenizer", "Agent version", "Temperature", "Top-p"):
        assert f"{setting} not recorded" in words
    assert "Max output tokens not recorded Context window not recorded" in words
    assert "Harness mode standard" in words  # what is recorded is shown as it was


def test_the_fingerprint_hashes_the_state_not_a_value(site: Path) -> None:
    record = json.loads((site / "combinations" / f"{FIRST}.configuration-record.json").read_text())
    document = record["fingerprinted"]
    assert document["configuration"]["temperature"] == "not recorded"
    assert document["combination"]["model"]["tokenizer"] == "not recorded"
    sandboxing = document["harnesscard"]["layers"]["execution"]["sandboxing"]
    assert sandboxing == {"not_recorded": True}
    assert record["fingerprint"] == digest(document)
    inputs, _ = load_inputs(REPO)
    (v11,) = [r for r in inputs.releases if r.folder == "v1.1"]
    (original,) = [b.bundle.model for b in v11.bundles if b.folder == FIRST]
    assert record["fingerprint"] != fingerprint(inputs.cards[CARD].model, original)


def test_the_harnesscard_counts_not_recorded_apart_from_withheld(site: Path) -> None:
    words = _text(site / "cards" / f"{CARD}.html")
    assert "Layer Disclosed Share Withheld Not recorded" in words
    assert "Execution 7 of 8 88% 0 1" in words
    assert "Sandboxing not recorded The source of the results does not say." in words
    card = json.loads((site / "cards" / f"{CARD}.harnesscard.json").read_text())
    assert card["layers"]["execution"]["sandboxing"] == "not recorded"


def test_a_tokenizer_nobody_recorded_is_compared_with_no_other(site: Path) -> None:
    words = _text(site / "efficiency.html")
    assert f"Tokenizer not recorded: {TITLE}; their tokens are compared with no other" in words
    assert "not compared: tokenizer not recorded" in words
    assert "tokenizer not recorded —" not in words  # no chart drawn for it
    for domain in ("general", "enterprise"):
        rows = json.loads((site / f"lg-bench-v1.1-{domain}-efficiency.json").read_text())["rows"]
        mine = next(r for r in rows if r["combination"] == FIRST)
        assert mine["tokenizer"] == "not recorded"
        assert mine["pareto"] is None


def test_a_count_not_recorded_is_said_never_zero(site: Path) -> None:
    """The bundles after the first record no duration: their cells say so, their
    downloads give no value and the zero runs it rests on."""
    words = _text(site / "efficiency.html")
    for title in ("Lingee × GLM-5.3-Flash", "OpenCode × GLM-5.3-Flash"):
        row = re.escape(title) + r" [0-9a-f]{12} glm-5 [\d.]+ \d+k \d+k \d+k not recorded [\d.]+ "
        assert re.search(row, words), title
    rows = json.loads((site / "lg-bench-v1.1-general-efficiency.json").read_text())["rows"]
    others = [r for r in rows if r["combination"] != FIRST]
    assert others
    for r in others:
        assert r["duration_s"] is None
        assert r["duration_s_runs"] == 0
    assert next(r for r in rows if r["combination"] == FIRST)["duration_s"] > 0
