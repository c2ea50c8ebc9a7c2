"""Work over many items in several processes, for a fresh `series-lint` on a large series: the asset
plan's SVG checks and the post rules read one item at a time, and a laptop has more than one core.

`fork_map(fn, items, jobs)` forks (Linux and other systems with `fork`; elsewhere, and for fewer
than `MIN_ITEMS` items, everything runs in this process): each child inherits the process as it
is (the loaded site, the caches), runs `fn` on a contiguous share of `items` and sends back the
results (pickled: plain data). The parent runs the first share itself. The results come back in
the order of `items`, as a serial run gives them.

`fork_start(fn, items, jobs)` gives every share to a child and returns at once: the parent goes on
with other work (the loader reads the posts while the SVG files are checked) and asks for the
results when it needs them (`.results()`).

One child process per share, each with a pipe of its own: a share never waits for another's process.
"""
from __future__ import annotations

import multiprocessing
import os

MIN_ITEMS = 100        # below this a fork costs more than it saves


def default_jobs() -> int:
    """The processes a run may use: the cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:      # not on Linux
        return max(1, os.cpu_count() or 1)


def _shares(items: list, jobs: int) -> list[list]:
    """`items` in up to `jobs` contiguous shares, none empty; one share when forking is not worth it
    (or not possible)."""
    jobs = min(jobs, len(items) // (MIN_ITEMS // 2) or 1)
    if jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return [items]
    size = -(-len(items) // jobs)
    return [items[k:k + size] for k in range(0, len(items), size)]


def fork_map(fn, items: list, jobs: int) -> list:
    """`[fn(share) for share in shares]` of `items` split in up to `jobs` contiguous shares, each
    share's result a list; their concatenation, in order."""
    first, *rest = _shares(items, jobs)
    return _collect([_Child(fn, share) for share in rest], lambda: fn(first))


def _collect(children: list, here=list) -> list:
    """What `here()` returns (the parent's own share), then each child's results, in order; every
    child is stopped whatever happens (a share that failed makes the others' results unwanted)."""
    try:
        return [*here(), *(x for child in children for x in child.result())]
    finally:
        for child in children:
            child.stop()


class Pending:
    """The results of `fork_start`: `results()` waits for the children (or, when nothing was forked,
    runs `fn` here, then)."""

    def __init__(self, fn, items: list, jobs: int):
        shares = _shares(items, jobs)
        self._serial = (fn, items) if len(shares) == 1 else None
        self._children = [] if len(shares) == 1 else [_Child(fn, share) for share in shares]

    def results(self) -> list:
        if self._serial is not None:
            fn, items = self._serial
            return fn(items)
        return _collect(self._children)


def fork_start(fn, items: list, jobs: int) -> Pending:
    """`fn` over `items` in up to `jobs` child processes, started now; `.results()` as fork_map's."""
    return Pending(fn, items, jobs)


class _Child:
    """A forked process running `fn(share)`; `result()` waits for what it sends back."""

    def __init__(self, fn, share: list):
        ctx = multiprocessing.get_context("fork")
        self._conn, theirs = ctx.Pipe(duplex=False)
        self._process = ctx.Process(target=_run, args=(fn, share, theirs), daemon=True)
        self._process.start()
        theirs.close()

    def result(self) -> list:
        try:
            ok, value = self._conn.recv()
        except EOFError:
            self._process.join()
            raise ChildProcessError(f"a worker process ended without its results "
                                    f"(exit status {self._process.exitcode})") from None
        finally:
            self._conn.close()
        self._process.join()
        if not ok:
            raise value
        return value

    def stop(self) -> None:
        """End the process if it still runs (a share before it failed: its results are not wanted)."""
        if self._process.exitcode is None:
            self._process.terminate()
            self._process.join()
        self._conn.close()


def _run(fn, share: list, conn) -> None:
    try:
        out = (True, fn(share))
    except Exception as exc:
        out = (False, exc)
    try:
        conn.send(out)
    except Exception as exc:    # a result or an exception that does not pickle: say so
        conn.send((False, RuntimeError(f"a worker process could not send back {out[1]!r:.200}: {exc}")))
    conn.close()
