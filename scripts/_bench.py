"""Shared helpers of the benchmark scripts (bench_lint, bench_build, bench_serve).

Benchmarks print figures; they are not tests. Each one is a single command with sensible defaults
and a --quick mode, runs its variants alternately in one process tree so that the machine's noise
hits them alike, and reports medians. Scratch output goes to .bench/ (git-ignored).
"""
from __future__ import annotations

import functools
import hashlib
import os
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / ".bench"
PAGE = ROOT / "docs" / "performance.md"   # the site's 性能 page; each benchmark fills its own block
PY = sys.executable
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

import gen_synthetic  # noqa: E402


def synthetic(n: int, seed: int = 9) -> Path:
    """The synthetic project with n posts under .bench/, generated once per generator version."""
    stamp_text = hashlib.sha256((ROOT / "scripts" / "gen_synthetic.py").read_bytes()
                                + (ROOT / "conventions.yml").read_bytes()).hexdigest() + f" n={n} seed={seed}"
    out = BENCH / f"synthetic-{n}-s{seed}"
    stamp = out / ".stamp"
    if not (stamp.is_file() and stamp.read_text() == stamp_text):
        gen_synthetic.generate(out, n, seed)
        stamp.write_text(stamp_text)
    return out


@dataclass
class Run:
    wall: float          # seconds
    cpu: float           # user + sys seconds of the process and its children
    maxrss_mb: float     # peak resident memory of the process, MB
    rc: int
    stdout: str
    stderr: str


def run(cmd: list[str], cwd: Path | str | None = None, env: dict | None = None, timeout: float = 1800) -> Run:
    """Run a command; wall time, CPU time and peak RSS of exactly that process (os.wait4)."""
    out_path = BENCH / f".out-{os.getpid()}"
    err_path = BENCH / f".err-{os.getpid()}"
    BENCH.mkdir(exist_ok=True)
    with open(out_path, "w+b") as fo, open(err_path, "w+b") as fe:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=fo, stderr=fe)
        deadline = t0 + timeout
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                p.kill()
                pid, status, ru = os.wait4(p.pid, 0)
                break
            time.sleep(0.005)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        fo.seek(0)
        fe.seek(0)
        stdout, stderr = fo.read().decode("utf-8", "replace"), fe.read().decode("utf-8", "replace")
    out_path.unlink(missing_ok=True)
    err_path.unlink(missing_ok=True)
    return Run(wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, p.returncode, stdout, stderr)


def median(xs) -> float:
    return statistics.median(xs) if xs else float("nan")


def load_now() -> str:
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def _loop_ms() -> float:
    t, acc = time.perf_counter(), 0
    for i in range(1_000_000):
        acc += i * i % 7
    return (time.perf_counter() - t) * 1000


@functools.cache
def reference_ms() -> float:
    """How fast this machine runs Python now: a fixed loop of a million steps, the fastest of five
    runs, in ms (lower is faster). The machine's speed moves within an hour (the 性能 page), so two
    runs of a benchmark compare only beside this figure. Measured once per process."""
    return min(_loop_ms() for _ in range(5))


def machine() -> str:
    return (f"{os.cpu_count()} CPU(s), Python {platform.python_version()}, {platform.system()} "
            f"{platform.release()}; load average {load_now()} (1/5/15 min); "
            f"a reference Python loop {reference_ms():.0f} ms (lower is faster)")


def env(**extra) -> dict:
    """The environment of a measured command: a normal Python, which caches bytecode (a sandbox may
    set PYTHONDONTWRITEBYTECODE; then the project's own modules would be compiled on every run while
    the installed packages' bytecode is cached, which is not what authors see)."""
    e = dict(os.environ)
    e.pop("PYTHONDONTWRITEBYTECODE", None)
    e.update({"NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": gen_synthetic.SOURCE_DATE_EPOCH,
              "PYTHONPATH": str(ROOT)})
    e.update(extra)
    return e


def table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    line = lambda r: "  ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(r, widths)))  # noqa: E731
    return "\n".join([line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def update_page(marker: str, body: str) -> None:
    """Replace the block between `<!-- marker:start -->` and `<!-- marker:end -->` of docs/performance.md."""
    text = PAGE.read_text(encoding="utf-8")
    start, end = f"<!-- {marker}:start -->", f"<!-- {marker}:end -->"
    i, j = text.index(start) + len(start), text.index(end)
    PAGE.write_text(text[:i] + "\n" + body.rstrip("\n") + "\n" + text[j:], encoding="utf-8")


def md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    """Lines of a Markdown table: the first column left-aligned, the others right-aligned."""
    return ["| " + " | ".join(header) + " |", "|---" + "|---:" * (len(header) - 1) + "|",
            *("| " + " | ".join(r) + " |" for r in rows)]
