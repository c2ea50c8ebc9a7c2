"""Work over many items in several processes, for a fresh `series-lint` on a large series: the asset
plan's SVG checks and the post rules read one item at a time, and a laptop has more than one core.

`fork_map(fn, items, jobs)` forks (Linux and other systems with `fork`; elsewhere, and for fewer
than `MIN_ITEMS` items, everything runs in this process): each child inherits the process as it
is (the loaded site, the caches), runs `fn` on a contiguous share of `items` and sends back the
results (pickled: plain data). The parent runs the first share itself. The results come back in
the order of `items`, as a serial run gives them.
"""
from __future__ import annotations

import multiprocessing
import os

MIN_ITEMS = 100        # below this a fork costs more than it saves
_WORK = None           # (fn, items) while a map is forking: the children read it


def default_jobs() -> int:
    """The processes a run may use: the cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:      # not on Linux
        return max(1, os.cpu_count() or 1)


def fork_map(fn, items: list, jobs: int) -> list:
    """`[fn(share) for share in shares]` of `items` split in up to `jobs` contiguous shares, each
    share's result a list; their concatenation, in order."""
    jobs = min(jobs, len(items) // (MIN_ITEMS // 2) or 1)
    if jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return fn(items)
    global _WORK
    size = -(-len(items) // jobs)
    shares = [(k, min(k + size, len(items))) for k in range(0, len(items), size)]
    _WORK = (fn, items)
    try:
        with multiprocessing.get_context("fork").Pool(len(shares) - 1) as pool:
            pending = pool.map_async(_share, shares[1:])
            results = [_share(shares[0]), *pending.get()]
    finally:
        _WORK = None
    return [x for part in results for x in part]


def _share(bounds: tuple[int, int]) -> list:
    fn, items = _WORK
    return fn(items[bounds[0]:bounds[1]])
