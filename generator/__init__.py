"""Release-site generator for lg-bench (Lingee Bench).

The pipeline reads as its stages: ``load`` (files into frozen models) → ``check``
(cross-file rules) → ``score`` → ``pages`` → ``site``.
"""

__version__ = "0.1.0"
