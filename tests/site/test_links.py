"""Every local link and anchor of the built example site resolves (no browser needed)."""

from __future__ import annotations

from pathlib import Path

from linktools import broken_links


def test_every_local_link_and_anchor_resolves(site: Path) -> None:
    checked, broken = broken_links(site)
    assert checked > 1000
    assert not broken, broken[:20]
