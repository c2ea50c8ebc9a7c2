"""What the linter keeps between runs, as ruff keeps its results: each post's frontmatter as parsed,
the typography rules' hits and the asset plan's SVG verdicts, for bytes that did not change since the
last run. Three JSON files under `.cache/series-lint/` in the project (git-ignored); `--no-cache`
(CLI) or deleting the folder turns them off.

`FrontmatterCache` (`frontmatter.json`) keeps each post's frontmatter: its data and the line and
column of each key and value, or the error it has.
- Key: each entry is the SHA-256 of the post's bytes; the whole file is valid only for this project
  (its absolute root), the source of the modules that parse frontmatter (`FRONTMATTER_MODULES`) and
  this Python. An edit of the parser or of a post, a new Python, a copy of the project elsewhere, an
  unreadable, damaged or foreign file: the frontmatter is parsed again, never a stale result.
- What: plain JSON (`encode_front` / `decode_front`): lists, strings and numbers that are turned back
  into a `Frontmatter`, field by field. A frontmatter whose values JSON cannot hold as they are (a
  YAML set, binary, a key that is not a string) is not kept. Nothing in the file can run: a cache is
  data even when someone else wrote it (a committed `.cache/`, a shared folder). A pickle could run
  any code while loading; the file formats that held the lint's caches before (`parsed.pickle`,
  `parsed.json`) are never read.
- Not the body: a body is parsed again on every run, in the process that lints the post. Keeping
  bodies made the file the size of the posts, and the first run (which writes it) slower by more than
  the second gained; the 性能 page has the figures.

`HitCache` keeps, beside it (`hits.json`), what the rules that read nothing but the post's own text
and the conventions (`Rule.reads_only_post`: the typography rules) found in each post, before
severities and suppressions. Its file is valid only for this project's root, the source of the whole
engine (every module under serieskit/, cheap to hash: no list of the modules a rule reads to
keep up to date), the autocorrect library's compiled module (`library`) and the bytes of
conventions.yml; an entry only for the post's SHA-256. Every other rule runs on every run.

What the cache cannot tell: entries written by someone who knows this project's absolute path and
engine (they are data, checked for shape, but not signed). The build (`mkdocs build`, the Zensical
build) never reads the cache, so its gate always parses the posts itself.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import tempfile
import types
from pathlib import Path

from serieskit.finding import Edit, Finding

from .frontmatter import Frontmatter

CACHE_DIR = Path(".cache") / "series-lint"
FRONTMATTER_FILE = "frontmatter.json"
HIT_FILE = "hits.json"
VERDICT_FILE = "assets.json"
# what turns a post's bytes into its Frontmatter: the lines (model/site.py Post), the YAML reader, the codec
FRONTMATTER_MODULES = ("model/site.py", "parse/frontmatter.py", "yamlsafe.py", "finding.py", "parse/parsecache.py")


def _project(root: Path) -> bytes:
    return str(Path(root).resolve()).encode("utf-8", "surrogateescape") + b"\0"


def frontmatter_key(root: Path) -> str:
    import yaml
    h = hashlib.sha256(f"{sys.version}\0PyYAML {yaml.__version__} {yaml.__with_libyaml__}\0".encode() + _project(root))
    here = Path(__file__).resolve().parents[1]     # serieskit/
    for name in FRONTMATTER_MODULES:
        h.update((here / name).read_bytes())
    return h.hexdigest()


@functools.cache
def _engine_sources() -> bytes:
    """The SHA-256 of every module under serieskit/ with its path, read once per process (the hit and
    the verdict caches both are keyed by it)."""
    h = hashlib.sha256()
    here = Path(__file__).resolve().parents[1]     # serieskit/
    for path in sorted(here.rglob("*.py")):
        h.update(path.relative_to(here).as_posix().encode() + b"\0" + path.read_bytes())
    return h.digest()


def library(module) -> str:
    """Which build of a compiled library (`nh3`, `autocorrect_py`) this process runs, for a cache's key:
    the file of its compiled module (path, device, inode, size, modification time): an upgrade, a
    reinstall or a rebuild is another file. (Its version number would need importlib.metadata, whose
    import costs a run more than the rest of the caches' keys: the 性能 page has the figures.)"""
    files = [getattr(m, "__file__", None) or "" for m in (module, *vars(module).values()) if isinstance(m, types.ModuleType)]
    path = next((f for f in files if f.endswith((".so", ".pyd"))), files[0])
    st = os.stat(path)
    return f"{path}\0{st.st_dev}\0{st.st_ino}\0{st.st_size}\0{st.st_mtime_ns}"


def hits_key(root: Path) -> str:
    import autocorrect_py
    from serieskit.conventions import CONVENTIONS_FILE
    h = hashlib.sha256(sys.version.encode() + b"\0" + _project(root) + _engine_sources()
                       + library(autocorrect_py).encode("utf-8", "surrogateescape"))
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

    def _drop(self, rel: str) -> None:
        """An entry of another shape: a miss now, and not written back (whatever replaces it is)."""
        self.used.pop(rel, None)
        if self.entries.pop(rel, None) is not None:
            self.changed = True

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
        `keep`, atomically, when that changes the file; a cache that cannot be written is only a slower
        next run. (json.dumps, not json.dump: dump() encodes piece by piece in pure Python, dumps() in C.)"""
        for rel in keep:
            if rel not in self.used and rel in self.entries:
                self.used[rel] = self.entries[rel]
        if not self.changed and len(self.used) == len(self.entries):
            return
        text = json.dumps({"key": self.key, "entries": self.used}, ensure_ascii=False, separators=(",", ":"))
        tmp = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".tmp-")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.replace(tmp, self.path)
            self.entries, self.changed = dict(self.used), False     # (a --fix round writes only what changed)
        except Exception:
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)


class FrontmatterCache(_Store):
    """`get(rel, digest)` -> the post's Frontmatter or None, as each post is loaded; `put(...)` once
    it is parsed; `save()` once the site is loaded (it also removes `parsed.json`, the file of the
    cache that kept bodies too, never read)."""
    FILE = FRONTMATTER_FILE
    OLD_FILE = "parsed.json"

    def __init__(self, root: Path):
        super().__init__(root, frontmatter_key(root))

    def get(self, rel: str, digest: str) -> Frontmatter | None:
        e = self._get(rel, digest)
        if e is None:
            return None
        try:
            return decode_front(e[1])
        except (TypeError, ValueError, IndexError, KeyError, AttributeError):   # another shape: parse again
            self._drop(rel)
            return None

    def put(self, rel: str, digest: str, fm: Frontmatter) -> None:
        data = encode_front(fm)
        if data is not None:
            self.used[rel] = [digest, data]
            self.changed = True

    def save(self, keep=()) -> None:
        super().save(keep)
        try:
            old = self.path.parent / self.OLD_FILE
            if not old.is_symlink() and old.is_file():
                old.unlink()
        except OSError:
            pass


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
        import nh3
        # the engine's sources and conventions.yml (hits_key), and the sanitizer library's build
        super().__init__(root, hashlib.sha256(f"{hits_key(root)}\0nh3 {library(nh3)}".encode("utf-8", "surrogateescape")).hexdigest())

    def get(self, rel: str, digest: str) -> tuple[bool, list[tuple[str, str]]] | None:
        e = self._get(rel, digest)
        try:
            published, problems = e[1], [(str(kind), str(detail)) for kind, detail in e[2]]
        except (TypeError, ValueError, IndexError):     # none, or another shape: check the file again
            if e is not None:
                self._drop(rel)
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


_S, _I = (str,), (int,)
FINDING = ("path", "line", "column", "code", "severity", "message", "hint"), (_S, _I, _I, _S, _S, _S, (str, type(None)))
EDIT = ("line", "start", "end", "text"), (_I, _I, _I, _S)


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


def encode_front(fm: Frontmatter) -> list | None:
    """A parsed frontmatter as JSON data; None when it holds values JSON would change."""
    if not _plain(fm.data):
        return None
    err = None if fm.error is None else _finding_data(fm.error)
    return [fm.data, fm.start, fm.end, fm.key_pos, fm.value_pos, [list(d) for d in fm.duplicate_keys], err]


def decode_front(front) -> Frontmatter:
    """`encode_front`'s data back as a Frontmatter; raises ValueError / TypeError on any other shape."""
    data, start, end, key_pos, value_pos, dups, err = front
    if not (data is None or type(data) is dict) or not all(type(x) is int for x in (start, end)):
        raise ValueError("a frontmatter of another shape")
    return Frontmatter(data, start, end, _positions(key_pos), _positions(value_pos),
                       [(str(k), int(ln), int(col)) for k, ln, col in dups], None if err is None else _finding(err))


def _positions(v) -> dict[str, tuple[int, int]]:
    return {str(k): (int(ln), int(col)) for k, (ln, col) in v.items()}


def _finding_data(f: Finding) -> list:
    return [*_row(f, FINDING[0]), None if f.fix is None else [_row(e, EDIT[0]) for e in f.fix]]


def _finding(v) -> Finding:
    *fields, fix = v
    f = _rows(Finding, [fields], FINDING[1])[0]
    f.fix = None if fix is None else _rows(Edit, fix, EDIT[1])
    return f
