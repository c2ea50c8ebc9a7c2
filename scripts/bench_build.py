#!/usr/bin/env python3
"""Build speed: the project's pipeline against a plain Material build of the same posts.

    python scripts/bench_build.py            # N = 100, 300, 500, 1000; 5 alternating rounds up to
                                             # N = 300, 3 above; writes the chart and the figures of
                                             # docs/performance.md
    python scripts/bench_build.py --quick    # N = 20, 60; 1 round; writes nothing under docs/
    python scripts/bench_build.py --profile 1000   # one warm build of (a) under cProfile: the top costs
    python scripts/bench_build.py --redraw   # chart and page again from the last run (.bench/build.json)

Variants, built in one run, alternately (a, b, c, a, b, c, ...) so that the machine's noise hits
them alike, each as `python -m mkdocs build` in a fresh process:

  (a) the project: the repository's mkdocs.yml, hooks, overrides and docs/ over the synthetic
      series (scripts/gen_synthetic.py): loading, linting, rendering, generated pages, vendored
      KaTeX stylesheet, every diagram and formula drawn by the build (serieskit/publish/draw/), the output gate, CSP,
      feeds, the Pagefind search index;
  (b) stock Material: the same post files as plain pages (frontmatter and all), and the site's
      hand-written about and 性能 pages, with the same theme settings and markdown extensions,
      Material's own search plugin (lunr; Chinese segmented by jieba), no hooks, no overrides, no
      mermaid2 (Material's native mermaid fences);
  (c) only at --mermaid2-n (default 500): (a) plus the mermaid2 plugin as it ships (its per-page pass);
  (a cold) once per N: (a) with an empty drawing cache (serieskit/publish/draw/): every diagram drawn in
      Chromium and every formula in Node, beside the warm rounds (a rebuild draws only what changed).

Reported: median wall time, peak memory (RSS of the mkdocs process, os.wait4), ms per post, the
ratio a/b per N, and the marginal cost per post between consecutive N (which excludes the fixed
costs, so a quadratic step shows up as a growing marginal cost). Target: a/b <= 0.9 at every N, and per-post cost flat as N grows. Both variants run with bytecode caching on (as Python
does by default), the project's modules compiled before the first build.
"""
from __future__ import annotations

import argparse
import compileall
import json
import re
import shutil
import time
from pathlib import Path

from _bench import BENCH, PY, ROOT, env, load_now, machine, md_table, median, run, synthetic, table, update_page
from serieskit.parse.yamlblocks import top_level_blocks

DOCS_OUT = ROOT / "docs" / "assets" / "performance"
TARGET_RATIO = 0.9
VARIANTS = {"a": "项目流水线", "b": "原版 Material", "c": "项目 + mermaid2 原版逐页处理"}


# --- projects -------------------------------------------------------------------------------------
def _link_tree(src: Path, dst: Path) -> None:
    """Copy a tree with hard links (cheap; builds only read the sources)."""
    try:
        shutil.copytree(src, dst, copy_function=lambda s, d: __import__("os").link(s, d), symlinks=True)
    except OSError:
        if dst.exists():
            shutil.rmtree(dst)
        shutil.copytree(src, dst, symlinks=True)


def project_a(n: int, syn: Path, stock_mermaid2: bool = False) -> Path:
    """The real project (mkdocs.yml, hooks, overrides, docs) over the synthetic series."""
    proj = BENCH / f"build-{'c' if stock_mermaid2 else 'a'}-{n}"
    if proj.exists():
        shutil.rmtree(proj)
    proj.mkdir(parents=True)
    shutil.copy(ROOT / "conventions.yml", proj / "conventions.yml")
    for name in ("hooks", "overrides", "docs"):
        shutil.copytree(ROOT / name, proj / name, ignore=shutil.ignore_patterns("__pycache__"))
    _link_tree(syn / "series", proj / "series")
    (proj / "node_modules").symlink_to(ROOT / "node_modules")
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    if stock_mermaid2:
        text = text.replace("plugins: []\n", STOCK_MERMAID2_PLUGIN)
    (proj / "mkdocs.yml").write_text(text, encoding="utf-8")
    compileall.compile_dir(proj / "hooks", quiet=1)   # as a first build on an author's machine leaves it
    return proj


# (c): the project with the mermaid2 plugin as it ships (the site itself does not use it): its
# on_post_page re-parses with BeautifulSoup every page that mentions "mermaid" (here: every page,
# the loader is on each) to add its script.
STOCK_MERMAID2_PLUGIN = """plugins:
  - mermaid2:
      javascript: assets/javascripts/mermaid-loader.js
"""


CONTENT_PAGES = ("about.md", "performance.md")


def project_b(n: int, syn: Path) -> Path:
    """Stock Material: the same post files as plain pages, same theme settings, extensions, search."""
    proj = BENCH / f"build-b-{n}"
    if proj.exists():
        shutil.rmtree(proj)
    docs = proj / "docs"
    docs.mkdir(parents=True)
    _link_tree(syn / "series" / "synth", docs / "synth")
    for f in ("series.yml", "glossary.yml"):
        (docs / "synth" / f).unlink()
    (docs / "index.md").write_text("# 合成系列\n\n基准测试用的原版 Material 站点。\n", encoding="utf-8")
    (docs / "synth" / "index.md").write_text("# 合成系列导航\n\n系列文章见左侧导航。\n", encoding="utf-8")
    # The site's own hand-written pages (about, the 性能 page and its chart) are content, not series
    # machinery: (b) builds them too, as plain pages.
    for name in CONTENT_PAGES:
        shutil.copy(ROOT / "docs" / name, docs / name)
    shutil.copytree(ROOT / "docs" / "assets" / "performance", docs / "assets" / "performance")
    keep = {"site_name", "site_description", "site_author", "site_url", "copyright", "docs_dir", "strict", "theme",
            "plugins", "extra", "markdown_extensions", "validation"}
    out = []
    for key, block in top_level_blocks((ROOT / "mkdocs.yml").read_text(encoding="utf-8")):
        if key not in keep:
            continue
        if key == "theme":
            block = re.sub(r"(?m)^  custom_dir:.*\n", "", block)
        elif key == "plugins":
            # Material's own search, as it ships (Material draws mermaid fences itself)
            block = "plugins:\n  - search\n"
        elif key == "extra":
            block = "extra: {}\n"
        out.append(block)
    (proj / "mkdocs.yml").write_text("".join(out), encoding="utf-8")
    return proj


# --- measuring ------------------------------------------------------------------------------------
def build(proj: Path, n: int, variant: str, **extra_env) -> dict:
    out = BENCH / f"site-{variant}-{n}"
    if out.exists():
        shutil.rmtree(out)
    r = run([PY, "-m", "mkdocs", "build", "--quiet", "-d", str(out)], cwd=proj, env=env(**extra_env))
    if r.rc != 0:
        raise SystemExit(f"build ({variant}, N={n}) failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    pages = len(list(out.rglob("index.html")))
    shutil.rmtree(out, ignore_errors=True)
    return {"wall": r.wall, "cpu": r.cpu, "rss": r.maxrss_mb, "pages": pages}


SMALL_N = 300


def rounds_for(n: int, rounds: int, small_rounds: int) -> int:
    """Small sites build in seconds, where a second job on the machine moves a ratio most: more rounds."""
    return max(rounds, small_rounds) if n <= SMALL_N else rounds


def measure(ns: list[int], rounds: int, m2_n: int | None, seed: int, small_rounds: int = 0) -> dict:
    results: dict[str, dict[int, list[dict]]] = {"a": {}, "b": {}, "c": {}, "a_cold": {}}
    compileall.compile_dir(ROOT / "serieskit", quiet=1)
    for n in ns + ([m2_n] if m2_n and m2_n not in ns else []):
        syn = synthetic(n, seed)
        projects = {"a": project_a(n, syn), "b": project_b(n, syn)}
        if n == m2_n:
            projects["c"] = project_a(n, syn, stock_mermaid2=True)
        # (a) cold: an empty drawing cache, so every diagram and formula is drawn (Chromium, Node); it
        # also fills the project's cache, so the rounds below measure the warm build authors rebuild with
        cold = BENCH / f"draw-cold-{n}"
        shutil.rmtree(cold, ignore_errors=True)
        res = build(projects["a"], n, "a", SERIES_DRAW_CACHE=str(cold))
        results["a_cold"].setdefault(n, []).append(res)
        print(f"  N={n:5d} cold     (a) {res['wall']:7.2f} s  {res['rss']:6.0f} MB", flush=True)
        shutil.copytree(cold, projects["a"] / ".cache" / "draw", dirs_exist_ok=True)
        if "c" in projects:
            shutil.copytree(cold, projects["c"] / ".cache" / "draw", dirs_exist_ok=True)
        if n == min(ns):                      # warm-up (file cache, .pyc): once, not counted
            for v, proj in projects.items():
                build(proj, n, v)
        r_n = rounds_for(n, rounds, small_rounds)
        for k in range(r_n):
            for v, proj in projects.items():
                t = time.perf_counter()
                res = build(proj, n, v)
                results[v].setdefault(n, []).append(res)
                print(f"  N={n:5d} round {k + 1}/{r_n} ({v}) {res['wall']:7.2f} s  {res['rss']:6.0f} MB"
                      f"  [{time.perf_counter() - t:.1f} s]", flush=True)
    return results


def summarise(results: dict, ns: list[int], m2_n: int | None) -> dict:
    s: dict = {"ns": ns, "variants": {}}
    for v, by_n in results.items():
        rows = {}
        for n, runs in sorted(by_n.items()):
            wall = median([r["wall"] for r in runs])
            rows[n] = {"wall_s": round(wall, 3), "ms_per_post": round(wall / n * 1000, 2),
                       "peak_rss_mb": round(max(r["rss"] for r in runs)), "cpu_s": round(median([r["cpu"] for r in runs]), 3),
                       "runs_s": [round(r["wall"], 3) for r in runs], "pages": runs[0]["pages"]}
        s["variants"][v] = rows
    return derive(s, m2_n)


def derive(s: dict, m2_n: int | None) -> dict:
    """Ratios, per-post differences, marginal costs and the mermaid2 comparison, from s["variants"]."""
    a, b = s["variants"]["a"], s["variants"]["b"]
    s["ratio"] = {n: round(a[n]["wall_s"] / b[n]["wall_s"], 3) for n in a if n in b}
    s["ratio_cpu"] = {n: round(a[n]["cpu_s"] / b[n]["cpu_s"], 3) for n in a if n in b}
    # what the project adds per post over stock Material (CPU time: robust to the machine's other jobs)
    s["extra_ms_per_post_cpu"] = {n: round((a[n]["cpu_s"] - b[n]["cpu_s"]) / n * 1000, 2) for n in a if n in b}
    s["marginal_ms_per_post"] = {}
    for v in ("a", "b"):
        pts = sorted(s["variants"][v].items())
        s["marginal_ms_per_post"][v] = {f"{n0}-{n1}": round((r1["wall_s"] - r0["wall_s"]) / (n1 - n0) * 1000, 2)
                                        for (n0, r0), (n1, r1) in zip(pts, pts[1:])}
    if m2_n and m2_n in s["variants"]["c"]:
        c = s["variants"]["c"][m2_n]
        s["mermaid2"] = {"n": m2_n, "a_s": a[m2_n]["wall_s"], "c_s": c["wall_s"], "b_s": b[m2_n]["wall_s"],
                         "c_over_a": round(c["wall_s"] / a[m2_n]["wall_s"], 2)}
    return s


def report(s: dict) -> str:
    rows = []
    for n in sorted(set(s["variants"]["a"]) | set(s["variants"]["b"])):
        for v in ("a", "b", "c"):
            r = s["variants"][v].get(n)
            if r is None:
                continue
            ratio = f"{s['ratio'][n]:.2f}" if v == "a" and n in s["ratio"] else ""
            ratio_cpu = f"{s['ratio_cpu'][n]:.2f}" if v == "a" and n in s["ratio_cpu"] else ""
            rows.append([f"N={n}", f"({v})", f"{r['wall_s']:.2f}", f"{r['ms_per_post']:.1f}", f"{r['cpu_s']:.2f}",
                         f"{r['peak_rss_mb']}", ratio, ratio_cpu])
    out = [", ".join(f"({v}) {name}" for v, name in VARIANTS.items()),
           table(rows, ["", "", "median s", "ms/post", "CPU s", "peak RSS MB", "a/b", "a/b CPU"])]
    for v in ("a", "b"):
        m = s["marginal_ms_per_post"][v]
        out.append(f"marginal ms/post ({v}): " + ", ".join(f"N {k}: {x:.1f}" for k, x in m.items()))
    out.append("(a) - (b) per post, CPU ms: " + ", ".join(f"N={n}: {x:.1f}" for n, x in s["extra_ms_per_post_cpu"].items()))
    cold = s["variants"].get("a_cold") or {}
    if cold:
        out.append("(a) cold, every diagram and formula drawn (empty .cache/draw): " + ", ".join(
            f"N={n}: {r['wall_s']:.2f} s (a/b {r['wall_s'] / s['variants']['b'][n]['wall_s']:.2f})"
            for n, r in sorted(cold.items()) if n in s["variants"]["b"]) + "; the a/b target is the warm build's")
    worst = max(s["ratio"].values()) if s["ratio"] else float("nan")
    worst_cpu = max(s["ratio_cpu"].values()) if s["ratio_cpu"] else float("nan")
    out.append(f"a/b at every N <= {TARGET_RATIO}: {'met' if worst <= TARGET_RATIO else 'NOT met'} "
               f"(worst {worst:.2f} wall, {worst_cpu:.2f} CPU)")
    if "mermaid2" in s:
        m = s["mermaid2"]
        out.append(f"mermaid2 at N={m['n']}: stock per-page pass (c) {m['c_s']:.1f} s vs the site without it (a) "
                   f"{m['a_s']:.1f} s = {m['c_over_a']:.2f}x; stock Material (b) {m['b_s']:.1f} s")
    return "\n".join(out)


# --- chart and page -------------------------------------------------------------------------------
def chart(s: dict, path: Path) -> None:
    sys_path = str(ROOT / "scripts" / "figures")
    import sys
    if sys_path not in sys.path:
        sys.path.insert(0, sys_path)
    import logging
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)   # the CJK font stack names fonts other machines have
    from _figstyle import PALETTE, TEXT, plt, save_path
    fig, ax = plt.subplots(figsize=(7.2, 4.0))
    for v, colour, marker in (("a", PALETTE["blue"]["stroke"], "o"), ("b", PALETTE["pink"]["stroke"], "s")):
        pts = sorted(s["variants"][v].items())
        ax.plot([n for n, _ in pts], [r["ms_per_post"] for _, r in pts], marker=marker, color=colour,
                label=f"({v}) {VARIANTS[v]}：墙钟时间")
        ax.plot([n for n, _ in pts], [r["cpu_s"] / n * 1000 for n, r in pts], ls="--", lw=1, marker=marker, ms=3,
                color=colour, alpha=0.7, label=f"({v}) CPU 时间")
    for n, r in s["ratio"].items():
        y = max(s["variants"]["a"][n]["ms_per_post"], s["variants"]["b"][n]["ms_per_post"])
        ax.annotate(f"a/b = {r:.2f}\n(CPU {s['ratio_cpu'][n]:.2f})", (n, y), textcoords="offset points",
                    xytext=(0, 8), ha="center", fontsize=8.5, color=TEXT)
    ax.set_xscale("log")
    ns = sorted(s["variants"]["a"])
    ax.set_xticks(ns)
    ax.set_xticklabels([str(n) for n in ns])
    ax.minorticks_off()
    ax.set_ylim(0, max(r["ms_per_post"] for v in ("a", "b") for r in s["variants"][v].values()) * 1.35)
    ax.set_xlabel("文章数 N（合成系列）")
    ax.set_ylabel("每篇的构建时间（ms，中位数）")
    ax.set_title("mkdocs build：每篇文章的构建时间随 N 的变化", color=TEXT)
    ax.legend(loc="lower right", fontsize=8.5, ncol=2)
    fig.tight_layout()
    save_path(fig, path)


def _rounds_text(s: dict) -> str:
    """"N ≤ 300 各 5 轮，更大的 N 各 3 轮" from the run's record (older records: one number)."""
    r = s.get("rounds", "?")
    if not isinstance(r, dict):
        return f"各 {r} 轮"
    by: dict[int, list[str]] = {}
    for n, k in r.items():
        by.setdefault(int(k), []).append(str(n))
    return "，".join(f"N = {'、'.join(ns)} 各 {k} 轮" for k, ns in by.items())


def page_block(s: dict, when: str, mach: str) -> str:
    rows = []
    for n in sorted(s["ratio"]):
        a, b = s["variants"]["a"][n], s["variants"]["b"][n]
        rows.append([str(n), f"{a['wall_s']:.1f} s", f"{b['wall_s']:.1f} s", f"**{s['ratio'][n]:.2f}**",
                     f"{s['ratio_cpu'][n]:.2f}", f"{a['ms_per_post']:.1f}", f"{b['ms_per_post']:.1f}",
                     f"{a['peak_rss_mb']} MB", f"{b['peak_rss_mb']} MB"])
    lines = md_table(["N", "(a) 项目流水线", "(b) 原版 Material", "a/b", "a/b（CPU 时间）", "(a) ms/篇", "(b) ms/篇",
                      "(a) 峰值内存", "(b) 峰值内存"], rows)
    lines.append("")
    lines.append("- 项目相对原版每篇多花的时间（CPU 时间，(a) − (b) 除以 N）：" + "，".join(
        f"N={n}：{x:.1f} ms" for n, x in s["extra_ms_per_post_cpu"].items()))
    for v in ("a", "b"):
        m = s["marginal_ms_per_post"][v]
        lines.append(f"- 边际成本（{VARIANTS[v]}，每多一篇，墙钟时间）：" + "，".join(f"N {k}：{x:.1f} ms" for k, x in m.items()))
    if "mermaid2" in s:
        m = s["mermaid2"]
        lines.append(f"- mermaid2 原版逐页处理（c）：N={m['n']} 时 {m['c_s']:.1f} s，本项目做法（a）{m['a_s']:.1f} s，"
                     f"慢 {m['c_over_a']:.2f} 倍；原版 Material（b）{m['b_s']:.1f} s。")
    lines += ["", f"测量：{when}；{mach}；结束时 load average {s.get('load_end', '?')}。"
                  f"每个数字是交替构建的中位数（{_rounds_text(s)}）。"]
    return "\n".join(lines)


def profile(n: int, seed: int) -> None:
    """One warm build of (a) under cProfile (a first build, not profiled, fills the drawing cache, as the
    timed warm rounds find it): the project's own costs, and the top costs overall."""
    import pstats
    proj = project_a(n, synthetic(n, seed))
    out, prof = BENCH / f"site-profile-{n}", BENCH / f"build-a-{n}.prof"
    warm = run([PY, "-m", "mkdocs", "build", "--quiet", "-d", str(out)], cwd=proj, env=env())
    if warm.rc != 0:
        raise SystemExit(warm.stderr[-3000:])
    r = run([PY, "-m", "cProfile", "-o", str(prof), "-m", "mkdocs", "build", "--quiet", "-d", str(out)], cwd=proj, env=env())
    shutil.rmtree(out, ignore_errors=True)
    if r.rc != 0:
        raise SystemExit(r.stderr[-3000:])
    print(f"profile of a warm build of (a) at N={n} (cProfile; its own overhead inflates Python-heavy code): {prof}")
    st = pstats.Stats(str(prof))
    print("\nthe project's own code (hooks/, serieskit/), by cumulative time:")
    st.sort_stats("cumulative").print_stats(r"hooks/|serieskit/", 25)
    print("\neverything, by own time:")
    st.sort_stats("tottime").print_stats(20)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", default="100,300,500,1000", help="comma-separated N (default 100,300,500,1000)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3; medians reported)")
    ap.add_argument("--small-rounds", type=int, default=5,
                    help=f"at least this many rounds for N <= {SMALL_N}, whose builds take seconds (default 5)")
    ap.add_argument("--mermaid2-n", type=int, default=500, help="N for the mermaid2 comparison (c); 0 to skip")
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--quick", action="store_true", help="N = 20, 60, 1 round, mermaid2 at 20, nothing written")
    ap.add_argument("--no-write", action="store_true", help="do not write the chart and docs/performance.md")
    ap.add_argument("--profile", type=int, metavar="N", help="instead: profile one warm build of (a) at N posts (cProfile)")
    ap.add_argument("--redraw", action="store_true", help="instead: write the chart and page from the last run's .bench/build.json")
    a = ap.parse_args(argv)
    if a.profile:
        profile(a.profile, a.seed)
        return 0
    if a.redraw:
        s = json.loads((BENCH / "build.json").read_text(encoding="utf-8"))
        s["variants"] = {v: {int(n): r for n, r in d.items()} for v, d in s["variants"].items()}
        s = derive(s, s.get("mermaid2", {}).get("n"))
        print(report(s))
        write(s)
        return 0
    ns = [int(x) for x in a.n.split(",") if x.strip()]
    if a.quick:
        ns, a.rounds, a.small_rounds, a.mermaid2_n, a.no_write = [20, 60], 1, 1, 20, True
    mach = machine()
    print(f"machine: {mach}")
    t0 = time.perf_counter()
    results = measure(ns, a.rounds, a.mermaid2_n or None, a.seed, a.small_rounds)
    s = summarise(results, ns, a.mermaid2_n or None)
    s["rounds"] = {n: rounds_for(n, a.rounds, a.small_rounds) for n in sorted(set(ns) | ({a.mermaid2_n} if a.mermaid2_n else set()))}
    s["machine"] = mach
    s["load_end"] = load_now()
    s["date"] = time.strftime("%Y-%m-%d")
    print()
    print(report(s))
    print(f"\n(total {time.perf_counter() - t0:.0f} s)")
    (BENCH / "build.json").write_text(json.dumps(s, indent=1, ensure_ascii=False), encoding="utf-8")
    if not a.no_write:
        write(s)
    return 0


def write(s: dict) -> None:
    DOCS_OUT.mkdir(parents=True, exist_ok=True)
    chart(s, DOCS_OUT / "build-time-per-post.svg")
    (DOCS_OUT / "build.json").write_text(json.dumps(s, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    update_page("bench-build", page_block(s, s["date"], s["machine"]))
    print(f"wrote {DOCS_OUT.relative_to(ROOT)}/build-time-per-post.svg, build.json and docs/performance.md")


if __name__ == "__main__":
    raise SystemExit(main())
