"""reliability@k of a task (§4.2(3)) against hand computation."""

from __future__ import annotations

import numpy as np
import pytest

from generator.protocol.reliability import reliability_at


def test_reliability_at_is_binomial_ratio() -> None:
    c = np.array([0, 1, 2, 3, 4])
    # C(c,2)/C(4,2) = c(c-1)/12
    assert reliability_at(c, 4, 2).tolist() == pytest.approx([0, 0, 1 / 6, 0.5, 1])
    assert reliability_at(c, 4, 1).tolist() == pytest.approx([0, 0.25, 0.5, 0.75, 1])
    assert reliability_at(c, 4, 4).tolist() == [0, 0, 0, 0, 1]
