"""The site search as a reader meets it, for the browser tests and scripts/bench_search.py: the
relevance set (tests/search/queries.yml) and how to ask each engine for its top results; and what a
build's Pagefind index holds (`pagefind_pages`, for the build tests)."""
from __future__ import annotations

import gzip
import json
from pathlib import Path
from urllib.parse import unquote, urlsplit

import yaml

QUERIES = Path(__file__).resolve().parents[1] / "search" / "queries.yml"
TOP = 3

# Pagefind in the page, with the options the site's search box uses (search.js reads the ranking
# weights from the box's data-weights): the URL paths of the first results of each query.
PAGEFIND_TOP = """async ([queries, top]) => {
  const root = document.querySelector("[data-series-search]");
  const pf = await import(new URL(root.getAttribute("data-bundle"), document.baseURI).href);
  const site = new URL(root.getAttribute("data-site"), document.baseURI).pathname;
  await pf.options({ baseUrl: site, ranking: { metaWeights: JSON.parse(root.getAttribute("data-weights")) } });
  await pf.init();
  const out = [];
  for (const q of queries) {
    const s = await pf.search(q);
    const rows = await Promise.all(s.results.slice(0, top).map(r => r.data()));
    out.push(rows.map(d => d.url));
  }
  return out;
}"""


def load_queries() -> list[dict]:
    return yaml.safe_load(QUERIES.read_text(encoding="utf-8"))


def slug_of(url: str) -> str:
    """The post slug of a result URL (`/area/slug/#anchor` -> `slug`)."""
    parts = [p for p in unquote(urlsplit(url).path).split("/") if p]
    return parts[-1] if parts else ""


def precision_at(queries: list[dict], results: list[list[str]], top: int = TOP) -> tuple[float, list[str]]:
    """The share of queries whose expected post is among the first `top` results, and the misses."""
    misses = []
    for q, urls in zip(queries, results):
        got = [slug_of(u) for u in urls[:top]]
        if q["post"] not in got:
            misses.append(f"{q['q']!r}: want {q['post']}, got {got}")
    return (len(queries) - len(misses)) / len(queries), misses


def pagefind_pages(site: Path) -> dict[str, dict]:
    """The pages of the Pagefind index, by URL: each fragment is `pagefind_dcd` + JSON, gzipped."""
    out = {}
    for f in (site / "pagefind" / "fragment").glob("*.pf_fragment"):
        raw = gzip.decompress(f.read_bytes())
        assert raw.startswith(b"pagefind_dcd"), f.name
        d = json.loads(raw[len(b"pagefind_dcd"):])
        d["raw_meta"] = d["meta"]
        d["meta"] = {k: v.replace("\u200b", "") for k, v in d["meta"].items()}   # as search.js shows them
        out[d["url"]] = d
    return out
