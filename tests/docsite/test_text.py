"""Text from the command line and the models stays text in the generated Markdown."""

from __future__ import annotations

from generator.docsite.text import code, paragraphs, prose, slug


def test_prose_escapes_markup_and_keeps_code_spans() -> None:
    assert prose("a <b> & *c* _d_ [e](f) | #g") == (
        "a &lt;b&gt; &amp; \\*c\\* \\_d\\_ \\[e\\](f) \\| \\#g"
    )
    assert prose("see ``x <y>`` and `z_w`") == "see `x <y>` and `z_w`"
    assert prose("one\n   line") == "one line"


def test_code_takes_a_longer_fence_around_a_backtick() -> None:
    assert code("a") == "`a`"
    assert code("a`b") == "``a`b``"
    assert code("`a") == "`` `a ``"


def test_paragraphs_split_on_blank_lines() -> None:
    assert paragraphs("One\ntwo.\n\n\b\nThree.") == ["One two.", "Three."]
    assert paragraphs("") == []


def test_slug() -> None:
    assert slug("BundleBudgets") == "bundlebudgets"
    assert slug("runs-header v1") == "runs-header-v1"
