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
  own dataclasses by name, field by field. A line's prose is kept only where it is not the line
  itself (inline code, comments), so the file is about the size of the posts. Nothing in the file
  can run: a cache is data even when someone else wrote it (a committed `.cache/`, a shared folder).
  A pickle could run any code while loading; the file format that held this cache before is never
  read. A frontmatter whose values JSON cannot hold as they are (a YAML set, binary, a key that is
  not a string) is not cached.
- When: the frontmatter is decoded as the site is loaded, a body only when a rule first reads it,
  in the process that lints the post. A worker process encodes the posts it parsed itself and hands
  the parent JSON text, which the parent writes into the file as it is: the first run of a large
  series (every post parsed, the whole file written) costs little more than a run with `--no-cache`.

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
import re
import sys
import tempfile
from pathlib import Path

from serieskit.finding import Edit, Finding

from .frontmatter import Frontmatter
from .syntax import Body, Comment, DeepBlock, Fence, Heading, Image, Link, Table

CACHE_DIR = Path(".cache") / "series-lint"
CACHE_FILE = "parsed.json"
BLANKED = re.compile(" {2,}")
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
    FILE: str           # the subclass's file under CACHE_DIR

    def __init__(self, root: Path, key: str):
        self.path = root / CACHE_DIR / self.FILE
        self.key = key
        self.entries: dict[str, list] = {}     # rel -> [digest, ...what the subclass keeps, as JSON data]
        self.used: dict[str, list] = {}
        self.texts: dict[str, str] = {}       # rel -> an entry already encoded (ParseCache: by a worker)
        self.changed = False
        try:
            if self.path.is_symlink() or not self.path.is_file():
                return          # none yet, or not a file of ours (a FIFO would block): parse everything
            with open(self.path, encoding="utf-8") as fh:     # (json.loads of bytes decodes them slower)
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

    def _text(self, keep) -> str | None:
        """The file's new text: what this run used (entries of deleted posts go), the entries handed
        in as JSON text (`texts`) and the entries of the paths in `keep`; None when it would not
        change. (json.dumps, not json.dump: dump() encodes piece by piece in pure Python, dumps() in C.)"""
        for rel in keep:
            if rel not in self.used and rel not in self.texts and rel in self.entries:
                self.used[rel] = self.entries[rel]
        if not self.changed and len(self.used) == len(self.entries):
            return None
        members = [_members({rel: e for rel, e in self.used.items() if rel not in self.texts})]
        members += [json.dumps(rel, ensure_ascii=False) + ":" + text for rel, text in self.texts.items()]
        return '{"key":' + json.dumps(self.key) + ',"entries":{' + ",".join(m for m in members if m) + "}}"

    def save(self, keep=()) -> None:
        """Write `_text(keep)` atomically; a cache that cannot be written is only a slower next run."""
        text = self._text(keep)
        if text is None:
            return
        tmp = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".tmp-")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.replace(tmp, self.path)
        except Exception:
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)


class ParseCache(_Store):
    """`get(rel, digest)` -> (frontmatter, the body as kept) or None, as each post is loaded;
    `body(kept, lines)` -> the Body or None, when a rule first reads it; `put(...)` once a post is
    parsed; `save()` once the run has parsed. A worker process hands the parent the posts it parsed
    as JSON text (`entries_of`), which the parent writes into the file as it is (`adopt`, `save`)."""
    FILE = CACHE_FILE

    def __init__(self, root: Path):
        super().__init__(root, parser_key(root))
        self.fresh: set[str] = set()             # the posts this process parsed

    def get(self, rel: str, digest: str):
        e = self._get(rel, digest)
        if e is None:
            return None
        try:
            front, kept = e[1]
            return decode_front(front), kept
        except (TypeError, ValueError, IndexError, KeyError, AttributeError):   # another shape: parse again
            self.used.pop(rel, None)
            return None

    @staticmethod
    def body(kept, lines: list[str]) -> Body | None:
        """The body `get` gave as kept, decoded; None when it has another shape (parse it again)."""
        try:
            return decode_body(kept, lines)
        except (TypeError, ValueError, IndexError, KeyError, AttributeError):
            return None

    def put(self, rel: str, digest: str, fm, body, lines: list[str]) -> None:
        data = encode_post(fm, body, lines)
        if data is not None:
            self.used[rel] = [digest, data]
            self.fresh.add(rel)
            self.changed = True

    def entries_of(self, rels) -> dict[str, str]:
        """The entries of the posts among `rels` this process parsed, each as JSON text: a worker
        encodes its own share (the parent only splices the text into the file)."""
        return {rel: json.dumps(self.used[rel], ensure_ascii=False, separators=(",", ":"))
                for rel in rels if rel in self.fresh}

    def adopt(self, entries: dict[str, str]) -> None:
        if entries:
            self.texts.update(entries)
            self.changed = True



def _members(d: dict) -> str:
    """`d` as JSON without its braces: the members of an object, to be joined with others."""
    return json.dumps(d, ensure_ascii=False, separators=(",", ":"))[1:-1]


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


def encode_post(fm: Frontmatter, body: Body, lines: list[str]) -> list | None:
    """A parsed post as JSON data, [frontmatter, body]; None when the frontmatter holds values JSON
    would change. `lines`: the post's lines, which each line's prose is kept against."""
    if not _plain(fm.data):
        return None
    err = None if fm.error is None else _finding_data(fm.error)
    front = [fm.data, fm.start, fm.end, fm.key_pos, fm.value_pos, [list(d) for d in fm.duplicate_keys], err]
    b = body
    return [front, [[_row(x, FENCE[0]) for x in b.fences], [_row(x, HEADING[0]) for x in b.headings],
                    [_row(x, IMAGE[0]) for x in b.images], [_row(x, LINK[0]) for x in b.links],
                    [[t.start, t.end, t.header, [[ln, cells] for ln, cells in t.rows]] for t in b.tables],
                    [_row(x, COMMENT[0]) for x in b.comments], _prose_data(b.prose, lines), sorted(b.in_code),
                    [_row(x, DEEP[0]) for x in b.deep], _lines_text(b.raw_html)]]


def decode_post(v, lines: list[str]) -> tuple[Frontmatter, Body]:
    """`encode_post`'s data back as (Frontmatter, Body); raises ValueError / TypeError on any other shape."""
    front, kept = v
    return decode_front(front), decode_body(kept, lines)


def decode_front(front) -> Frontmatter:
    data, start, end, key_pos, value_pos, dups, err = front
    if not (data is None or type(data) is dict) or not all(type(x) is int for x in (start, end)):
        raise ValueError("a frontmatter of another shape")
    return Frontmatter(data, start, end, _positions(key_pos), _positions(value_pos),
                       [(k, ln, col) for k, ln, col in dups], None if err is None else _finding(err))


def decode_body(kept, lines: list[str]) -> Body:
    fences, headings, images, links, tables, comments, prose, in_code, deep, raw_html = kept
    body = Body(_rows(Fence, fences, FENCE[1]), _rows(Heading, headings, HEADING[1]), _rows(Image, images, IMAGE[1]),
                _rows(Link, links, LINK[1]), [_table(t) for t in tables], _rows(Comment, comments, COMMENT[1]),
                _data_prose(prose, lines), set(in_code), _rows(DeepBlock, deep, DEEP[1]), _text_lines(raw_html))
    if not all(type(x) is int for x in body.in_code):
        raise ValueError("code lines of another shape")
    return body


def _prose_data(prose: dict[int, str], lines: list[str]) -> list:
    """Each line's prose as what sets it apart from the line itself: None where it is the line (most
    lines), the runs of the line blanked out (inline code, comments: flat [start, end, ...]) where
    that is all, else the text."""
    out = []
    for n, text in prose.items():
        raw = lines[n - 1] if 0 < n <= len(lines) else None
        if text == raw:
            out.append(None)
        elif raw is not None and text and len(text) == len(raw):
            # a blanked code span or comment is at least two characters: only such runs are looked at
            runs = [i for m in BLANKED.finditer(text) if raw[m.start():m.end()] != m.group() for i in m.span()]
            out.append(runs if runs and _blanked(raw, runs) == text else text)
        else:
            out.append(text)
    return [list(prose), out]


def _blanked(raw: str, runs: list[int]) -> str:
    """`raw` with each (start, end) run of the flat list `runs` made spaces."""
    parts, at = [], 0
    for a, b in zip(runs[::2], runs[1::2]):
        parts += [raw[at:a], " " * (b - a)]
        at = b
    parts.append(raw[at:])
    return "".join(parts)


def _data_prose(v, lines: list[str]) -> dict[int, str]:
    keys, values = v
    if len(keys) != len(values) or not all(type(k) is int for k in keys):
        raise ValueError("line -> prose of another shape")
    out = dict(zip(keys, values))
    for n, x in out.items():
        if type(x) is str:
            continue
        if not 0 < n <= len(lines):
            raise ValueError("the prose of a line the post does not have")
        if x is None:
            out[n] = lines[n - 1]
        elif type(x) is list and x and len(x) % 2 == 0 and all(type(i) is int for i in x) \
                and all(a < b for a, b in zip([-1, *x], [*x, len(lines[n - 1]) + 1])):
            out[n] = _blanked(lines[n - 1], x)
        else:
            raise ValueError("a line's prose of another shape")
    return out


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
