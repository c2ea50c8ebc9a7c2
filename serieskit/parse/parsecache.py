"""Parsed posts kept between runs of the linter, as ruff keeps its results: a post whose bytes did
not change since the last run is not parsed again (its frontmatter and its body come from the cache).

- Where: `.cache/series-lint/parsed.json` under the project (git-ignored); `--no-cache` (CLI)
  or deleting the folder turns it off.
- Key: each entry is the SHA-256 of the post's bytes; the whole file is valid only for this project
  (its absolute root), the parser's own source code (the SHA-256 of the engine modules that parse,
  `PARSER_MODULES`) and this Python. An edit of the parser or of a post, a new Python, a copy of the
  project elsewhere, an unreadable, damaged or foreign file: the post is parsed again, never a stale
  result.
- What: the frontmatter and the body of each post, the output of the parsing step, as plain JSON
  (`encode_post` / `decode_post`): lists, strings and numbers that are turned back into the parser's
  own dataclasses by name, field by field. Nothing in the file can run: a cache is data even when
  someone else wrote it (a committed `.cache/`, a shared folder). A pickle could run any code while
  loading; the file format that held this cache before is never read. A frontmatter whose values
  JSON cannot hold as they are (a YAML set, binary, a key that is not a string) is not cached.

`HitCache` keeps, beside it (`hits.json`), what the rules that read nothing but the post's own text
and the conventions (`Rule.reads_only_post`: the typography rules) found in each post, before
severities and suppressions. Its file is valid only for this project's root, the source of the whole
engine (every module under serieskit/, about 2 ms to hash: no list of the modules a rule reads to
keep up to date), the autocorrect library's version and the bytes of conventions.yml; an entry only
for the post's SHA-256. Every other rule runs on every run.

What the cache cannot tell: entries written by someone who knows this project's absolute path and
engine (they are data, checked for shape, but not signed). The build (`mkdocs build`, the Zensical
build) never reads the cache, so its gate always parses the posts itself.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path

from serieskit.finding import Edit, Finding

from .frontmatter import Frontmatter
from .syntax import Body, Comment, DeepBlock, Fence, Heading, Image, Link, Table

CACHE_DIR = Path(".cache") / "series-lint"
CACHE_FILE = "parsed.json"
HIT_FILE = "hits.json"
VERDICT_FILE = "assets.json"
PARSER_MODULES = ("parse/markdown.py", "parse/syntax.py", "parse/inline.py", "parse/frontmatter.py", "model/site.py",
                  "analysis/figures.py", "analysis/lead.py", "analysis/mermaid.py", "parse/parsecache.py", "yamlsafe.py")


def _project(root: Path) -> bytes:
    return str(Path(root).resolve()).encode("utf-8", "surrogateescape") + b"\0"


def parser_key(root: Path) -> str:
    h = hashlib.sha256(sys.version.encode() + b"\0" + _project(root))
    here = Path(__file__).resolve().parents[1]     # serieskit/
    for name in PARSER_MODULES:
        h.update((here / name).read_bytes())
    return h.hexdigest()


def hits_key(root: Path) -> str:
    from importlib.metadata import version

    from serieskit.conventions import CONVENTIONS_FILE
    h = hashlib.sha256(sys.version.encode() + b"\0" + _project(root))
    here = Path(__file__).resolve().parents[1]     # serieskit/
    for path in sorted(here.rglob("*.py")):
        h.update(path.relative_to(here).as_posix().encode() + b"\0" + path.read_bytes())
    h.update(version("autocorrect-py").encode())
    try:
        h.update((root / CONVENTIONS_FILE).read_bytes())
    except OSError:
        h.update(b"\0no conventions")
    return h.hexdigest()


class _Store:
    """Entries by repo-relative path, each valid for one SHA-256 of the post's bytes, in one JSON
    file that is valid for one key; `save()` writes what this run used. An entry is kept as JSON
    data (`[digest, ...]`) and decoded only when asked for; one that does not decode is a miss."""
    FILE = CACHE_FILE

    def __init__(self, root: Path, key: str):
        self.path = root / CACHE_DIR / self.FILE
        self.key = key
        self.entries: dict[str, list] = {}     # rel -> [digest, ...what the subclass keeps, as JSON data]
        self.used: dict[str, list] = {}
        self.changed = False
        try:
            if self.path.is_symlink() or not self.path.is_file():
                return          # none yet, or not a file of ours (a FIFO would block): parse everything
            with open(self.path, "rb") as fh:
                doc = json.loads(fh.read())
            if isinstance(doc, dict) and doc.get("key") == self.key and isinstance(doc.get("entries"), dict):
                self.entries = {rel: e for rel, e in doc["entries"].items()
                                if isinstance(e, list) and e and isinstance(e[0], str)}
        except (OSError, ValueError, RecursionError):   # unreadable, not JSON, nested past the parser's depth
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

    def entries_of(self, rels) -> dict:
        """What this run used or computed for `rels` (a worker process hands it to the parent)."""
        return {rel: self.used[rel] for rel in rels if rel in self.used}

    def adopt(self, entries: dict) -> None:
        """Take the entries a worker process used or computed (see entries_of)."""
        for rel, e in entries.items():
            if self.entries.get(rel) != e:
                self.changed = True
            self.used[rel] = e

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
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump({"key": self.key, "entries": self.used}, fh, ensure_ascii=False, separators=(",", ":"))
            os.replace(tmp, self.path)
        except Exception:
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)


class ParseCache(_Store):
    """`get(rel, digest)` -> (frontmatter, body) or None; `put(...)`; `save()` once the run has parsed."""

    def __init__(self, root: Path):
        super().__init__(root, parser_key(root))

    def get(self, rel: str, digest: str):
        e = self._get(rel, digest)
        if e is None:
            return None
        try:
            return decode_post(e[1])
        except (TypeError, ValueError, IndexError, KeyError, AttributeError):   # another shape: parse again
            self.used.pop(rel, None)
            return None

    def put(self, rel: str, digest: str, fm, body) -> None:
        data = encode_post(fm, body)
        if data is not None:
            self.used[rel] = [digest, data]
            self.changed = True


class HitCache(_Store):
    """`get(rel, digest, code)` -> the hits of that rule in that post, or None; `put(...)`; `save()`
    once the run has linted. The engine asks it only for rules that are `reads_only_post`."""
    FILE = HIT_FILE

    def __init__(self, root: Path):
        super().__init__(root, hits_key(root))

    def get(self, rel: str, digest: str, code: str):
        e = self._get(rel, digest) if digest else None
        hits = e[1].get(code) if e is not None and len(e) > 1 and isinstance(e[1], dict) else None
        if hits is None:
            return None
        try:
            return [_finding(h) for h in hits]
        except (TypeError, ValueError, IndexError, KeyError, AttributeError):
            return None

    def put(self, rel: str, digest: str, code: str, hits) -> None:
        if not digest:
            return
        e = self.used.get(rel)
        if e is None or e[0] != digest or len(e) < 2 or not isinstance(e[1], dict):
            e = self.used[rel] = [digest, {}]
        e[1][code] = [_finding_data(h) for h in hits]
        self.changed = True


class VerdictCache(_Store):
    """The publishing plan's verdict on each SVG file under series/ (serieskit/model/assets.py): whether it
    is published and the problems found, by the file's SHA-256, so that a run reads an unchanged file
    without sanitizing it again. Only the lint CLI keeps it: the verdict, not the sanitized bytes, so a
    plan made with it can be reported but not published (AssetPlan.checked_only)."""
    FILE = VERDICT_FILE

    def __init__(self, root: Path):
        from importlib.metadata import version
        # the engine's sources and conventions.yml (hits_key), and the sanitizer library's version
        super().__init__(root, hashlib.sha256(f"{hits_key(root)}\0nh3 {version('nh3')}".encode()).hexdigest())

    def get(self, rel: str, digest: str) -> tuple[bool, list[tuple[str, str]]] | None:
        e = self._get(rel, digest)
        try:
            published, problems = e[1], [(str(kind), str(detail)) for kind, detail in e[2]]
        except (TypeError, ValueError, IndexError):     # none, or another shape: check the file again
            self.used.pop(rel, None)
            return None
        return (published, problems) if isinstance(published, bool) else None

    def put(self, rel: str, digest: str, published: bool, problems: list[tuple[str, str]]) -> None:
        self.used[rel] = [digest, published, [list(p) for p in problems]]
        self.changed = True


# --- the JSON codec: each dataclass as the list of its fields, in order ----------------------------------------
def _row(obj, names) -> list:
    return [getattr(obj, n) for n in names]


def _rows(cls, rows, check) -> list:
    out = []
    for r in rows:
        if not isinstance(r, list) or len(r) != len(check):
            raise ValueError(f"a {cls.__name__} of another shape")
        for v, kinds in zip(r, check):
            if not isinstance(v, kinds) or isinstance(v, bool) and bool not in kinds:
                raise ValueError(f"a {cls.__name__} field of another type")
        out.append(cls(*r))
    return out


_S, _I, _OI = (str,), (int,), (int, type(None))
FENCE = ("start", "end", "lang", "info", "marker", "indent"), (_I, _OI, _S, _S, _S, _S)
HEADING = ("line", "level", "text", "col"), (_I, _I, _S, _I)
IMAGE = ("line", "col", "alt", "src", "src_col", "close_col", "tail"), (_I, _I, _S, _S, _I, _I, _S)
LINK = ("line", "col", "text", "href", "href_col", "end_col", "reference"), (_I, _I, _S, _S, _I, _I, (bool,))
COMMENT = ("start", "start_col", "end", "text"), (_I, _I, _I, _S)
DEEP = ("start", "end", "line", "col", "depth"), (_I, _I, _I, _I, _I)
FINDING = ("path", "line", "column", "code", "severity", "message", "hint"), (_S, _I, _I, _S, _S, _S, (str, type(None)))
EDIT = ("line", "start", "end", "text"), (_I, _I, _I, _S)


def _lines_text(d: dict[int, str]) -> list:
    return [list(d), list(d.values())]


def _text_lines(v) -> dict[int, str]:
    keys, values = v
    if not all(type(k) is int for k in keys) or not all(type(x) is str for x in values) or len(keys) != len(values):
        raise ValueError("line -> text of another shape")
    return dict(zip(keys, values))


def _plain(v, depth: int = 0) -> bool:
    """JSON holds `v` exactly (str, int, float, bool, None, lists and string-keyed mappings)."""
    if v is None or isinstance(v, (str, int, float, bool)):
        return True
    if depth > 60:
        return False
    if type(v) is list:
        return all(_plain(x, depth + 1) for x in v)
    if type(v) is dict:
        return all(type(k) is str and _plain(x, depth + 1) for k, x in v.items())
    return False


def encode_post(fm: Frontmatter, body: Body) -> list | None:
    """A parsed post as JSON data; None when the frontmatter holds values JSON would change."""
    if not _plain(fm.data):
        return None
    err = None if fm.error is None else _finding_data(fm.error)
    front = [fm.data, fm.start, fm.end, fm.key_pos, fm.value_pos, [list(d) for d in fm.duplicate_keys], err]
    b = body
    return [front, [_row(x, FENCE[0]) for x in b.fences], [_row(x, HEADING[0]) for x in b.headings],
            [_row(x, IMAGE[0]) for x in b.images], [_row(x, LINK[0]) for x in b.links],
            [[t.start, t.end, t.header, [[ln, cells] for ln, cells in t.rows]] for t in b.tables],
            [_row(x, COMMENT[0]) for x in b.comments], _lines_text(b.prose), sorted(b.in_code),
            [_row(x, DEEP[0]) for x in b.deep], _lines_text(b.raw_html)]


def decode_post(v) -> tuple[Frontmatter, Body]:
    """`encode_post`'s data back as (Frontmatter, Body); raises ValueError / TypeError on any other shape."""
    front, fences, headings, images, links, tables, comments, prose, in_code, deep, raw_html = v
    data, start, end, key_pos, value_pos, dups, err = front
    if not (data is None or type(data) is dict) or not all(type(x) is int for x in (start, end)):
        raise ValueError("a frontmatter of another shape")
    fm = Frontmatter(data, start, end, _positions(key_pos), _positions(value_pos),
                     [(k, ln, col) for k, ln, col in dups], None if err is None else _finding(err))
    body = Body(_rows(Fence, fences, FENCE[1]), _rows(Heading, headings, HEADING[1]), _rows(Image, images, IMAGE[1]),
                _rows(Link, links, LINK[1]), [_table(t) for t in tables], _rows(Comment, comments, COMMENT[1]),
                _text_lines(prose), set(in_code), _rows(DeepBlock, deep, DEEP[1]), _text_lines(raw_html))
    if not all(type(x) is int for x in body.in_code):
        raise ValueError("code lines of another shape")
    return fm, body


def _positions(v) -> dict[str, tuple[int, int]]:
    return {str(k): (int(ln), int(col)) for k, (ln, col) in v.items()}


def _table(t) -> Table:
    start, end, header, rows = t
    if not all(type(x) is str for x in header):
        raise ValueError("a table header of another shape")
    return Table(int(start), int(end), list(header), [(int(ln), [str(c) for c in cells]) for ln, cells in rows])


def _finding_data(f: Finding) -> list:
    return [*_row(f, FINDING[0]), None if f.fix is None else [_row(e, EDIT[0]) for e in f.fix]]


def _finding(v) -> Finding:
    *fields, fix = v
    f = _rows(Finding, [fields], FINDING[1])[0]
    f.fix = None if fix is None else _rows(Edit, fix, EDIT[1])
    return f
