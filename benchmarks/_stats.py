"""Helpers shared by the benchmark scripts: percentiles, a normal interval, the commit measured,
and writing the report file.

The scripts run as ``python benchmarks/bench_x.py``, so this folder is on ``sys.path``.
"""

from __future__ import annotations

import math
import statistics
import subprocess
from collections.abc import Sequence

from fivecrowns.storage.atomic import atomic_write_text

__all__ = ["commit", "mean_interval", "percentile", "write_report"]


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest rank: the sorted value at index ``round(fraction * (n - 1))``.

    >>> percentile([5, 1, 3, 2, 4], 0.5), percentile([5, 1, 3, 2, 4], 0.99)
    (3, 5)
    """
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def mean_interval(values: Sequence[float], z: float) -> tuple[float, float]:
    """The mean and the half width of its normal interval, ``z * stdev / sqrt(n)``.

    >>> mean, half = mean_interval([1.0, 2.0, 3.0], 1.96)
    >>> mean, round(half, 4)
    (2.0, 1.1316)
    """
    return statistics.fmean(values), z * statistics.stdev(values) / math.sqrt(len(values))


def commit() -> str:
    """The commit measured (with "+changes" when the work tree's src differs from it)."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], capture_output=True, text=True, check=False)
        return done.stdout.strip()

    dirty = git("status", "--porcelain", "--untracked-files=no", "src")
    return git("rev-parse", "--short", "HEAD") + ("+changes" if dirty else "")


def write_report(path: str | None, text: str) -> None:
    """Write ``text`` to ``path`` (if given) in one piece: a stopped run leaves the old report."""
    if path:
        atomic_write_text(path, text)
