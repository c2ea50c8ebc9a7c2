#!/usr/bin/env python3
"""Search: what it costs a reader, and how well it finds, beside what a user would pick instead.

Two variants of the same pages, built and served side by side:
  site       this site: Pagefind's static index (hooks/serieshooks/search.py), fetched only when the reader searches,
             a few fragments per query (docs/assets/javascripts/search.js);
  material   stock Material for MkDocs with its own search plugin (lunr, Chinese segmented by jieba
             with the glossary as the user dictionary): the same posts as plain pages.
On the real site, and on the synthetic series (scripts/gen_synthetic.py) at --n posts.

Bytes: what came over the network in Chromium (body as transferred plus headers; gzip level 6 for text
files, as static hosts serve them; no HTTP caching): the search's files fetched by opening the home page
and then a post (two full page loads) before any search; the first query (engine included); each later query (median and maximum). Targets: 0 before
search, first query <= 350 kB, later queries <= 100 kB (median).
Relevance (real site): precision@3 of tests/search/queries.yml for both, each through its own search box.

    .venv/bin/python scripts/bench_search.py [--n 1000] [--quick]     (--quick: the real site only)
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import shutil
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "scripts")]

from _bench import BENCH, PY, env, machine, md_table, run, synthetic, table, update_page  # noqa: E402
from bench_build import project_a, project_b  # noqa: E402
from support.browser_harness import DESKTOP, SiteServer, launch  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402
from support.search_harness import TOP, load_queries, precision_at  # noqa: E402
import gen_synthetic  # noqa: E402

READY_S = 120      # a search that is not ready this long after the reader opens it: not measured further


class NotReady(Exception):
    """Material's search was still initialising (downloading and loading its index) after READY_S."""


SEARCH_FILE = re.compile(r"/pagefind/|/search/search_index\.json|/workers/search\.[^/]*\.js")
KB = 1000


# --- the variants -----------------------------------------------------------------------------------
def material_site(src_series: Path, dest: Path, glossary_words: list[str]) -> Path:
    """Stock Material over the posts of `src_series` (frontmatter and all, as plain pages) with its own
    search, and the glossary's Chinese terms as jieba's user dictionary (as this site had it)."""
    proj = dest
    if proj.exists():
        shutil.rmtree(proj)
    docs = proj / "docs"
    docs.mkdir(parents=True)
    for md in sorted(src_series.rglob("*.md")):
        out = docs / md.relative_to(src_series)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(md, out)
    for asset in src_series.rglob("assets"):
        if asset.is_dir():
            shutil.copytree(asset, docs / asset.relative_to(src_series), dirs_exist_ok=True)
    (docs / "index.md").write_text("# 训推加速\n", encoding="utf-8")
    words = "".join(f"{w.replace(' ', '')} 20000 n\n" for w in dict.fromkeys(glossary_words)
                    if re.search(r"[\u4e00-\u9fff]", w))
    (proj / "jieba_user_dict.txt").write_text(words, encoding="utf-8")
    (proj / "mkdocs.yml").write_text(
        "site_name: 训推加速\n"
        "theme:\n  name: material\n  language: zh\n  font: false\n"
        "  features: [navigation.instant, search.highlight, search.suggest]\n"
        "plugins:\n  - search:\n      jieba_dict_user: jieba_user_dict.txt\n"
        "markdown_extensions: [tables, attr_list, md_in_html, admonition, pymdownx.superfences]\n"
        "validation: {nav: {omitted_files: ignore, not_found: ignore}, links: {not_found: ignore, anchors: ignore, "
        "unrecognized_links: ignore}}\n", encoding="utf-8")
    return proj


def build(proj: Path, out: Path, site_url: str) -> None:
    if out.exists():
        shutil.rmtree(out)
    r = run([PY, "-m", "mkdocs", "build", "--quiet", "-d", str(out)], cwd=proj, env=env(SITE_URL=site_url))
    if r.rc != 0:
        raise SystemExit(f"build of {proj} failed:\n{r.stderr[-3000:]}")


def glossary_words(series_dir: Path) -> list[str]:
    import yaml
    out = []
    for g in series_dir.rglob("glossary.yml"):
        for e in yaml.safe_load(g.read_text(encoding="utf-8")) or []:
            out += [e.get("term", ""), *(e.get("aliases") or [])]
    return [w for w in out if w]


# --- the reader ------------------------------------------------------------------------------------
class Reader:
    """One fresh browser profile; the bytes of every finished response (the page's and its workers':
    Pagefind fetches index chunks from a worker), body as transferred plus headers."""

    def __init__(self, browser, base: str):
        self.ctx = browser.new_context(viewport=DESKTOP)
        self.page = self.ctx.new_page()
        self.base = base
        self.urls: dict[int, str] = {}
        self.bytes: dict[int, int] = {}
        self.ctx.on("requestfinished", self._finished)

    def _finished(self, request) -> None:
        try:
            sz = request.sizes()
        except Exception:  # noqa: BLE001 - a request of a closed page
            return
        k = id(request)
        self.urls[k] = request.url
        self.bytes[k] = sz["responseBodySize"] + sz["responseHeadersSize"]

    def search_bytes(self, since: set[str] = frozenset()) -> int:
        return sum(n for r, n in self.bytes.items() if r not in since and SEARCH_FILE.search(self.urls.get(r, "")))

    def all_bytes(self, since: set[str] = frozenset()) -> int:
        return sum(n for r, n in self.bytes.items() if r not in since)

    def mark(self) -> set[str]:
        self.page.wait_for_timeout(150)
        return set(self.bytes)

    def close(self):
        self.ctx.close()


def ask(reader: Reader, q: str, variant: str) -> list[str]:
    """Type a query into the site's own search box; the result pages' URLs, best first."""
    page = reader.page
    box = page.locator("input.md-search__input")
    if not page.evaluate("document.getElementById('__search').checked"):
        box.click()
    box.fill("")
    box.fill(q)
    box.press("End")          # Material searches on keyup (an IME commits with a key press)
    if variant == "site":
        page.wait_for_function("(q) => document.querySelector('input.md-search__input').value === q && "
                               "/找到|没有/.test(document.querySelector('[data-series-search-meta]').textContent)", arg=q,
                               timeout=60_000)
        page.wait_for_load_state("networkidle")
    else:
        try:
            page.wait_for_function("() => !/初始化/.test(document.querySelector('.md-search-result__meta').textContent)",
                                   timeout=READY_S * 1000)
        except PlaywrightTimeout:
            raise NotReady from None
        page.wait_for_timeout(400)
    links = page.locator(".md-search-result__item a.md-search-result__link")
    pages: list[str] = []           # result pages in order (Material lists a page's sections under it)
    for href in links.evaluate_all("els => els.map(e => e.href)"):
        page_url = href.split("#", 1)[0].split("?", 1)[0]
        if page_url not in pages:
            pages.append(page_url)
    return pages[:10]


def measure(browser, base: str, variant: str, pages: list[str], queries: list[str]) -> dict:
    reader = Reader(browser, base)
    try:
        for p in pages:
            reader.page.goto(base + p, wait_until="networkidle")
        before = reader.search_bytes()
        visit = reader.all_bytes()
        per_query, results = [], []
        for q in queries:
            seen = reader.mark()
            try:
                results.append(ask(reader, q, variant))
            except NotReady:
                return {"visit_kB": visit / KB, "before_kB": before / KB, "first_kB": reader.all_bytes(seen) / KB,
                        "later_median_kB": float("nan"), "later_max_kB": float("nan"), "queries": 0,
                        "results": [[] for _ in queries], "not_ready": True}
            reader.page.wait_for_timeout(100)
            per_query.append(reader.all_bytes(seen))
        later = per_query[1:] or [0]
        return {"visit_kB": visit / KB, "before_kB": before / KB, "first_kB": per_query[0] / KB,
                "later_median_kB": statistics.median(later) / KB, "later_max_kB": max(later) / KB,
                "queries": len(queries), "results": results, "not_ready": False}
    finally:
        reader.close()


def relative(results: list[list[str]], base: str) -> list[list[str]]:
    return [[u.replace(base, "/") if u.startswith(base) else u for u in r] for r in results]


# --- runs ------------------------------------------------------------------------------------------
def real_site(browser) -> dict:
    queries = load_queries()
    qs = [q["q"] for q in queries]
    out = {}
    variants = {"site": ROOT, "material": material_site(ROOT / "series", BENCH / "search-material-real-project",
                                                          glossary_words(ROOT / "series"))}
    post = "train-infer-accel/speculative-decoding-eagle3/"
    for v, proj in variants.items():
        dest = BENCH / f"search-{v}-real"
        dest.mkdir(parents=True, exist_ok=True)
        with SiteServer(dest, gzip=True) as srv:
            build(proj, dest, srv.base)
            m = measure(browser, srv.base, v, ["", post], qs)
        m["precision"], m["misses"] = precision_at(queries, relative(m.pop("results"), srv.base))
        out[v] = m
        print(f"  real site, {v}: {json.dumps({k: round(x, 1) if isinstance(x, float) else x for k, x in m.items() if k != 'misses'})}",
              flush=True)
    return out


def synthetic_site(browser, n: int) -> dict:
    syn = synthetic(n)
    terms = gen_synthetic.TERMS[:min(n, 20)]
    qs = [t[0] for t in terms] + [t[1] for t in terms[:10]]
    expected = [{"q": t[0], "post": gen_synthetic.slug_of(k)} for k, t in enumerate(terms)] + \
               [{"q": t[1], "post": gen_synthetic.slug_of(k)} for k, t in enumerate(terms[:10])]
    out = {}
    variants = {"site": project_a(n, syn), "material": project_b(n, syn)}
    post = next(iter(sorted((syn / "series").rglob("*.md")))).relative_to(syn / "series").with_suffix("")
    for v, proj in variants.items():
        dest = BENCH / f"search-{v}-{n}"
        dest.mkdir(parents=True, exist_ok=True)
        with SiteServer(dest, gzip=True) as srv:
            build(proj, dest, srv.base)
            index = sum(p.stat().st_size for p in (dest / "pagefind").rglob("*") if p.is_file()) if v == "site" else \
                (dest / "search" / "search_index.json").stat().st_size
            m = measure(browser, srv.base, v, ["", f"{post.as_posix()}/" if v == "site" else f"synth/{post.name}/"], qs)
        m["index_on_disk_kB"] = index / KB
        m["precision"], m["misses"] = precision_at(expected, relative(m.pop("results"), srv.base))
        out[v] = m
        print(f"  N={n}, {v}: {json.dumps({k: round(x, 1) if isinstance(x, float) else x for k, x in m.items() if k != 'misses'})}",
              flush=True)
    return out


def report(s: dict) -> str:
    rows = []
    for label, r in s["runs"].items():
        for v in ("site", "material"):
            m = r[v]
            if m.get("not_ready"):
                rows.append([label, v, f"{m['before_kB']:.0f}", f"not ready in {READY_S} s", "-", "-", f"{m['visit_kB']:.0f}", "-"])
                continue
            rows.append([label, v, f"{m['before_kB']:.0f}", f"{m['first_kB']:.0f}", f"{m['later_median_kB']:.1f}",
                         f"{m['later_max_kB']:.0f}", f"{m['visit_kB']:.0f}", f"{m['precision']:.3f}"])
    out = [table(rows, ["", "", "before search kB", "1st query kB", "later median kB", "later max kB",
                        "2 pages kB", f"precision@{TOP}"])]
    for label, r in s["runs"].items():
        if r["material"].get("not_ready"):
            out.append(f"{label}: Material's search was not ready {READY_S} s after the reader opened it "
                       f"(its index is {r['material'].get('index_on_disk_kB', 0) / 1000:.0f} MB on disk); no query ran")
        m = r["site"]
        ok = m["before_kB"] == 0 and m["first_kB"] <= 350 and m["later_median_kB"] <= 100
        out.append(f"{label}: targets (0 before, first <= 350 kB, later median <= 100 kB) "
                   f"{'met' if ok else 'NOT met'}")
        for v in ("site", "material"):
            if r[v]["misses"]:
                out.append(f"  {v} misses: " + "; ".join(r[v]["misses"]))
    return "\n".join(out)


def page_block(s: dict, when: str, mach: str) -> str:
    names = {"site": "本站（Pagefind）", "material": "原版 Material 搜索（lunr + jieba）"}
    labels = {"real site": "真实站点"}
    rows = []
    for label, r in s["runs"].items():
        for v in ("site", "material"):
            m = r[v]
            if m.get("not_ready"):
                rows.append([labels.get(label, label), names[v], f"{m['before_kB']:.0f} kB", f"{READY_S} s 后仍在加载索引", "—", "—", "—"])
                continue
            rows.append([labels.get(label, label), names[v], f"{m['before_kB']:.0f} kB", f"{m['first_kB']:.0f} kB",
                         f"{m['later_median_kB']:.1f} kB", f"{m['later_max_kB']:.0f} kB", f"{m['precision']:.2f}"])
    lines = md_table(["站点", "搜索", "打开搜索前", "第一次查询", "之后每次（中位数）", "之后每次（最大）",
                      f"precision@{TOP}"], rows)
    lines += ["", "打开搜索前 = 依次打开首页和一篇文章（整页加载，服务器不允许缓存，即两次首次访问）时为搜索下载的字节之和；"
                  "合成系列里每篇都用到同一组术语，常见词的索引分块最大。",
              f"测量：{when}；{mach}；Chromium，gzip 传输，字节为网络实际传输量（含响应头）。"
                  f"真实站点的查询集为 `tests/search/queries.yml`（{s['queries']} 条，取自术语表与各篇标题）；"
                  "合成系列的查询为其术语表的中文术语与英文名（合成正文由同一组术语随机拼成，它的 precision 只作参考）。"]
    return "\n".join(lines)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--quick", action="store_true", help="the real site only; writes nothing under docs/")
    a = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright
    BENCH.mkdir(exist_ok=True)
    s = {"queries": len(load_queries()), "runs": {}}
    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            s["runs"]["real site"] = real_site(browser)
            if not a.quick:
                s["runs"][f"N={a.n}"] = synthetic_site(browser, a.n)
        finally:
            browser.close()
    (BENCH / "search.json").write_text(json.dumps(s, ensure_ascii=False, indent=1), encoding="utf-8")
    print(report(s))
    if not a.quick:
        update_page("bench-search", page_block(s, dt.date.today().isoformat(), machine()))


if __name__ == "__main__":
    main()
