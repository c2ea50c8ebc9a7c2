"""`mkdocs serve`: after an edit, convert again only what the edit touched (a speed-up behind the
SERIES_SPEEDUPS switch, hooks/serieshooks/speedups.py; it needs a private internal, see hooks/serieshooks/upstream.py).

A serve rebuild stays a full MkDocs build: every page is read, rendered into the theme and written,
every file copied, the navigation built from scratch (serve writes no search index: hooks/serieshooks/search.py).
What is memoised across rebuilds are two pure, costly steps, each keyed on its complete input:

- Markdown -> HTML of a page (key: the page's Markdown, its path and URL, the URLs of every file of
  the site, and mkdocs.yml); the table of contents, anchors, links to anchors and the log messages
  of the conversion (broken-link warnings) are kept with it and replayed;
- compiled theme templates (Jinja's bytecode cache; Jinja checks each template's source).

So an edit to one post converts that post again, and every other page whose input changed (a
renamed post changes the links of the posts that cite it, and so on). The output equals a full
build: tests/test_serve_incremental.py edits a project in many ways inside one serve session and
compares every file with a fresh build. Entries that no build used since the previous one are
dropped. `mkdocs build` does not use any of this. One ServeCache lives as long as the serve process
(hooks/serieshooks/state.py Process).
"""
from __future__ import annotations

import hashlib
import logging
from pathlib import Path

import jinja2

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


class Bytecode(jinja2.BytecodeCache):
    """Compiled templates in memory, across rebuilds (Jinja compares each template's source checksum)."""

    def __init__(self):
        self.data: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        code = self.data.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket) -> None:
        self.data[bucket.key] = bucket.bytecode_to_string()


def sha(*parts: str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


class ServeCache:
    """The memo of one serve session; `start_build` and `end_build` bracket each rebuild."""

    def __init__(self):
        self.markdown = Memo()
        self.bytecode = Bytecode()
        self.config_key = ""
        self.files_key: str | None = None    # the site's files, computed at this build's first page

    def start_build(self, config) -> None:
        path = Path(config.config_file_path)
        self.config_key = sha(path.read_text(encoding="utf-8-sig"), str(config.use_directory_urls),
                              config.docs_dir, str(config.validation))
        self.files_key = None

    def page_key(self, page, files) -> str:
        if self.files_key is None:
            rows = sorted(f"{f.src_uri}\t{f.dest_uri}\t{f.url}\t{f.inclusion.name}" for f in files)
            self.files_key = sha(*rows)
        return sha(self.config_key, self.files_key, page.file.src_uri, page.file.dest_uri, page.file.url,
                   page.markdown or "")

    def end_build(self) -> None:
        log.debug(f"serve cache: markdown {self.markdown.hits} hits / {self.markdown.misses} misses")
        self.markdown.prune()
        self.files_key = None
