#!/usr/bin/env python3
"""Page weight: what a reader downloads, and when the last diagram is drawn, on a first and a second visit.

Side by side, in one run, on the same build of the real site:
  site         this site: mermaid's ES module build imported on demand (only the chunks of the diagram
               types on the page), KaTeX only on pages with formulas;
  single-file  the same pages served "the common way": mermaid's single-file build dist/mermaid.min.js
               (5.3 MB) with a plain <script> on every page that has a diagram, as mermaid2 does by
               default (the loader is swapped for it in a copy of the build; nothing else changes).
For the home page and for a post with diagrams and formulas (the one with the most diagrams).

Server: 127.0.0.1, a thread of this process. Cache headers (both variants): HTML `Cache-Control:
no-cache` (revalidated with Last-Modified: 304 when unchanged), every other file `public, max-age=86400`.
Transfer: identity (the bytes of the files) and gzip (level 6, text files), as two tables.
First visit: a fresh browser profile. Second visit: a new tab in the same profile (the cache is warm).
Bytes: what came over the network (Chromium's encodedDataLength: headers and bodies; 0 for cache hits).
Requests: every request the page made / those that went over the network. Medians of --runs runs.

    .venv/bin/python scripts/bench_page_weight.py [--runs 5]    (about a minute per run on 2 cores)
"""
from __future__ import annotations

import argparse
import gzip
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from support.browser_harness import INIT_SCRIPT, DESKTOP, SiteServer, build_site, launch, showcase_post  # noqa: E402
from serieskit.model.loader import load_site  # noqa: E402
from serieskit.analysis.mermaid import mermaid_fences  # noqa: E402

SINGLE_FILE = ROOT / "node_modules" / "mermaid" / "dist" / "mermaid.min.js"
LOADER_TAG = re.compile(r'<script src="(?P<up>[^"]*?)assets/javascripts/mermaid-loader\.js"></script>')
MERMAID_BLOCK = re.compile(r'<pre\s+class="mermaid"')
DRAWN_JS = """(n) => window.__seriesDrawn && window.__seriesDrawn.length >= n
                 && !document.querySelector("pre.mermaid") && document.readyState === "complete" """


def single_file_variant(site_dir: Path, out: Path) -> None:
    """A copy of the build where pages with diagrams load mermaid.min.js and the others load no mermaid."""
    shutil.copytree(site_dir, out)
    shutil.copy(SINGLE_FILE, out / "assets" / "vendor" / "mermaid" / "mermaid.min.js")
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        m = LOADER_TAG.search(text)
        if not m:
            continue
        if MERMAID_BLOCK.search(text):
            new = f'<script src="{m.group("up")}assets/vendor/mermaid/mermaid.min.js"></script>'
        else:
            new = ""
        page.write_text(text[:m.start()] + new + text[m.end():], encoding="utf-8")


def visit(ctx, url: str, diagrams: int) -> dict:
    """Open `url` in a new tab of `ctx`; requests, network bytes, load and last-diagram times (ms)."""
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})
    seen: dict[str, str] = {}
    done: dict[str, float] = {}
    cached: set[str] = set()
    cdp.on("Network.requestWillBeSent", lambda e: seen.__setitem__(e["requestId"], e["request"]["url"]))
    cdp.on("Network.loadingFinished", lambda e: done.__setitem__(e["requestId"], e["encodedDataLength"]))
    cdp.on("Network.requestServedFromCache", lambda e: cached.add(e["requestId"]))
    cdp.on("Network.responseReceived", lambda e: e["response"].get("fromDiskCache") and cached.add(e["requestId"]))
    page.goto(url, wait_until="load")
    if diagrams:
        page.wait_for_function(DRAWN_JS, arg=diagrams, timeout=60_000)
    page.wait_for_load_state("networkidle")
    t = page.evaluate("""() => ({ load: performance.getEntriesByType("navigation")[0].loadEventEnd,
                                  drawn: window.__seriesDrawn.length ? Math.max(...window.__seriesDrawn) : null,
                                  timing: performance.getEntriesByType("resource").map((e) => [e.name, e.transferSize]) })""")
    # The search worker's own script finishes on the worker's target, out of this session's sight:
    # its bytes come from the page's Resource Timing (transferSize: 0 when served from the cache).
    timing = dict(t["timing"])
    reqs = [r for r, u in seen.items() if not u.startswith(("data:", "blob:"))]
    sizes = {r: (0 if r in cached else done[r] if r in done else timing.get(seen[r], 0)) for r in reqs}
    out = {"requests": len(reqs), "network": sum(1 for r in reqs if sizes[r] > 0), "bytes": sum(sizes.values()),
           "load": t["load"], "drawn": t["drawn"]}
    page.close()
    return out


def measure(browser, server: SiteServer, path: str, diagrams: int) -> tuple[dict, dict]:
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.add_init_script(INIT_SCRIPT)
    try:
        first = visit(ctx, server.base + path, diagrams)
        second = visit(ctx, server.base + path, diagrams)
    finally:
        ctx.close()
    return first, second


def median(runs: list[dict], key: str):
    vals = [r[key] for r in runs if r[key] is not None]
    return statistics.median(vals) if vals else None


def fmt_bytes(n) -> str:
    return f"{n / 1e6:.2f} MB" if n >= 1e5 else f"{n / 1e3:.1f} kB"


def fmt_ms(v) -> str:
    return "–" if v is None else f"{v:.0f} ms"


def ratio(a, b) -> str:
    return "–" if not a or not b else f"{a / b:.2f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="runs per variant and page (medians are printed)")
    args = ap.parse_args(argv)
    if not SINGLE_FILE.is_file():
        print(f"{SINGLE_FILE.relative_to(ROOT)} is missing: run `npm ci`", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    site = load_site(ROOT)
    post = showcase_post(site)
    pages = [("home", "", 0), (f"post {post.slug}", post.url_dir, len(mermaid_fences(post)))]
    with tempfile.TemporaryDirectory(prefix="bench-weight-") as tmp, sync_playwright() as pw:
        tmp = Path(tmp)
        browser = launch(pw)
        results: dict = {}
        for encoding in ("identity", "gzip"):
            dirs = {"site": tmp / f"site-{encoding}", "single-file": tmp / f"single-{encoding}"}
            dirs["site"].mkdir()
            with SiteServer(dirs["site"], cache=True, gzip=encoding == "gzip") as srv_site:
                r = build_site(dirs["site"], ROOT, site_url=srv_site.base)
                if r.returncode:
                    print(r.stdout + r.stderr, file=sys.stderr)
                    return 1
                single_file_variant(dirs["site"], dirs["single-file"])
                with SiteServer(dirs["single-file"], cache=True, gzip=encoding == "gzip") as srv_single:
                    servers = {"site": srv_site, "single-file": srv_single}
                    for srv in servers.values():               # warm up the browser and the servers
                        for _, path, n in pages:
                            measure(browser, srv, path, n)
                    for name, path, n in pages:
                        runs = {v: ([], []) for v in servers}
                        for i in range(args.runs):
                            order = list(servers.items())
                            for v, srv in (order if i % 2 == 0 else order[::-1]):   # alternating: ABBA...
                                a, b = measure(browser, srv, path, n)
                                runs[v][0].append(a)
                                runs[v][1].append(b)
                        results[(encoding, name)] = runs
        browser.close()

    size = SINGLE_FILE.stat().st_size
    print(f"Page weight, medians of {args.runs} runs. home = the home page; post = {post.rel} "
          f"({pages[1][2]} diagrams, formulas).")
    print(f"site = mermaid imported on demand (this site); single = mermaid.min.js ({fmt_bytes(size)}, "
          f"{size / 2 ** 20:.1f} MiB) with a <script> on pages with diagrams. req = requests, net = of them over "
          f"the network; bytes over the network; load = load event; drawn = last diagram drawn (from navigation start).")
    cols = ("requests", "network", "bytes", "load", "drawn")
    for encoding in ("identity", "gzip"):
        print(f"\ntransfer: {encoding}")
        print(f"{'':<20}|{'first visit':^47}|{'second visit (cache)':^47}")
        print(f"{'page  variant':<20}" + f"|{'req':>5}{'net':>5}{'bytes':>11}{'load':>12}{'drawn':>12}{'':>2}" * 2)
        for name, _, _ in pages:
            label = name.split()[0]
            runs = results[(encoding, name)]
            med = {v: [{k: median(visits, k) for k in cols} for visits in runs[v]] for v in runs}
            for v in ("site", "single-file"):
                row = f"{label:<6}{v.replace('-file', ''):<14}"
                for m in med[v]:
                    row += (f"|{m['requests']:>5.0f}{m['network']:>5.0f}{fmt_bytes(m['bytes']):>11}"
                            f"{fmt_ms(m['load']):>12}{fmt_ms(m['drawn']):>12}{'':>2}")
                print(row)
            row = f"{label:<6}{'site ÷ single':<14}"
            for a, b in zip(med["site"], med["single-file"]):
                row += f"|{'':>5}{'':>5}{ratio(a['bytes'], b['bytes']):>11}{ratio(a['load'], b['load']):>12}{ratio(a['drawn'], b['drawn']):>12}{'':>2}"
            print(row)
        ref = size if encoding == "identity" else len(gzip.compress(SINGLE_FILE.read_bytes(), compresslevel=6))
        post_first = statistics.median(r["bytes"] for r in results[(encoding, pages[1][0])]["site"][0])
        print(f"target: the post's first visit transfers {fmt_bytes(post_first)} = {post_first / ref:.0%} of "
              f"mermaid.min.js alone ({fmt_bytes(ref)} {encoding}): {'met' if post_first < ref / 2 else 'NOT met'} "
              f"(less than half)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
