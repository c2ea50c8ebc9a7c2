#!/usr/bin/env python3
"""What readers get, as Lighthouse (12.8.2, pinned in package.json) scores it on a phone: performance
and accessibility of the home page, each series index and every post.

The site is built (or `--site DIR`, a built site) and served on 127.0.0.1 the way a static host serves
it: gzip for text files, the `_headers` file's Content-Security-Policy with every response, HTML
revalidated and every other file cached for a day (tests/support/browser_harness.py SiteServer). Each page is
one run of

    node_modules/.bin/lighthouse URL --form-factor=mobile --only-categories=performance,accessibility
        --output=json --quiet --chrome-flags="--headless=new --no-sandbox"      (CHROME_PATH=/usr/bin/chromium)

with Lighthouse's own mobile emulation and simulated slow 4G. Printed per page: performance score, total
blocking time, largest contentful paint, accessibility score (and the audits that fail it), script
bytes transferred; above the table, the machine's speed as Lighthouse measured it before each run
(`benchmarkIndex`: the 4x slower CPU is 4x slower than this machine, so blocking times read in a slow
spell are longer). A benchmark, not a test: the target is accessibility 100 on every page.

One run of a page varies a lot (the ranges beside each median on the 性能 page, 读者体验, show how
much), so each page is run `--runs` times (5 by default, as Lighthouse's docs/variability.md
advises: "the median Lighthouse score of 5 runs is twice as stable as 1 run") and the run printed is the
one Lighthouse's own `computeMedianRun` (core/lib/median-run.js) picks: the run closest to the median
first paint and time to interactive. Beside it, the median, lowest and highest blocking time of the
runs (the median run's own blocking time may be any of them).

Lighthouse 12.8.2, not 12.2.3: up to 12.5 Lighthouse's trace also records style-invalidation tracking
(`disabled-by-default-devtools.timeline.invalidationTracking`, for layout-shift root causes), which
slows every style recalculation of the traced page; on these pages one recalculation takes some 30
times longer with it, and Lighthouse counts that time as blocking time the reader never has. 12.6
dropped the category; 12.8.2 is the newest release that runs on Node 20 (13.x needs Node 22).

    .venv/bin/python scripts/bench_readers.py                      # every page, 5 runs each (about 1 min a page)
    .venv/bin/python scripts/bench_readers.py --quick              # home, one series index, one post, 1 run each
    .venv/bin/python scripts/bench_readers.py --runs 3             # fewer runs a page (the default is 5)
    .venv/bin/python scripts/bench_readers.py --compare .bench/readers-main.json   # beside a saved run
    .venv/bin/python scripts/bench_readers.py --site /tmp/main-site --save .bench/readers-main.json

The run is written to .bench/readers.json (and to --save FILE); `--compare` takes such a file, or a
built site's folder (then measured in the same run, each page's runs taking turns between the two
sites, and written to .bench/readers-compared.json), and prints it beside the current one.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from support.browser_harness import CHROMIUM, SiteServer, build_site  # noqa: E402
from serieskit.model.loader import load_site  # noqa: E402
from serieskit.model.urls import page_file, url_dir  # noqa: E402

BENCH = ROOT / ".bench"
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
MEDIAN_RUN = ROOT / "node_modules" / "lighthouse" / "core" / "lib" / "median-run.js"
FLAGS = ["--form-factor=mobile", "--only-categories=performance,accessibility", "--output=json", "--quiet",
         "--chrome-flags=--headless=new --no-sandbox"]


def pages(quick: bool) -> list[str]:
    """URL paths: the home page, each series index, every published post (quick: one of each)."""
    site = load_site(ROOT)
    indexes = [url_dir(s.index_site_path) for s in site.series.values()]
    posts = [p.url_dir for p in site.posts if not p.is_draft]
    if quick:
        return [""] + indexes[:1] + posts[:1]
    return [""] + indexes + posts


def lighthouse(url: str) -> dict:
    """One Lighthouse run of a page: the figures this benchmark prints (None where a run failed)."""
    env = dict(os.environ, CHROME_PATH=CHROMIUM)
    r = subprocess.run([str(LIGHTHOUSE), url, *FLAGS], capture_output=True, text=True, env=env, timeout=300)
    try:
        lhr = json.loads(r.stdout)
    except json.JSONDecodeError:
        return {"error": (r.stderr or r.stdout)[-400:].strip() or f"exit {r.returncode}"}
    cats, audits = lhr.get("categories", {}), lhr.get("audits", {})
    score = lambda c: None if cats.get(c, {}).get("score") is None else round(cats[c]["score"] * 100)   # noqa: E731
    num = lambda a: (audits.get(a) or {}).get("numericValue")   # noqa: E731
    items = ((audits.get("resource-summary") or {}).get("details") or {}).get("items", [])
    scripts = next((i.get("transferSize") for i in items if i.get("resourceType") == "script"), None)
    failing = sorted(ref["id"] for ref in cats.get("accessibility", {}).get("auditRefs", [])
                     if ref.get("weight") and (audits.get(ref["id"]) or {}).get("score") == 0)
    problem = lhr.get("runtimeError", {}).get("message")
    return {"performance": score("performance"), "tbt_ms": num("total-blocking-time"),
            "lcp_ms": num("largest-contentful-paint"), "accessibility": score("accessibility"),
            "script_bytes": scripts, "a11y_failing": failing, "fcp_ms": num("first-contentful-paint"),
            "tti_ms": num("interactive"), "benchmark_index": (lhr.get("environment") or {}).get("benchmarkIndex"),
            **({"error": problem} if problem else {})}


def median_run(runs: list[dict]) -> dict:
    """The run Lighthouse's computeMedianRun picks (closest to the median first paint and time to
    interactive), with the lowest and highest blocking time of all the runs beside it."""
    good = [r for r in runs if r.get("fcp_ms") is not None and r.get("tti_ms") is not None]
    if not good:
        return runs[-1]
    lhrs = [{"audits": {"first-contentful-paint": {"numericValue": r["fcp_ms"]},
                        "interactive": {"numericValue": r["tti_ms"]}}, "run": k} for k, r in enumerate(good)]
    js = (f"import {{computeMedianRun}} from {json.dumps(MEDIAN_RUN.as_uri())};"
          "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(computeMedianRun(JSON.parse(s)).run));")
    r = subprocess.run(["node", "--input-type=module", "-e", js], input=json.dumps(lhrs), capture_output=True,
                       text=True, check=True)
    tbts = sorted(x["tbt_ms"] for x in good if x.get("tbt_ms") is not None)
    return {**good[int(r.stdout)], "runs": len(runs), "tbt_range": [tbts[0], tbts[-1]] if tbts else None,
            "benchmark_indexes": [x.get("benchmark_index") for x in runs],
            "tbt_median_ms": (tbts[(len(tbts) - 1) // 2] + tbts[len(tbts) // 2]) / 2 if tbts else None}


def measure(sites: list[tuple[Path | None, str]], paths: list[str], runs: int = 1) -> list[dict]:
    """Each of `sites` (a built site's folder, or None: build this checkout; and its label) served at
    once, Lighthouse run `runs` times on each page of each (`median_run`). A page's runs take turns
    between the sites, in the order A B, B A, A B...: the machine's speed drifts over a benchmark
    of half an hour (a page identical in two builds, measured one build after the other, can differ
    by more than the change being measured), and taking turns lays that drift on both sides alike."""
    with tempfile.TemporaryDirectory(prefix="bench-readers-") as tmp, contextlib.ExitStack() as stack:
        served = []
        for k, (site_dir, _) in enumerate(sites):
            out = site_dir or Path(tmp) / f"site{k}"
            srv = stack.enter_context(SiteServer(out, cache=True, gzip=True, headers=True))
            if site_dir is None:
                out.mkdir()
                r = build_site(out, ROOT, site_url=srv.base)
                if r.returncode != 0:
                    sys.exit(f"build failed:\n{(r.stdout + r.stderr)[-3000:]}")
            served.append((out, srv))
        results: list[dict] = [{} for _ in sites]
        for path in paths:
            got: list[list[dict]] = [[] for _ in sites]
            for k in range(runs):
                order = list(range(len(sites)))
                for i in order[::-1] if k % 2 else order:
                    out, srv = served[i]
                    if (out / page_file(path)).is_file():
                        got[i].append(lighthouse(srv.base + path))
            for i, runs_of in enumerate(got):
                results[i][path] = median_run(runs_of) if runs_of else {"error": "no such page in this build"}
            print(f"  /{path} done", file=sys.stderr)
    return [{"label": label, "site": str(site_dir) if site_dir else "built from this checkout", "runs": runs,
             "benchmark_index": machine_speed(res), "pages": res} for (site_dir, label), res in zip(sites, results)]


def machine_speed(pages: dict) -> list[float] | None:
    """The lowest, median and highest `benchmarkIndex` of the runs: Lighthouse's own measure of the
    machine's speed (lhr.environment.benchmarkIndex, higher is faster), taken before each run. Its
    4x CPU slowdown is of this machine, so a blocking time read on a slower spell is longer: two
    figures are comparable only beside their machines' speeds."""
    got = sorted(i for res in pages.values() for i in res.get("benchmark_indexes", []) if i)
    return [got[0], got[len(got) // 2], got[-1]] if got else None


def cell(res: dict | None) -> list[str]:
    if not res:
        return ["", "", "", "", "", ""]
    if "error" in res and res.get("performance") is None:
        return ["error", "", "", "", "", ""]
    f = lambda v, d=1: "" if v is None else f"{v / d:,.0f}"   # noqa: E731
    spread = res.get("tbt_range")
    runs = f"{f(res.get('tbt_median_ms'))} ({f(spread[0])}–{f(spread[1])})" if spread else ""
    return [f(res.get("performance")), f(res.get("tbt_ms")), runs,
            f(res.get("lcp_ms")), f(res.get("accessibility")), f(res.get("script_bytes"), 1024)]


def table(run: dict, other: dict | None) -> str:
    head = ["perf", "TBT ms", "TBT of the runs: median (range)", "LCP ms", "a11y", "script KB"]
    paths = list(run["pages"]) + [p for p in (other or {}).get("pages", {}) if p not in run["pages"]]
    rows = []
    for p in paths:
        now = cell(run["pages"].get(p))
        if other is None:
            rows.append(["/" + p] + now)
        else:
            was = cell(other["pages"].get(p))
            rows.append(["/" + p] + [f"{a} → {b}" if a != b else b for a, b in zip(was, now)])
    width = [max(len(r[i]) for r in rows + [["page"] + head]) for i in range(len(head) + 1)]
    lines = []
    for r in ([other] if other is not None else []) + [run]:
        if r.get("benchmark_index"):
            low, mid, high = r["benchmark_index"]
            lines.append(f"{r['label']}: Lighthouse's benchmarkIndex of the machine (higher is faster) "
                         f"{mid:,.0f} ({low:,.0f}–{high:,.0f})")
    if other is not None:
        lines.append(f"before: {other['label']} ({other['site']}, {other.get('runs', 1)} run(s) a page); "
                     f"after: {run['label']} ({run['site']}, {run.get('runs', 1)} run(s) a page)")
    else:
        lines.append(f"{run.get('runs', 1)} run(s) a page; the median run (Lighthouse's computeMedianRun)")
    lines.append("  ".join(h.ljust(width[i]) if i == 0 else h.rjust(width[i]) for i, h in enumerate(["page"] + head)))
    for r in rows:
        lines.append("  ".join(c.ljust(width[i]) if i == 0 else c.rjust(width[i]) for i, c in enumerate(r)))
    failing = {p: r.get("a11y_failing") for p, r in run["pages"].items() if r.get("a11y_failing")}
    for p, ids in failing.items():
        lines.append(f"/{p}: accessibility audits failing: {', '.join(ids)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", type=Path, help="a built site to measure instead of building this checkout")
    ap.add_argument("--quick", action="store_true", help="home, one series index, one post")
    ap.add_argument("--compare", help="a saved run (JSON) or a built site's folder, printed beside this run")
    ap.add_argument("--save", type=Path, help="also write this run to FILE")
    ap.add_argument("--label", default="current", help="the run's name in the table and the JSON")
    ap.add_argument("--page", action="append", help="only this page (a URL path such as train-infer-accel/tech-map/; "
                    "may be given more than once)")
    ap.add_argument("--runs", type=int, help="Lighthouse runs a page, the median one printed (default 5; --quick: 1)")
    args = ap.parse_args(argv)
    runs = args.runs or (1 if args.quick else 5)
    if not LIGHTHOUSE.is_file():
        print(f"{LIGHTHOUSE} is missing: run `npm ci` (lighthouse is a devDependency in package.json)", file=sys.stderr)
        return 2
    if not Path(CHROMIUM).is_file():
        print(f"Lighthouse needs Chromium at {CHROMIUM}", file=sys.stderr)
        return 2
    paths = [p.strip("/") + "/" if p.strip("/") else "" for p in args.page] if args.page else pages(args.quick)
    other = None
    c = Path(args.compare) if args.compare else None
    if c is not None and not c.exists():
        print(f"--compare {c}: no such file or folder", file=sys.stderr)
        return 2
    BENCH.mkdir(exist_ok=True)
    if c is not None and c.is_dir():   # both measured now, their runs taking turns
        other, run = measure([(c, "compared"), (args.site, args.label)], paths, runs)
        (BENCH / "readers-compared.json").write_text(json.dumps(other, ensure_ascii=False, indent=1) + "\n",
                                                     encoding="utf-8")
    else:
        other = json.loads(c.read_text(encoding="utf-8")) if c is not None else None
        run, = measure([(args.site, args.label)], paths, runs)
    for f in [BENCH / "readers.json"] + ([args.save] if args.save else []):
        f.write_text(json.dumps(run, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(table(run, other))
    return 0


if __name__ == "__main__":
    sys.exit(main())
