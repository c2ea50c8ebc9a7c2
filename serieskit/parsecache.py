"""Parsed posts kept between runs of the linter, as ruff keeps its results: a post whose bytes did
not change since the last run is not parsed again (its frontmatter and its body come from the cache).

- Where: `.cache/series-lint/parsed.pickle` under the project (git-ignored); `--no-cache` (CLI)
  or deleting the folder turns it off.
- Key: each entry is the SHA-256 of the post's bytes; the whole file is valid only for the parser's
  own source code (the SHA-256 of the engine modules that parse, `PARSER_MODULES`) and this Python.
  An edit of the parser or of a post, a new Python, an unreadable or damaged file: the post is
  parsed again, never a stale result.
- What: the frontmatter and the body of each post, the output of the parsing step only; rules,
  sites, findings are computed fresh on every run.

Measured (scripts/bench_lint.py, 1,000 posts): read + parse 1.25 s without, about 0.6 s with a warm
cache; a cold run pays about 0.25 s more to write it.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path

CACHE_DIR = Path(".cache") / "series-lint"
CACHE_FILE = "parsed.pickle"
PARSER_MODULES = ("markdown.py", "frontmatter.py", "model.py", "figures.py", "lead.py", "mermaid.py")


def parser_key() -> str:
    h = hashlib.sha256(sys.version.encode())
    here = Path(__file__).parent
    for name in PARSER_MODULES:
        h.update((here / name).read_bytes())
    return h.hexdigest()


class ParseCache:
    """`get(rel, data)` -> (frontmatter, body) or None; `put(...)`; `save()` once the run has parsed."""

    def __init__(self, root: Path):
        self.path = root / CACHE_DIR / CACHE_FILE
        self.key = parser_key()
        self.entries: dict[str, tuple[str, object, object]] = {}
        self.used: dict[str, tuple[str, object, object]] = {}
        self.changed = False
        try:
            with open(self.path, "rb") as fh:
                key, entries = pickle.load(fh)
            if key == self.key and isinstance(entries, dict):
                self.entries = entries
        except Exception:       # none yet, unreadable, damaged, another version: parse everything
            self.entries = {}

    @staticmethod
    def digest(data: bytes) -> str:
        return hashlib.sha256(data).hexdigest()

    def get(self, rel: str, digest: str):
        e = self.entries.get(rel)
        if e is not None and e[0] == digest:
            self.used[rel] = e
            return e[1], e[2]
        return None

    def put(self, rel: str, digest: str, fm, body) -> None:
        self.used[rel] = (digest, fm, body)
        self.changed = True

    def save(self) -> None:
        """Write what this run used (entries of deleted posts go), atomically; a cache that cannot be
        written is only a slower next run."""
        if not self.changed and len(self.used) == len(self.entries):
            return
        tmp = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".parsed-")
            with os.fdopen(fd, "wb") as fh:
                pickle.dump((self.key, self.used), fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.path)
        except Exception:
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)
