"""Pages as files: front matter, downloads beside the page, escaping templates, opaque blocks."""

from __future__ import annotations

import base64
import html
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2 import UndefinedError
from markupsafe import Markup
from mkdocs.utils.meta import get_data

from generator.pages.blocks.render import (
    Page,
    environment,
    lift_blocks,
    opaque,
    render,
    tables_html,
)
from generator.pages.blocks.tables import BOM, Cell, Row, Table
from generator.pages.blocks.text import escape_html

HOSTILE = 'A "quoted" <b>title</b>: with \\ and # and *'


def _front_matter(page: Page) -> dict[str, object]:
    text = page.sources()[page.path]
    assert text.startswith("---\n")
    found: dict[str, object] = yaml.safe_load(text.split("---\n")[1])
    return found


def _table(rows: int, inline: int = 200) -> Table:
    body = tuple(Row((Cell(str(i)),), {"i": i}) for i in range(rows))
    return Table(f"t{rows}", "c", ("i",), body, inline=inline)


def test_front_matter_carries_the_title_and_the_page_options() -> None:
    plain = Page("a/b.md", HOSTILE, "# body\n")
    meta = _front_matter(plain)
    assert html.unescape(str(meta["title"])) == HOSTILE
    assert "<" not in str(meta["title"])
    assert meta["charts"] is False
    assert "hide" not in meta
    assert "shared_nav" not in meta
    wide = Page("a/b.md", "t", "", charts=True, wide=True, shared_nav='tasks "x"')
    meta = _front_matter(wide)
    assert (meta["charts"], meta["hide"], meta["shared_nav"]) == (True, ["toc"], 'tasks "x"')
    assert plain.sources()[plain.path].endswith("# body\n")
    assert "search" not in meta


def test_front_matter_carries_the_long_title_and_the_search_settings() -> None:
    page = Page("a.md", "Short", "", long_title=f"Long {HOSTILE}", search_boost=2.0)
    meta = _front_matter(page)
    assert html.unescape(str(meta["title"])) == f"Long {HOSTILE}"
    assert meta["search"] == {"boost": 2.0}
    assert _front_matter(Page("a.md", "t", "", searched=False))["search"] == {"exclude": True}
    assert _front_matter(Page("a.md", "t", "", search_boost=0.5))["search"] == {"boost": 0.5}


def test_extra_files_and_downloads_lie_beside_the_page() -> None:
    short, long = _table(2), _table(5, inline=3)
    page = Page("sub/dir/page.md", "t", "", (short, long), extra_files={"x.json": "{}"})
    assert set(page.sources()) == {"sub/dir/page.md", "sub/dir/x.json"}
    downloads = page.downloads()
    assert set(downloads) == {
        *(f"sub/dir/page.{t.id}.{kind}" for t in (short, long) for kind in ("csv", "json")),
        f"sub/dir/page.{long.id}.rows.txt",  # only a paged table loads rows on demand
    }
    assert downloads[f"sub/dir/page.{short.id}.csv"] == BOM + short.to_csv()
    assert downloads[f"sub/dir/page.{short.id}.csv"].encode("utf-8")[:3] == b"\xef\xbb\xbf"
    assert downloads[f"sub/dir/page.{long.id}.rows.txt"] == long.rows_html()
    assert page.files() == page.sources() | downloads
    assert page.stem == "page"


def test_a_named_table_s_downloads_take_its_name() -> None:
    named = replace(_table(2), name="bench-v9-x-t2")
    downloads = Page("sub/page.md", "t", "", (named,)).downloads()
    assert set(downloads) == {"sub/bench-v9-x-t2.csv", "sub/bench-v9-x-t2.json"}
    assert downloads["sub/bench-v9-x-t2.json"] == named.to_json()
    assert 'href="bench-v9-x-t2.csv"' in named.to_html("page")


#: What might end a YAML block or a scalar early, or that YAML cannot hold as it is.
BREAKERS = st.sampled_from(
    ["\n---\n", "\n...\n", "---", '"', "'", "\\", "#", ": ", "- ", "!ENV x", "&a *a", "\a", "\x85"]
)


@settings(max_examples=examples(300), deadline=None, derandomize=True, database=None)
@given(
    title=st.lists(st.text() | BREAKERS, max_size=6).map("".join),
    nav=st.lists(st.text() | BREAKERS, max_size=3).map("".join),
)
def test_front_matter_reads_back_in_mkdocs_as_written(title: str, nav: str) -> None:
    """mkdocs reads a page's front matter with its own pattern and YAML loader, and on a
    failure silently takes the first heading, unescaped, as the title: the serialized block
    must read back whole, whatever the text."""
    page = Page("a.md", title, "# heading\n\nbody\n", shared_nav=nav, search_boost=0.5)
    body, meta = get_data(page.sources()["a.md"])
    assert meta["title"] == escape_html(title)
    assert meta.get("shared_nav", "") == nav
    assert (meta["charts"], meta["search"]) == (False, {"boost": 0.5})
    assert body == "# heading\n\nbody\n"


def test_templates_escape_every_value_but_markup(tmp_path: Path) -> None:
    (tmp_path / "t.md.j2").write_text("{{ a }}|{{ b }}|{{ n | spelled }}|{{ c | raw }}\n")
    env = environment(tmp_path)
    out = render(env, "t.md.j2", a="<i>*x*</i>", b=Markup("<i>y</i>"), n=3, c="<u>z</u>")
    first, second, third, fourth = out.rstrip("\n").split("|")
    assert "<" not in first
    assert "*" not in first
    assert html.unescape(first) == "<i>*x*</i>"
    assert (second, third, fourth) == ("<i>y</i>", "three", "<u>z</u>")
    with pytest.raises(UndefinedError):
        render(env, "t.md.j2", a=1, b=2, n=1)  # no value for c: an error, not a blank


def test_an_opaque_block_carries_its_html_untouched() -> None:
    block = '<table><td data-x="1">*not markdown* [x](y)</td></table> ü'
    markup = str(opaque(block))
    assert markup.strip().startswith("<!--lg-html:")
    encoded = markup.strip().removeprefix("<!--lg-html:").removesuffix("-->")
    assert base64.b64decode(encoded).decode("utf-8") == block
    assert not set("*[]<>") & set(encoded)


def test_lifted_blocks_are_numbered_in_page_order() -> None:
    blocks = ["<p>one</p>", "<p>two</p>", "<p>one</p>"]
    page = "# T\n" + "text\n".join(str(opaque(b)) for b in blocks) + "end\n"
    lifted, found = lift_blocks(page)
    assert [base64.b64decode(b).decode() for b in found] == blocks
    assert [f"<!--lg-block:{i}-->" in lifted for i in range(3)] == [True] * 3
    assert "lg-html" not in lifted
    assert lifted.startswith("# T\n")
    assert lifted.endswith("end\n")
    assert lift_blocks("no blocks") == ("no blocks", [])


def test_tables_html_gives_each_table_its_block() -> None:
    tables = [_table(1), _table(2)]
    out = tables_html(tables, "stem")
    assert list(out) == [t.id for t in tables]
    for t in tables:
        _, (encoded,) = lift_blocks(str(out[t.id]))
        assert base64.b64decode(encoded).decode() == t.to_html("stem")
