"""Which combinations may be compared (§4.1, §4.2(2)): comparison keys, tokenizers, and the
controlled settings the results do not record."""

from __future__ import annotations

from builders import judged_by, release

from generator.protocol.comparison import comparison_key, not_recorded_controls, tokenizer_key

EVALUATOR_VARIES = [
    {"factor": "Task set", "status": "controlled", "setting": "frozen"},
    {"factor": "Judge", "status": "variable", "setting": "two judges", "covers": ["evaluator"]},
]


def test_a_varying_setting_not_recorded_matches_no_other_bundle() -> None:
    """Two bundles whose varying Judge nobody recorded are not known to share it: each is
    compared with no other."""
    rel = release(controlled_factors=EVALUATOR_VARIES)
    p, q = judged_by("p", "not recorded"), judged_by("q", "not recorded")
    assert comparison_key(rel, p) != comparison_key(rel, q)
    assert comparison_key(rel, judged_by("r", "A")) == comparison_key(rel, judged_by("s", "A"))
    assert comparison_key(rel, p, judged=False) == comparison_key(rel, q, judged=False)


def test_a_controlled_setting_no_bundle_records_is_named_not_held_fixed_in_fact() -> None:
    """Every bundle leaves the Judge not recorded: no departure, but the release home may not
    say it was held fixed without saying the results do not show it."""
    rel = release()
    both = [judged_by("p", "not recorded"), judged_by("q", "not recorded")]
    assert not_recorded_controls(rel, both) == ("evaluator",)
    assert not_recorded_controls(rel, [judged_by("p", "A")]) == ()
    assert not_recorded_controls(release(controlled_factors=EVALUATOR_VARIES), both) == ()


def test_a_tokenizer_not_recorded_is_shared_with_no_other_combination() -> None:
    assert tokenizer_key("p", "cl100k") == tokenizer_key("q", "cl100k") == "cl100k"
    assert tokenizer_key("p", "not recorded") != tokenizer_key("q", "not recorded")
