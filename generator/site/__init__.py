"""Stage 5, site: one mkdocs-material build per version, a landing page, atomic replace."""

from generator.site.build import build_site

__all__ = ["build_site"]
