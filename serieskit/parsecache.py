"""Parsed posts kept between runs of the linter, as ruff keeps its results: a post whose bytes did
not change since the last run is not parsed again (its frontmatter and its body come from the cache).

- Where: `.cache/series-lint/parsed.pickle` under the project (git-ignored); `--no-cache` (CLI)
  or deleting the folder turns it off.
- Key: each entry is the SHA-256 of the post's bytes; the whole file is valid only for the parser's
  own source code (the SHA-256 of the engine modules that parse, `PARSER_MODULES`) and this Python.
  An edit of the parser or of a post, a new Python, an unreadable or damaged file: the post is
  parsed again, never a stale result.
- What: the frontmatter and the body of each post, the output of the parsing step.

`HitCache` keeps, beside it (`hits.pickle`), what the rules that read nothing but the post's own text
and the conventions (`Rule.reads_only_post`: the typography rules) found in each post, before
severities and suppressions. Its file is valid only for the source of the whole engine (every module
under serieskit/, about 2 ms to hash: no list of the modules a rule reads to keep up to date), the
autocorrect library's version and the bytes of conventions.yml; an entry only for the post's SHA-256.
Every other rule runs on every run.

Measured (scripts/bench_lint.py, 1,000 posts): read + parse 1.25 s without, about 0.6 s with a warm
cache; a cold run pays about 0.25 s more to write it. The typography rules take 0.65 s of a run
without their cache.
"""
from __future__ import annotations

import copy
import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path

CACHE_DIR = Path(".cache") / "series-lint"
CACHE_FILE = "parsed.pickle"
HIT_FILE = "hits.pickle"
PARSER_MODULES = ("markdown.py", "frontmatter.py", "model.py", "figures.py", "lead.py", "mermaid.py")


def parser_key() -> str:
    h = hashlib.sha256(sys.version.encode())
    here = Path(__file__).parent
    for name in PARSER_MODULES:
        h.update((here / name).read_bytes())
    return h.hexdigest()


def hits_key(root: Path) -> str:
    from importlib.metadata import version
    from .config import CONVENTIONS_FILE
    h = hashlib.sha256(sys.version.encode())
    here = Path(__file__).parent
    for path in sorted(here.rglob("*.py")):
        h.update(path.relative_to(here).as_posix().encode() + b"\0" + path.read_bytes())
    h.update(version("autocorrect-py").encode())
    try:
        h.update((root / CONVENTIONS_FILE).read_bytes())
    except OSError:
        h.update(b"\0no conventions")
    return h.hexdigest()


class _Store:
    """Entries by repo-relative path, each valid for one SHA-256 of the post's bytes, in one pickle
    that is valid for one key; `save()` writes what this run used."""
    FILE = CACHE_FILE

    def __init__(self, root: Path, key: str):
        self.path = root / CACHE_DIR / self.FILE
        self.key = key
        self.entries: dict[str, tuple] = {}    # rel -> (digest, ...what the subclass keeps)
        self.used: dict[str, tuple] = {}
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

    def _get(self, rel: str, digest: str):
        e = self.entries.get(rel)
        if e is not None and e[0] == digest:
            self.used[rel] = e
            return e
        return None

    def save(self, keep=()) -> None:
        """Write what this run used (entries of deleted posts go) and the entries of the paths in
        `keep`, atomically; a cache that cannot be written is only a slower next run."""
        for rel in keep:
            if rel not in self.used and rel in self.entries:
                self.used[rel] = self.entries[rel]
        if not self.changed and len(self.used) == len(self.entries):
            return
        tmp = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".tmp-")
            with os.fdopen(fd, "wb") as fh:
                pickle.dump((self.key, self.used), fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.path)
        except Exception:
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)


class ParseCache(_Store):
    """`get(rel, digest)` -> (frontmatter, body) or None; `put(...)`; `save()` once the run has parsed."""

    def __init__(self, root: Path):
        super().__init__(root, parser_key())

    def get(self, rel: str, digest: str):
        e = self._get(rel, digest)
        return None if e is None else (e[1], e[2])

    def put(self, rel: str, digest: str, fm, body) -> None:
        self.used[rel] = (digest, fm, body)
        self.changed = True


class HitCache(_Store):
    """`get(rel, digest, code)` -> the hits of that rule in that post, or None; `put(...)`; `save()`
    once the run has linted. The engine asks it only for rules that are `reads_only_post`."""
    FILE = HIT_FILE

    def __init__(self, root: Path):
        super().__init__(root, hits_key(root))

    def get(self, rel: str, digest: str, code: str):
        e = self._get(rel, digest) if digest else None
        hits = None if e is None else e[1].get(code)
        return None if hits is None else [copy.copy(h) for h in hits]

    def put(self, rel: str, digest: str, code: str, hits) -> None:
        if not digest:
            return
        e = self.used.get(rel)
        if e is None or e[0] != digest:
            e = self.used[rel] = (digest, {})
        e[1][code] = [copy.copy(h) for h in hits]
        self.changed = True
