"""How much a property test draws: the Hypothesis profile in force sets one scale for all.

``HYPOTHESIS_PROFILE=full`` draws each test's full budget; ``ci`` (what ``.ci/run`` sets)
half of it, so that the whole suite stays within CI's time (the suite took 14 min at the
full budget on CI's two cores, its limit is 15; at half, with the gate's memory, a fresh
clone's ``.ci/run`` took 12 min 53 s here on 2026-12-04); the default ``dev`` profile, for the fast
local loop, a fifth. ``bench/valid_builds.py`` draws many more whole releases than any. A
test states its full budget once, ``@settings(max_examples=examples(300))``; a test without
one draws the profile's default.
"""

from __future__ import annotations

import os

from hypothesis import settings

#: The full budget's share each profile draws, in percent.
SHARE = {"full": 100, "ci": 50, "dev": 20}

for _name, _share in SHARE.items():
    settings.register_profile(_name, max_examples=_share, deadline=None)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
settings.load_profile(PROFILE)


def examples(full: int) -> int:
    """A test's number of examples under the profile in force: ``full`` under the ``full``
    profile, its share (:data:`SHARE`) under the others, and at least two (one example finds
    little) unless ``full`` is one."""
    return max(min(full, 2), full * settings.default.max_examples // 100)
