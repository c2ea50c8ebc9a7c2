"""Site search: a static, chunked Pagefind index of a built site, which the reader's browser fetches
only when they search. Plain Python over the built HTML, for any host (the MkDocs adapter calls it
after the pages are written: hooks/serieshooks/search.py; so does the Zensical build, zensical_adapter/build.py).

- Which pages are indexed, and their searchable metadata (title, series, glossary terms), comes from
  the engine (serieskit/publish/search_meta.py): the page template marks the page's content
  `data-pagefind-body`. Posts and hand-written pages are indexed; generated lists (home, series
  index, tags, archive) and drafts are not.
- The index is written with Pagefind's extended binary (from the `pagefind[extended]` package: it
  segments Chinese; the plain binary silently does not), after the Chinese text of each marked page
  is split into words as the reader's browser splits a query (serieskit/publish/segment.mjs).
- The reader's side is docs/assets/javascripts/search.js over Pagefind's JavaScript API. Its
  WebAssembly needs `'wasm-unsafe-eval'` in the policy (serieskit/publish/csp.py), nothing broader.
"""
from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser


BUNDLE = "pagefind"      # the index's folder under the site
INSTALL = 'pip install "pagefind[extended]"'

# Parts of an indexed page that are not its text: permalink marks, the post header's dates and
# reading time, the sister-post block and prev / next (other posts' titles), the serve findings box,
# and the sources of diagrams and formulas (the reader sees drawings, not their source).
DRAWINGS = ("pre.mermaid", "div.mermaid", ".arithmatex")    # the part of EXCLUDE taken out of the indexer's copy
EXCLUDE = (".headerlink", ".series-post-header", ".series-sister", ".series-nav", ".series-findings", *DRAWINGS)

# What Pagefind writes that this site does not serve: its own UIs (the site's search box is
# search.js over the JavaScript API) and the highlighting script.
UNUSED = ("pagefind-ui.js", "pagefind-ui.css", "pagefind-modular-ui.js", "pagefind-modular-ui.css",
          "pagefind-component-ui.js", "pagefind-component-ui.css", "pagefind-highlight.js")

MARK = b"data-pagefind-body"
SEGMENTER = Path(__file__).with_name("segment.mjs")


class SearchIndexError(Exception):
    """The index cannot be written; the message says why and what to do."""

INDEXED = re.compile(r"Indexed (\d+) pages?")


def executable() -> Path:
    """Pagefind's extended binary, or a build-stopping message that says how to install it."""
    try:
        from pagefind_bin_extended import get_executable
        path = Path(get_executable())
    except (ImportError, FileNotFoundError) as exc:
        raise SearchIndexError(f"the search index needs Pagefind's extended binary (it segments Chinese), which is "
                          f"not installed ({exc}): run `{INSTALL}` (make setup installs it)") from None
    return path


def readable(site_dir: Path) -> dict[str, str]:
    """The site's pages marked for the index, by path, each as the indexer needs it (`_indexed_part`),
    read once; a marked page the indexer cannot read (not UTF-8) stops the build naming it: Pagefind
    itself skips such a page without a word."""
    marked, bad = {}, []
    for p in sorted(site_dir.rglob("*.html")):
        if p.is_relative_to(site_dir / BUNDLE):
            continue
        data = p.read_bytes()
        if MARK not in data:
            continue
        rel = p.relative_to(site_dir).as_posix()
        try:
            marked[rel] = _indexed_part(data.decode("utf-8"))
        except UnicodeDecodeError as exc:
            bad.append(f"{rel} (byte {exc.start}: not UTF-8)")
    if bad:
        raise SearchIndexError("the search indexer cannot read these pages: " + "; ".join(bad))
    return marked


def write_index(site_dir: Path) -> int:
    """Index the built site; returns the number of pages indexed."""
    binary = executable()
    marked = readable(site_dir)
    with tempfile.TemporaryDirectory(prefix="series-search-") as tmp:
        staged = Path(tmp)
        segment_pages(marked, staged)
        r = run_indexer(binary, staged, site_dir / BUNDLE)
    output = (r.stdout + r.stderr).strip()
    if r.returncode != 0:
        raise SearchIndexError(f"the search indexer failed (exit {r.returncode}):\n{output[-2000:]}")
    counts = [int(n) for n in INDEXED.findall(r.stdout)]
    indexed = counts[-1] if counts else _count_fragments(site_dir)
    if indexed != len(marked):
        _check_left_out(site_dir, marked, indexed, output)
    for name in UNUSED:
        (site_dir / BUNDLE / name).unlink(missing_ok=True)
    return indexed


def run_indexer(binary: Path, staged: Path, bundle: Path) -> subprocess.CompletedProcess:
    """Pagefind over the pages in `staged`, writing the index to `bundle`."""
    cmd = [str(binary), "--site", str(staged), "--output-path", str(bundle), "--exclude-selectors", ", ".join(EXCLUDE)]
    try:
        return subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8", errors="replace", check=False)
    except OSError as exc:
        raise SearchIndexError(f"the search indexer {binary} cannot run ({exc}): reinstall it with `{INSTALL}`") from None


def segment_pages(pages: dict[str, str], staged: Path) -> None:
    """Write the marked pages (path -> text, from `readable`) to `staged` with the word boundaries of their Chinese text marked by
    zero-width spaces, as the reader's browser finds them (serieskit/publish/segment.mjs, Intl.Segmenter): Pagefind
    segments a query with the browser's segmenter, and an index split another way misses words
    (its own segmentation indexes "全双工", the browser asks for "全", "双", "工"). Only text between
    tags and the searchable metadata change: ids, links and markup stay as built."""
    files = []
    for rel, text in pages.items():
        out = staged / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        files.append(str(out))
    node = shutil.which("node")
    if node is None:
        raise SearchIndexError("the search index needs Node.js (it splits Chinese text into words as the reader's "
                          "browser does, serieskit/publish/segment.mjs); install Node.js 18 or newer (make setup uses it for npm)")
    r = subprocess.run([node, str(SEGMENTER)], input=json.dumps(files), capture_output=True, text=True,
                       encoding="utf-8", check=False)
    if r.returncode != 0:
        raise SearchIndexError(f"serieskit/publish/segment.mjs failed (exit {r.returncode}): {r.stderr.strip()[-1000:]}")


def _indexed_part(text: str) -> str:
    """The page as the indexer needs it: up to its <body> tag (the language), then from its indexed
    element on (the metadata and the text), without its drawings (`_without_excluded`).
    The navigation before the content, the largest part of a page on a big site, is left out of the
    copy."""
    mark = text.find(MARK.decode())
    body = text.find("<body")
    if mark < 0 or body < 0 or body > mark:
        return _without_excluded(text)
    return _without_excluded(text[:text.find(">", body) + 1] + text[text.rfind("<", 0, mark):])


def _without_excluded(page: str) -> str:
    """The page without its drawings (`DRAWINGS`: inline SVG, KaTeX's HTML and MathML), which the
    indexer would read and then leave out (`EXCLUDE`): they are most of a post's bytes (four fifths in
    the synthetic series of scripts/bench_build.py), so the segmenter and the indexer read a fifth as
    much. A page with drawings is one the build wrote (its content passed the output gate, whose
    html5ever writes markup a parser reads back as written), so the page a parser writes back is the
    same page to the indexer: the index is byte for byte the same (tests/test_search.py). A page
    without drawings is left as it is."""
    if 'class="mermaid"' not in page and 'class="arithmatex"' not in page:
        return page
    tree = LexborHTMLParser(page)
    found = tree.css(", ".join(DRAWINGS))
    if not found:
        return page
    ids = {n.mem_id for n in found}
    for node in [n for n in found if not _inside(n, ids)]:   # an inner one goes with its outer one
        node.decompose()
    return tree.html


def _inside(node, ids: set[int]) -> bool:
    up = node.parent
    while up is not None and up.mem_id not in ids:
        up = up.parent
    return up is not None


def _check_left_out(site_dir: Path, marked: dict[str, str], indexed: int, output: str) -> None:
    """Pagefind indexed fewer pages than were marked: the pages it left out are named; a page with
    no text to index (a post that is only a diagram or only its header) is fine and the build goes
    on; any other stops it (SearchIndexError), as does a count that no page explains."""
    urls = set()
    for frag in (site_dir / BUNDLE / "fragment").glob("*.pf_fragment"):
        try:
            data = gzip.decompress(frag.read_bytes())
            urls.add(json.loads(data[data.index(b"{"):]).get("url"))
        except (OSError, ValueError, AttributeError):
            continue
    left_out = [rel for rel in marked if "/" + re.sub(r"(^|/)index\.html$", r"\1", rel) not in urls]
    with_text = [rel for rel in left_out if _has_text(marked[rel])]
    if with_text or len(marked) - len(left_out) != indexed:
        named = f": {', '.join(with_text or left_out)}" if left_out else ""
        raise SearchIndexError(f"the search indexer indexed {indexed} of the {len(marked)} pages marked for it; left "
                               f"out{named}; its output:\n{output[-2000:]}")


class _Text(HTMLParser):
    """Whether the page's indexed element has text outside the parts the index excludes (EXCLUDE)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []       # per open element: its text is not indexed
        self.found = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = set((a.get("class") or "").split())
        outside = not self.stack and "data-pagefind-body" not in a
        skip = outside or (bool(self.stack) and self.stack[-1]) or any(
            sel.split(".")[0] in ("", tag) and sel.split(".")[1] in classes for sel in EXCLUDE)
        if tag not in VOID and not outside:
            self.stack.append(skip)

    def handle_endtag(self, tag):
        if self.stack and tag not in VOID:
            self.stack.pop()

    def handle_data(self, data):
        if data.strip() and self.stack and not self.stack[-1]:
            self.found = True


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def _has_text(page: str) -> bool:
    mark = page.find(MARK.decode())
    parser = _Text()
    parser.feed(page[page.rfind("<", 0, mark):] if mark >= 0 else page)
    return parser.found


def _count_fragments(site_dir: Path) -> int:
    return len(list((site_dir / BUNDLE / "fragment").glob("*.pf_fragment")))
