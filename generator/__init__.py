"""Release-site generator for lg-bench (Lingee Bench).

The pipeline reads as its stages: ``load`` (files into frozen models) → ``check``
(cross-file rules) → ``score`` → ``pages`` → ``site``.
"""

import os

# One BLAS thread, set before numpy loads its BLAS (a setting of the caller's own wins). The
# engine's matrices are small — the privacy gate's exact search makes some 17,000 SVDs of a
# few dozen rows to score the ClawBench-shaped example — and BLAS threads only spin on them:
# scoring that example took 14.7 s with OpenBLAS's threads and 14.6 s without on an idle
# two-core machine (26.0 s of CPU against 15.5 s), and 31.3 s against 14.4 s with the other
# core busy, as it is during a build's forked workers or a parallel test run (2026-12-04).
for _variable in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

__version__ = "0.1.0"
