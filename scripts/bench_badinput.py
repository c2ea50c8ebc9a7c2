#!/usr/bin/env python3
"""How the engine scales on the bad-input corpus' big cases: load + lint time of one post as it grows
(the 5 MB post's kind of text, and nested lists), with ratios side by side. Doubling the input should
about double the time (ratio ~2); ~4 would be quadratic. Not a test: it prints figures.

    python scripts/bench_badinput.py [--repeat 5] [--build]

--build also times `mkdocs build` of the fixture site with the 5 MB post (MkDocs, Markdown and the
search index included) against the fixture alone.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support import badinput_corpus as corpus  # noqa: E402
from support.sitebuild import env, make_project  # noqa: E402
from serieskit.lint.engine import lint  # noqa: E402
from serieskit.model.loader import load_site  # noqa: E402
from serieskit.render.post import render_post  # noqa: E402

HEAD = corpus.HEAD.format(title="基准", slug="bench", summary="基准。")


def nested_one_line(n: int) -> str:
    return HEAD + "- " * n + "最深处\n"


def nested_indented(n: int) -> str:
    return HEAD + "".join("    " * (i % 10) + f"- 第 {i} 项\n" for i in range(n))


def unclosed_links(n: int) -> str:
    return HEAD + "[a](" * n + "\n"


def backtick_runs(n: int) -> str:
    """Runs of 1, 2, 3, ... backticks: none closes another (the old masking rescanned the line each time)."""
    return HEAD + "x".join("`" * i for i in range(1, n)) + "\n"


def figures_and_links(n: int) -> str:
    return HEAD + "".join("![图](assets/fig.svg)  \n图注 [链接](solo.md)\n\n" for _ in range(n))


def big(n_bytes: int) -> str:
    return corpus.big_post_text(n_bytes)


def time_engine(root: Path, text: str, repeat: int) -> float:
    post = root / "series" / "notes" / "bench.md"
    post.write_text(text, encoding="utf-8")
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        site = load_site(root)
        lint(site)
        render_post(site.by_rel["series/notes/bench.md"], site)
        runs.append(time.perf_counter() - t)
    post.unlink()
    return statistics.median(runs)


def series(title: str, root: Path, make, sizes, unit: str, repeat: int) -> None:
    print(f"\n{title}")
    print(f"  {'size':>10}  {'median s':>9}  {'x prev size':>11}  {'x prev time':>11}")
    prev = None
    for s in sizes:
        t = time_engine(root, make(s), repeat)
        if prev is None:
            print(f"  {s:>9}{unit}  {t:9.3f}")
        else:
            print(f"  {s:>9}{unit}  {t:9.3f}  {s / prev[0]:11.1f}  {t / prev[1]:11.2f}")
        prev = (s, t)


def build_time(proj: Path, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        out = proj.parent / "site"
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(out)], cwd=proj, env=env(),
                           capture_output=True, text=True)
        runs.append(time.perf_counter() - t)
        if r.returncode:
            sys.exit(r.stderr[-2000:])
        shutil.rmtree(out)
    return statistics.median(runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--build", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proj = make_project(Path(tmp))
        series("prose post (the 5 MB case's text): load + lint + render", proj, lambda kb: big(kb * 1024),
               [640, 1280, 2560, 5120], " KB", args.repeat)
        series("list items nested in one line (`- - - … x`)", proj, nested_one_line,
               [2500, 5000, 10000, 20000], " items", args.repeat)
        series("list items ten levels deep, one per line", proj, nested_indented,
               [2500, 5000, 10000, 20000], " items", args.repeat)
        series("unclosed links on one line (`[a](` repeated)", proj, unclosed_links,
               [5000, 10000, 20000, 40000], " links", args.repeat)
        series("backtick runs of growing length on one line (characters grow 4x)", proj, backtick_runs,
               [400, 800, 1600, 3200], " runs", args.repeat)
        series("figures with a link in each caption", proj, figures_and_links,
               [2000, 4000, 8000, 16000], " figures", args.repeat)
        if args.build:
            base = build_time(proj, max(1, args.repeat // 2))
            (proj / "series" / "notes" / "big.md").write_text(big(corpus.BIG_SIZE), encoding="utf-8")
            with_big = build_time(proj, max(1, args.repeat // 2))
            print(f"\nmkdocs build (median): fixture {base:.1f} s, fixture + 5 MB post {with_big:.1f} s "
                  f"({with_big / base:.1f}x)")


if __name__ == "__main__":
    main()
