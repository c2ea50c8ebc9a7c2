#!/usr/bin/env python3
"""Change-to-diagnostics latency of `series-lsp`: how long after a keystroke the editor has the
findings of a 10,000-character post.

    python scripts/bench_lsp.py            # the real project and a 1,000-post synthetic one, 50 changes each
    python scripts/bench_lsp.py --quick    # the real project, 20 changes, nothing written

Copies the project (the real series/, or the synthetic series of scripts/gen_synthetic.py) to
.bench/lsp-<name>/ and adds a post of exactly 10,000 characters (the head of a real post, or of a
synthetic one, cut at a paragraph and filled up with prose). Then it starts the server as an editor
does (a subprocess speaking JSON-RPC over stdio, tests/support/lsp_client.py), opens the post and sends
changes one keystroke at a time: a character typed into a paragraph in the middle of the post, then
deleted, and so on, each an incremental change. The latency of a change is the time from sending it
to receiving the `publishDiagnostics` of its version (the server waits 50 ms after a change before
linting, to lint the latest text of a burst; that wait is included). A burst of 10 keystrokes 20 ms
apart is measured from its last keystroke. Beside it: the lint inside the server (its log), and
`scripts/lint.py <the post>` run as a fresh process, what an author would otherwise run.
Target: diagnostics within 200 ms of a change (the editor issue), on the 2-core machine.
"""
from __future__ import annotations

import argparse
import random
import re
import shutil
import sys
import time
from pathlib import Path

from _bench import BENCH, PY, ROOT, env, machine, md_table, median, run, synthetic, table, update_page

sys.path.insert(0, str(ROOT / "tests"))
from support.lsp_client import Client  # noqa: E402
from support.sitebuild import committed_copy  # noqa: E402

TARGET_S = 0.200
SIZE = 10_000
FILLER = "编辑器里的每一次按键都会让语言服务器重新检查这篇文章，诊断要在两百毫秒内回到编辑器。"
LINTED = re.compile(r"linted \d+ open file\(s\) of .* in ([0-9.]+) ms")


def copy_project(name: str, src: Path, real: bool) -> Path:
    """A fresh copy of a project: the committed files of the real one, or the synthetic tree."""
    dest = BENCH / f"lsp-{name}"
    if dest.exists():
        shutil.rmtree(dest)
    if real:
        committed_copy(dest)
    else:
        shutil.copytree(src, dest, ignore=shutil.ignore_patterns(".stamp"))
    return dest


def ten_thousand(text: str, slug: str) -> str:
    """The post cut at the last blank line (outside a fence) before SIZE characters, renamed so that it
    is a post of its own (slug, order, title), and filled up to exactly SIZE characters with prose."""
    lines, n, fence, cut = text.split("\n"), 0, False, 0
    for i, line in enumerate(lines):
        if line.startswith(("```", "~~~")):
            fence = not fence
        n += len(line) + 1
        if n > SIZE - 200:
            break
        if not line.strip() and not fence:
            cut = i
    head = "\n".join(lines[:cut])
    head = re.sub(r"(?m)^slug: .*$", f"slug: {slug}", head, count=1)
    head = re.sub(r"(?m)^order: .*$", "order: 999", head, count=1)
    head = re.sub(r'(?m)^title: .*$', f'title: "编辑器基准：{slug}"', head, count=1)
    body = head + "\n\n"
    fill = SIZE - len(body) - 1
    para = FILLER * 3 + "\n\n"
    body += (para * (fill // len(para) + 1))[:fill].rstrip("\n").ljust(fill, "。") + "\n"
    assert len(body) == SIZE, len(body)
    return body


def measure(proj: Path, rel: str, changes: int, seed: int) -> dict:
    text = (proj / rel).read_text(encoding="utf-8")
    c = Client(cwd=proj, env=env(), argv=[PY, "-m", "serieskit.lsp", "--log-level", "INFO"])
    try:
        c.initialize(proj)
        uri = (proj / rel).as_uri()
        t0 = time.perf_counter()
        m = c.mark()
        c.open(uri, text)
        first = c.wait_note("textDocument/publishDiagnostics", m, where=lambda p: p["uri"] == uri)
        opened = first["_t"] - t0
        lines = text.split("\n")
        line_no = max(range(len(lines) // 3, len(lines)), key=lambda i: (len(lines[i]) > 40, -i))
        col = len(lines[line_no][:20].encode("utf-16-le")) // 2
        at = {"line": line_no, "character": col}
        rng = random.Random(seed)
        version, lat = 1, []
        for i in range(changes):
            version += 1
            if i % 2 == 0:
                change = ("字", {"start": at, "end": at})
            else:
                change = ("", {"start": at, "end": {"line": line_no, "character": col + 1}})
            lat.append(_one(c, uri, version, *change))
            time.sleep(rng.uniform(0.02, 0.1))
        burst = []
        for _ in range(max(2, changes // 10)):
            for k in range(10):
                version += 1
                t_last = time.perf_counter()
                m = c.mark()
                c.change(uri, version, "字" if k % 2 == 0 else "",
                         {"start": at, "end": at} if k % 2 == 0 else {"start": at, "end": {"line": line_no, "character": col + 1}})
                time.sleep(0.02 if k < 9 else 0)
            note = c.wait_note("textDocument/publishDiagnostics", m,
                               where=lambda p, v=version: p["uri"] == uri and p.get("version") == v)
            burst.append(note["_t"] - t_last)
            time.sleep(0.2)
        assert c.close() == 0
        lints = [float(x) / 1000 for x in LINTED.findall(c.log())][1:]
        return {"opened": opened, "lat": lat, "burst": burst, "lint": lints,
                "findings": len(first["params"]["diagnostics"])}
    finally:
        if c.proc.poll() is None:
            c.proc.kill()


def _one(c: Client, uri: str, version: int, new: str, rng: dict) -> float:
    m = c.mark()
    t = time.perf_counter()
    c.change(uri, version, new, rng)
    note = c.wait_note("textDocument/publishDiagnostics", m,
                       where=lambda p: p["uri"] == uri and p.get("version") == version)
    return note["_t"] - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--changes", type=int, default=50, help="keystrokes per project (default 50)")
    ap.add_argument("--repeat", type=int, default=5, help="runs of the CLI (default 5; the median is reported)")
    ap.add_argument("--synthetic", type=int, default=1000, help="posts of the synthetic project (0: none)")
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--quick", action="store_true", help="the real project, 20 changes, 3 CLI runs, nothing written")
    ap.add_argument("--no-write", action="store_true", help="do not write docs/performance.md")
    a = ap.parse_args(argv)
    if a.quick:
        a.changes, a.repeat, a.synthetic, a.no_write = 20, 3, 0, True
    print(f"machine: {machine()}")
    cases = [("real", ROOT, True, ROOT / "series" / "train-infer-accel" / "moe-training.md", "真实站点")]
    if a.synthetic:
        src = synthetic(a.synthetic, a.seed)
        cases.append((f"synthetic-{a.synthetic}", src, False, next((src / "series").rglob("*.md")), f"合成系列 N={a.synthetic}"))
    results = []
    for name, src, real, post, label in cases:
        proj = copy_project(name, src, real)
        rel = post.relative_to(src).parent.as_posix() + "/bench-lsp.md"
        (proj / rel).write_text(ten_thousand(post.read_text(encoding="utf-8"), "bench-lsp"), encoding="utf-8")
        r = measure(proj, rel, a.changes, a.seed)
        cmd = [PY, str(ROOT / "scripts" / "lint.py"), rel]
        run(cmd, cwd=proj, env=env())                       # warm-up: file cache, .pyc
        r["cli"] = [run(cmd, cwd=proj, env=env()).wall for _ in range(a.repeat)]
        r["label"], r["posts"] = label, sum(1 for _ in (proj / "series").rglob("*.md"))
        results.append(r)
    rows = [[r["label"], str(r["posts"]), f"{median(r['lat']) * 1000:.0f}", f"{max(r['lat']) * 1000:.0f}",
             f"{median(r['burst']) * 1000:.0f}", f"{median(r['lint']) * 1000:.1f}", f"{median(r['cli']):.2f}",
             f"{r['opened'] * 1000:.0f}", str(r["findings"])] for r in results]
    print()
    print(table(rows, ["project", "posts", "change->diag median ms", "max ms", "burst ms", "lint in server ms",
                       "CLI s", "open ms", "findings"]))
    worst = max(max(r["lat"]) for r in results)
    verdict = "met" if all(median(r["lat"]) < TARGET_S for r in results) else "NOT met"
    print(f"\ntarget: diagnostics within {TARGET_S * 1000:.0f} ms of a change (median): {verdict}; "
          f"slowest single change {worst * 1000:.0f} ms; {SIZE:,}-character post, {a.changes} changes per project")
    if not a.no_write:
        update_page("bench-lsp", "\n".join([*md_table(
            ["项目", "文章数", "改动 → 诊断（中位数）", "最大", "连续 10 次按键后", "服务器内检查", "命令行 `lint.py` 这一篇", "打开 → 诊断"],
            [[r["label"], str(r["posts"]), f"**{median(r['lat']) * 1000:.0f} ms**", f"{max(r['lat']) * 1000:.0f} ms",
              f"{median(r['burst']) * 1000:.0f} ms", f"{median(r['lint']) * 1000:.1f} ms", f"{median(r['cli']):.2f} s",
              f"{r['opened'] * 1000:.0f} ms"] for r in results]),
            "", f"目标：改动后 200 ms 内收到诊断。{SIZE:,} 字符的文章，每个项目 {a.changes} 次按键（逐次等诊断）"
                f"与 {max(2, a.changes // 10)} 组连续按键（每组 10 次、间隔 20 ms）；命令行为 {a.repeat} 次运行的中位数。"
                f"测量：{time.strftime('%Y-%m-%d')}；{machine()}。"]))
        print("wrote docs/performance.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
