"""How much a property test draws: the Hypothesis profile in force sets one scale for all.

``HYPOTHESIS_PROFILE=ci`` (what ``.ci/run`` sets) draws each test's full budget; the default
``dev`` profile, for the fast local loop, a fifth of it. A test states its full budget once,
``@settings(max_examples=examples(300))``; a test without one draws the profile's default.
"""

from __future__ import annotations

import os

from hypothesis import settings

#: The full budget's share each profile draws, in percent.
SHARE = {"ci": 100, "dev": 20}

for _name, _share in SHARE.items():
    settings.register_profile(_name, max_examples=_share, deadline=None)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
settings.load_profile(PROFILE)


def examples(full: int) -> int:
    """A test's number of examples under the profile in force: ``full`` under ``ci``, its
    share elsewhere, and at least two (one example finds little) unless ``full`` is one."""
    return max(min(full, 2), full * settings.default.max_examples // 100)
