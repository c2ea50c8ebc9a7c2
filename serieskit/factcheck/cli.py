"""`python scripts/check_sources.py [--root DIR] [--today YYYY-MM-DD]`: check the register of sources
against the fact-check tables and the posts' 参考资料; print each problem, exit 1 when there is any."""
from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

from .check import check


def main(argv: list[str] | None = None, root: Path | None = None) -> int:
    """`root`: the project checked when no --root is given (default: the working directory)."""
    ap = argparse.ArgumentParser(description="Check the register of sources against the fact-check tables and "
                                             "the posts' 参考资料 sections.")
    ap.add_argument("--root", type=Path, default=root or Path.cwd())
    ap.add_argument("--today", type=dt.date.fromisoformat, default=None, help="YYYY-MM-DD (default: the system date)")
    args = ap.parse_args(argv)
    problems = check(args.root, args.today)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} problem(s)", file=sys.stderr)
        return 1
    return 0
