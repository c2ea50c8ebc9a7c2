"""`mkdocs serve`: after an edit, convert again only what the edit touched.

A serve rebuild stays a full MkDocs build: every page is read, rendered into the theme and written,
every file copied, the navigation built from scratch (serve writes no search index: hooks/search.py).
What is memoised across rebuilds are two pure, costly steps, each keyed on its complete input:

- Markdown -> HTML of a page (key: the page's Markdown, its path and URL, the URLs of every file of
  the site, and mkdocs.yml); the table of contents, anchors, links to anchors and the log messages
  of the conversion (broken-link warnings) are kept with it and replayed;
- compiled theme templates (Jinja's bytecode cache; Jinja checks each template's source).

So an edit to one post converts that post again, and every other page whose input
changed (a renamed post changes the links of the posts that cite it, and so on). The output equals
a full build: tests/test_serve_incremental.py edits a project in many ways inside one serve session
and compares every file with a fresh build. Entries that no build used since the previous one are
dropped. `mkdocs build` does not use any of this.

Kept in this module: MkDocs loads the hook files once per `mkdocs serve` process, and this module
with them.
"""
from __future__ import annotations

import hashlib
import logging
from pathlib import Path

import jinja2
from mkdocs.structure.pages import Page

log = logging.getLogger("mkdocs.plugins.series")


class Memo:
    """Values by key; entries not used during the last build are dropped by prune()."""

    def __init__(self):
        self.data: dict[str, tuple[int, object]] = {}
        self.generation = 0
        self.hits = self.misses = 0
        self.last = (0, 0)      # (hits, misses) of the last finished build

    def get(self, key: str):
        hit = self.data.get(key)
        if hit is None:
            self.misses += 1
            return None
        self.hits += 1
        self.data[key] = (self.generation, hit[1])
        return hit[1]

    def put(self, key: str, value) -> None:
        self.data[key] = (self.generation, value)

    def prune(self) -> None:
        self.data = {k: v for k, v in self.data.items() if v[0] == self.generation}
        self.generation += 1
        self.last = (self.hits, self.misses)
        self.hits = self.misses = 0


MARKDOWN = Memo()


class _Bytecode(jinja2.BytecodeCache):
    """Compiled templates in memory, across rebuilds (Jinja compares each template's source checksum)."""

    def __init__(self):
        self.data: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        code = self.data.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket) -> None:
        self.data[bucket.key] = bucket.bytecode_to_string()


BYTECODE = _Bytecode()
_build_keys: dict[str, object] = {}   # per build: id(files) -> key of the site's files, config key


def _sha(*parts: str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


def start_build(config) -> None:
    """Call at the start of each serve build: the configuration's part of every key."""
    path = Path(config.config_file_path)
    _build_keys.clear()
    _build_keys["config"] = _sha(path.read_text(encoding="utf-8-sig"), str(config.use_directory_urls),
                                 config.docs_dir, str(config.validation))


def _files_key(files) -> str:
    key = _build_keys.get(id(files))
    if key is None:
        rows = sorted(f"{f.src_uri}\t{f.dest_uri}\t{f.url}\t{f.inclusion.name}" for f in files)
        key = _build_keys[id(files)] = _sha(*rows)
    return key


class _Capture(logging.Handler):
    """Collects the log records emitted while a page is converted (they are replayed on a hit)."""

    NAMES = ("mkdocs", "MARKDOWN")

    def __init__(self):
        super().__init__(logging.NOTSET)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def __enter__(self):
        for name in self.NAMES:
            logging.getLogger(name).addHandler(self)
        return self

    def __exit__(self, *exc):
        for name in self.NAMES:
            logging.getLogger(name).removeHandler(self)


def render(page: Page, config, files) -> None:
    """Page.render, memoised (installed on each page by the hook's on_page_markdown in serve)."""
    key = _sha(_build_keys.get("config", ""), _files_key(files), page.file.src_uri, page.file.dest_uri,
               page.file.url, page.markdown or "")
    hit = MARKDOWN.get(key)
    if hit is not None:
        content, toc, title, anchors, links, records = hit
        targets = None
        if links is not None:
            targets = {}
            for src, anchors_to in links:
                f = files.get_file_from_path(src)
                if f is None:
                    hit = None
                    break
                targets[f] = dict(anchors_to)
    if hit is None:
        with _Capture() as cap:
            Page.render(page, config, files)
        links = None if page.links_to_anchors is None else \
            [(f.src_uri, dict(v)) for f, v in page.links_to_anchors.items()]
        MARKDOWN.put(key, (page.content, page.toc, page._title_from_render, frozenset(page.present_anchor_ids or ()),
                           links, cap.records))
        return
    page.content, page.toc, page._title_from_render = content, toc, title
    page.present_anchor_ids = set(anchors)
    if targets is not None:
        page.links_to_anchors = targets
    for record in records:
        logging.getLogger(record.name).handle(record)


def end_build() -> None:
    log.debug(f"serve cache: markdown {MARKDOWN.hits} hits / {MARKDOWN.misses} misses")
    MARKDOWN.prune()
    _build_keys.clear()
