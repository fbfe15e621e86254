"""Pages rendered in parts (one per process) are the pages rendered at once; the version's
page order (generator/pages/__init__.py) puts domain pages after the home page."""

from __future__ import annotations

import pytest

from generator.load import Inputs
from generator.pages import RESULT_PAGES_BOOST, Page, version_context, version_pages
from generator.score.version import score_version
from generator.site.parts import FIRST_PART_TASKS, part_pages, task_parts


def _made(pages: list[Page]) -> dict[str, tuple[dict[str, str], dict[str, str], str]]:
    return {p.path: (p.sources(), p.downloads(), p.shared_nav) for p in pages}


@pytest.mark.parametrize("parts", [2, 3])
def test_parts_together_are_the_whole_version(inputs: Inputs, parts: int) -> None:
    assert len(inputs.releases) == 2  # v1.0 and v1.1
    for loaded in inputs.releases:
        ctx = version_context(score_version(loaded), inputs.cards)
        whole, nav = version_pages(ctx)
        split = [part_pages(ctx, part, parts) for part in range(parts)]
        assert split[0][1] == nav
        assert [later_nav for _, later_nav in split[1:]] == [[]] * (parts - 1)
        paths = [p.path for pages, _ in split for p in pages]
        assert len(paths) == len(set(paths)), "no page is rendered by two parts"
        assert _made([p for pages, _ in split for p in pages]) == _made(whole)
        later = [p.path for pages, _ in split[1:] for p in pages]
        assert later
        assert all(path.startswith("tasks/") for path in later)


@pytest.mark.parametrize(("count", "parts"), [(0, 2), (1, 2), (7, 2), (100, 3), (1126, 2)])
def test_task_parts_cover_every_task_once_in_order(count: int, parts: int) -> None:
    tasks = [f"t{i:04}" for i in range(count)]
    cut = task_parts(tasks, parts)  # type: ignore[arg-type]
    assert len(cut) == parts
    assert [t for part in cut for t in part] == tasks
    assert len(cut[0]) == round(count * FIRST_PART_TASKS)
    rest = [len(part) for part in cut[1:]]
    assert max(rest) - min(rest) <= 1


def test_domain_pages_come_after_the_page_a_search_is_for(inputs: Inputs) -> None:
    ctx = version_context(score_version(inputs.releases[-1]), inputs.cards)
    pages, _ = version_pages(ctx)
    domains = tuple(f"{d.id}/" for d in ctx.release.domains)  # a domain's pages, in layers
    assert RESULT_PAGES_BOOST < 1
    boosted = 0
    for page in pages:
        if page.path.startswith(domains):
            assert page.search_boost == RESULT_PAGES_BOOST
            boosted += 1
        else:
            assert page.search_boost >= 1, page.path
    assert 0 < boosted < len(pages)
