#!/usr/bin/env python3
"""Edit-to-refresh latency of `mkdocs serve`: how long after an author saves a post the browser
gets the changed page with its convention findings refreshed.

    python scripts/bench_serve.py            # the real site, 10 edits (about 1 minute)
    python scripts/bench_serve.py --quick    # 4 edits
    python scripts/bench_serve.py --synthetic 100   # a synthetic series of 100 posts instead
    python scripts/bench_serve.py --diagram  # edit a diagram instead: each save draws it again

Copies the project (the real series/ by default) to .bench/serve/, starts `mkdocs serve` on a free
port and waits for the first build. Then, alternately, it breaks and repairs one post: a break
removes the two trailing spaces of an image line (a FIG002 violation) and adds a unique word to a
paragraph; a repair puts the spaces back with another word. After each save it polls the post's URL
until the page has the new word and shows (after a break) or no longer shows (after a repair) the
findings box with FIG002. The time from the save to that response is the latency (the watcher's
notice (MkDocs polls the files every 0.5 s; each save falls at a random point of that cycle, seeded),
MkDocs' 0.1 s debounce, the rebuild, the response). Also reported: MkDocs' own
"Documentation built in" times. Target: under 1 s (median) on the 2-core machine, real site.

With --diagram each edit adds a node with a new word to the post's first mermaid diagram instead, and
the page counts as refreshed once the drawn SVG carries the word: the build draws the changed diagram
(the serve session keeps its Chromium after the first drawing; serieskit/publish/draw/).
"""
from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

from _bench import BENCH, PY, ROOT, env, machine, md_table, median, synthetic, update_page

POLL_S = 0.5       # MkDocs' file watcher polls every 0.5 s (mkdocs.livereload, PollingObserver)
TARGET_S = 1.0      # the search issue: edit-to-refresh under 1 s median on the real site


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_project(series_from: Path) -> Path:
    proj = BENCH / "serve"
    if proj.exists():
        shutil.rmtree(proj)
    proj.mkdir(parents=True)
    for name in ("mkdocs.yml", "conventions.yml"):
        shutil.copy(ROOT / name, proj / name)
    for name in ("hooks", "overrides", "docs"):
        shutil.copytree(ROOT / name, proj / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(series_from / "series", proj / "series")
    (proj / "node_modules").symlink_to(ROOT / "node_modules")
    return proj


def pick_post(proj: Path) -> tuple[Path, str, int]:
    """A series post with a captioned image: (path, its URL path, the image line index)."""
    for path in sorted((proj / "series").glob("*/*.md")):
        lines = path.read_text(encoding="utf-8").split("\n")
        m = re.search(r"^slug:\s*(\S+)", "\n".join(lines[:20]), re.M)
        if not m or not re.search(r"^series:", "\n".join(lines[:20]), re.M):
            continue
        for i, line in enumerate(lines):
            if line.startswith("![") and line.endswith(")  ") and i + 1 < len(lines) and lines[i + 1].strip():
                return path, f"/{path.parent.name}/{m.group(1)}/", i
    raise SystemExit("no series post with a captioned image found")


def fig002_box(page: str) -> bool:
    """The page shows the findings box, and FIG002 is in it."""
    box = re.search(r'<aside class="series-findings".*?</aside>', page, re.S)
    return bool(box) and "<strong>FIG002</strong>" in box.group(0)


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=60) as r:
        return r.read().decode("utf-8", "replace")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--edits", type=int, default=10, help="edits (default 10: 5 breaks, 5 repairs)")
    ap.add_argument("--synthetic", type=int, default=0, help="serve a synthetic series of N posts instead")
    ap.add_argument("--quick", action="store_true", help="4 edits")
    ap.add_argument("--no-write", action="store_true", help="do not write docs/performance.md")
    ap.add_argument("--diagram", action="store_true", help="edit a diagram (drawn again on each save)")
    a = ap.parse_args(argv)
    if a.quick:
        a.edits, a.no_write = 4, True
    mach = machine()
    print(f"machine: {mach}")
    src = synthetic(a.synthetic) if a.synthetic else ROOT
    proj = make_project(src)
    post, url_path, img = pick_post(proj)
    if a.diagram:
        a.no_write = True
        fence = next(i for i, ln in enumerate(post.read_text(encoding="utf-8").split("\n")) if ln.startswith("```mermaid"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = BENCH / "serve.log"
    log = open(log_path, "w+b")
    t0 = time.perf_counter()
    server = subprocess.Popen([PY, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"], cwd=proj,
                              env=env(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        while True:
            try:
                page = get(base + url_path)
                break
            except OSError:
                if server.poll() is not None or time.perf_counter() - t0 > 600:
                    log.seek(0)
                    raise SystemExit("mkdocs serve did not start:\n" + log.read().decode("utf-8", "replace")[-3000:])
                time.sleep(0.05)
        print(f"serving {proj.relative_to(ROOT)} ({'synthetic ' + str(a.synthetic) + ' posts' if a.synthetic else 'the real series'})"
              f" on {base}; first build {time.perf_counter() - t0:.1f} s; editing {post.relative_to(proj)}")
        assert not fig002_box(page)
        original = post.read_text(encoding="utf-8").split("\n")
        latencies = []
        rng = random.Random(7)
        for k in range(a.edits):
            # let the watcher settle, then save at a random point of its 0.5 s polling cycle: an author
            # does not save in step with it (a fixed pause locks every edit to one phase of the cycle)
            time.sleep(0.5 + rng.random() * POLL_S)
            broken = k % 2 == 0
            word = f"benchedit{os.getpid()}x{k}"
            lines = list(original)
            if a.diagram:
                lines.insert(fence + 2, f"  Bench{k}[{word}]")
            else:
                if broken:
                    lines[img] = lines[img].rstrip()   # FIG002: the caption is joined without the two spaces
                lines[img + 3] = lines[img + 3] + f" {word}" if lines[img + 3].strip() else word
            t = time.perf_counter()
            post.write_text("\n".join(lines), encoding="utf-8")
            while True:
                page = get(base + url_path)
                at = page.find(word)
                if a.diagram and at >= 0 and page.rfind("<svg", 0, at) > page.rfind("</svg>", 0, at):
                    break   # the word is a label of the drawn diagram
                if not a.diagram and word in page and fig002_box(page) == broken:
                    break
                if time.perf_counter() - t > 120:
                    raise SystemExit(f"edit {k}: the page did not refresh within 120 s")
                time.sleep(0.02)
            latencies.append(time.perf_counter() - t)
            kind = "diagram" if a.diagram else ("break FIG002" if broken else "repair")
            print(f"  edit {k + 1}/{a.edits} ({kind}): {latencies[-1]:.2f} s", flush=True)
        post.write_text("\n".join(original), encoding="utf-8")
    finally:
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    log.seek(0)
    built = [float(x) for x in re.findall(rb"Documentation built in ([\d.]+) seconds", log.read())]
    rebuilds = built[1:]
    lat = median(latencies)
    what = f"synthetic series of {a.synthetic} posts" if a.synthetic else "the real site"
    what += ", a diagram edited" if a.diagram else ""
    verdict = "met" if lat < TARGET_S else "NOT met"
    print(f"\nserve ({what}): edit-to-refresh median {lat:.2f} s over {len(latencies)} edits "
          f"(min {min(latencies):.2f}, max {max(latencies):.2f}); MkDocs rebuild median {median(rebuilds):.2f} s; "
          f"target < {TARGET_S:.0f} s: {verdict}")
    if not a.no_write and not a.synthetic:
        update_page("bench-serve", "\n".join([*md_table(["指标", "中位数", "最小", "最大"], [
            ["保存 → 刷新后的页面（含检查结果）", f"**{lat:.2f} s**", f"{min(latencies):.2f} s", f"{max(latencies):.2f} s"],
            ["其中 MkDocs 重新构建", f"{median(rebuilds):.2f} s", f"{min(rebuilds):.2f} s", f"{max(rebuilds):.2f} s"]]),
            "", f"测量：{time.strftime('%Y-%m-%d')}；{mach}；真实站点，{len(latencies)} 次编辑（交替引入与修复 FIG002）。"]))
        print("wrote docs/performance.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
