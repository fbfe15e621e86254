"""Stage 5, site: one engine build per version, a landing page, atomic replace."""

from generator.site.build import BuildFailed, Staging

__all__ = ["BuildFailed", "Staging"]
