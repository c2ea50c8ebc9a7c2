"""Load a project: conventions, series manifests and glossaries, posts and the site's files.

`load_site(root, previous=site)` reuses the parsed posts, manifests and glossaries of an earlier load
whose files did not change (same size and modification time), so `mkdocs serve` re-parses only what
an edit touched.
"""
from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import yaml

from .frontmatter import yaml_error
from .config import CONVENTIONS_FILE, Conventions, ConfigError, load_conventions
from .model import (MANIFEST, SERIES_DIR, SLUG_RE, Finding, GlossaryEntry, Planned, Post, Series, Site)

MANIFEST_KEYS = {"title", "slug", "index_title", "description", "author", "standing_examples",
                 "stale_after_days", "timely", "glossary", "rules", "planned"}
SEVERITIES = ("off", "info", "warning", "error")
GLOSSARY_KEYS = {"term", "en", "abbr", "desc", "post", "aliases"}


def today_from_env(explicit: dt.date | None = None) -> dt.date:
    """The date used for staleness: an explicit value, else SOURCE_DATE_EPOCH, else today (UTC).

    A SOURCE_DATE_EPOCH that is set but is not a number of seconds is an error (ConfigError), as the
    reproducible-builds spec asks: falling back to the calendar would silently break reproducibility
    (and MkDocs itself would crash on it later with a traceback)."""
    if explicit:
        return explicit
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is not None:
        try:
            return dt.datetime.fromtimestamp(int(epoch), tz=dt.timezone.utc).date()
        except (ValueError, OverflowError, OSError):
            raise ConfigError("SOURCE_DATE_EPOCH", f"`{epoch}` is not a time in whole seconds since "
                                                   f"1970-01-01 UTC (e.g. `git log -1 --format=%ct`); fix or unset it")
    return dt.datetime.now(tz=dt.timezone.utc).date()


def _yaml_lines(text: str) -> tuple[object, dict[str, int], list[int]]:
    """Load YAML; return (data, top-level key -> line, line of each top-level list item).

    libyaml when PyYAML has it; on any error the pure-Python loader runs again, so messages and
    positions are its own.
    """
    if getattr(yaml, "__with_libyaml__", False):
        try:
            return _yaml_lines_with(yaml.CSafeLoader, text)
        except (yaml.YAMLError, ValueError):
            pass
    return _yaml_lines_with(yaml.SafeLoader, text)


def _yaml_lines_with(loader_class, text: str) -> tuple[object, dict[str, int], list[int]]:
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    keys: dict[str, int] = {}
    items: list[int] = []
    if isinstance(node, yaml.MappingNode):
        for k, _ in node.value:
            keys[str(k.value)] = k.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        items = [n.start_mark.line + 1 for n in node.value]
    return data, keys, items




def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
        return st.st_mtime_ns, st.st_size
    except OSError:
        return None


def _series_stamps(s: Series) -> tuple:
    """What a loaded series was read from: the manifest and the glossary (modification time, size)."""
    return (_stamp(s.dir / MANIFEST), _stamp(s.dir / s.glossary_file) if s.glossary_file else None)


def load_series(root: Path, area: Path, conv: Conventions, previous: Series | None = None) -> Series:
    """The series of folder `area`; `previous` (an earlier load of it) is reused when neither the
    manifest nor the glossary changed since."""
    if previous is not None and previous.dir == area and previous.stamps == _series_stamps(previous):
        return previous
    s = _load_series(root, area, conv)
    s.stamps = _series_stamps(s)
    return s


def _load_series(root: Path, area: Path, conv: Conventions) -> Series:
    mpath = area / MANIFEST
    rel = mpath.relative_to(root).as_posix()
    s = Series(slug=area.name, dir=area, manifest_rel=rel, title=area.name, index_title=area.name,
               standing_examples=list(conv.standing_examples), stale_after_days=conv.stale_after_days)

    def problem(code, line, col, msg, sev="error", path=rel):
        s.problems.append((path, code, line, col, sev, msg))

    try:
        text = mpath.read_bytes().decode("utf-8-sig")
        data, keys, _ = _yaml_lines(text)
    except UnicodeDecodeError as exc:
        problem("MAN001", 1, 1, f"the series manifest is not valid UTF-8 ({exc.reason}); save it as UTF-8")
        return s
    except (yaml.YAMLError, ValueError) as exc:
        line, col, msg = yaml_error(exc, text)
        problem("MAN001", line, col, f"the series manifest does not parse: {msg}")
        return s
    except OSError as exc:
        problem("MAN001", 1, 1, f"cannot read the series manifest: {exc.strerror or exc}")
        return s
    if not isinstance(data, dict):
        problem("MAN001", 1, 1, "the series manifest must be a mapping (title:, slug:, planned: ...)")
        return s
    s.key_lines = keys

    def get(key, kind, default):
        v = data.get(key, default)
        if v is None:
            return default
        if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
            problem("MAN001", keys.get(key, 1), 1, f"`{key}` must be {kind.__name__ if not isinstance(kind, tuple) else 'a ' + kind[0].__name__}")
            return default
        return v

    for k in data:
        if k not in MANIFEST_KEYS:
            problem("MAN003", keys.get(str(k), 1), 1, f"unknown manifest key `{k}`", "warning")
    slug = get("slug", str, area.name)
    if slug != area.name:
        problem("MAN001", keys.get("slug", 1), 1, f"`slug: {slug}` must equal the folder name `{area.name}`")
    s.title = get("title", str, area.name)
    s.index_title = get("index_title", str, s.title)
    s.description = get("description", str, "").strip()
    s.author = get("author", str, "")
    if "standing_examples" in data:
        ex = get("standing_examples", list, [])
        s.standing_examples = [str(e) for e in ex if isinstance(e, (str, int, float))]
    s.stale_after_days = get("stale_after_days", int, conv.stale_after_days)
    s.timely = get("timely", bool, False)
    rules = get("rules", dict, {})
    for code, sev in rules.items():
        if sev is False:
            sev = "off"   # YAML 1.1 reads a bare `off` as false
        if str(sev) not in SEVERITIES:
            problem("MAN001", keys.get("rules", 1), 1, f"rule switch `{code}: {sev}` must be one of {', '.join(SEVERITIES)}")
        else:
            s.rules[str(code)] = str(sev)
    planned = get("planned", list, [])
    pl_line = keys.get("planned", 1)
    for i, item in enumerate(planned):
        line = pl_line + 1 + i
        if isinstance(item, str):
            s.planned.append(Planned(item.strip(), None, "", line))
        elif isinstance(item, dict) and isinstance(item.get("title"), str):
            order = item.get("order")
            if order is not None and (not isinstance(order, int) or isinstance(order, bool)):
                problem("MAN001", line, 1, f"planned post `{item['title']}`: order must be an integer")
                order = None
            s.planned.append(Planned(item["title"].strip(), order, str(item.get("summary") or ""), line))
        else:
            problem("MAN001", line, 1, "a planned entry needs a `title`")
    gl = get("glossary", str, "")
    if gl:
        s.glossary_file = gl
        gpath = area / gl
        s.glossary_rel = gpath.relative_to(root).as_posix() if gpath.is_relative_to(root) else gl
        s.glossary = load_glossary(gpath, s.glossary_rel, problem)
    return s


def load_glossary(path: Path, rel: str, problem) -> list[GlossaryEntry]:
    try:
        text = path.read_bytes().decode("utf-8-sig")
        data, _, items = _yaml_lines(text)
    except FileNotFoundError:
        problem("MAN002", 1, 1, f"the glossary file `{rel}` named by the manifest does not exist")
        return []
    except UnicodeDecodeError:
        problem("MAN002", 1, 1, "the glossary is not valid UTF-8", path=rel)
        return []
    except (yaml.YAMLError, ValueError) as exc:
        line, col, msg = yaml_error(exc, text)
        problem("MAN002", line, col, f"the glossary does not parse: {msg}", path=rel)
        return []
    except OSError as exc:
        problem("MAN002", 1, 1, f"cannot read the glossary: {exc}", path=rel)
        return []
    if data is None:
        return []
    if not isinstance(data, list):
        problem("MAN002", 1, 1, "the glossary must be a YAML list of entries (- term: ...)", path=rel)
        return []
    entries: list[GlossaryEntry] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(data):
        line = items[i] if i < len(items) else 1
        if not isinstance(item, dict) or not isinstance(item.get("term"), str) or not item["term"].strip():
            problem("MAN002", line, 1, "a glossary entry needs a `term` (string)", path=rel)
            continue
        unknown = set(map(str, item)) - GLOSSARY_KEYS
        if unknown:
            problem("MAN002", line, 1, f"unknown glossary key(s): {', '.join(sorted(unknown))}", path=rel)
        if not isinstance(item.get("desc"), str) or not item["desc"].strip():
            problem("MAN002", line, 1, f"glossary entry `{item['term']}` needs a one-line `desc`", path=rel)
        aliases = item.get("aliases") or []
        if not isinstance(aliases, list):
            problem("MAN002", line, 1, f"`aliases` of `{item['term']}` must be a list", path=rel)
            aliases = []
        e = GlossaryEntry(item["term"].strip(), str(item.get("en") or "").strip(), str(item.get("abbr") or "").strip(),
                          str(item.get("desc") or "").strip(), str(item.get("post") or "").strip(),
                          [str(a).strip() for a in aliases if str(a).strip()], line)
        for form in [e.term, *e.aliases]:
            key = form.casefold()
            if key in seen:
                problem("MAN002", line, 1, f"`{form}` is already a term or alias (line {seen[key]})", path=rel)
            seen[key] = line
        entries.append(e)
    return entries


def _walk(root: Path, top: Path, fs_problems: list[Finding]):
    """Files under `top`, without following symlinked folders; broken or looping links are reported."""
    for dirpath, dirnames, filenames in os.walk(top, followlinks=False, onerror=None):
        d = Path(dirpath)
        dirnames.sort()
        for name in list(dirnames):
            p = d / name
            if p.is_symlink():
                dirnames.remove(name)
                try:
                    target = p.resolve(strict=True)
                except (OSError, RuntimeError) as exc:
                    fs_problems.append(Finding(p.relative_to(root).as_posix(), 1, 1, "FS001", "error",
                                               f"symlink cannot be followed ({getattr(exc, 'strerror', None) or exc}); remove it"))
                    continue
                fs_problems.append(Finding(p.relative_to(root).as_posix(), 1, 1, "FS001", "error",
                                           f"symlinked folder (-> {target}) is not followed; move the files into series/ instead"))
            elif name.startswith("."):
                dirnames.remove(name)
        for name in sorted(filenames):
            if name.startswith("."):
                continue
            p = d / name
            if p.is_symlink():
                try:
                    target = p.resolve(strict=True)
                except (OSError, RuntimeError) as exc:
                    fs_problems.append(Finding(p.relative_to(root).as_posix(), 1, 1, "FS001", "error",
                                               f"symlink cannot be followed ({getattr(exc, 'strerror', None) or exc}); remove it"))
                    continue
                if not target.is_relative_to(root.resolve()):
                    fs_problems.append(Finding(p.relative_to(root).as_posix(), 1, 1, "FS001", "error",
                                               f"symlink points outside the project (-> {target}); it would publish that file"))
                    continue
            yield p


def load_site(root: str | Path, conventions: Conventions | None = None, today: dt.date | None = None,
              previous: Site | None = None) -> Site:
    """Load everything under `<root>/series/` (and the page list of `<root>/docs/`).

    Raises ConfigError when conventions.yml is missing or invalid (nothing can be checked then).
    """
    root = Path(root).resolve()
    conv = conventions or load_conventions(root / CONVENTIONS_FILE)
    fs_problems: list[Finding] = []
    series: dict[str, Series] = {}
    posts: list[Post] = []
    site_files: set[str] = set()
    reuse = previous is not None and previous.conv.fingerprint == conv.fingerprint
    cache = {p.rel: p for p in previous.posts} if reuse else {}
    sroot = root / SERIES_DIR
    if sroot.is_dir():
        for area in sorted(sroot.iterdir()):
            if area.is_dir() and not area.is_symlink() and (area / MANIFEST).is_file():
                series[area.name] = load_series(root, area, conv, previous.series.get(area.name) if reuse else None)
        for path in _walk(root, sroot, fs_problems):
            rel = path.relative_to(root).as_posix()
            site_rel = path.relative_to(sroot).as_posix()
            if path.suffix == ".md":
                try:
                    st = path.stat()
                    old = cache.get(rel)
                    if old is not None and old.mtime_ns == st.st_mtime_ns and old.size == st.st_size:
                        posts.append(old)
                        continue
                    posts.append(Post(root, path, path.read_bytes(), st.st_mtime_ns))
                except OSError as exc:
                    fs_problems.append(Finding(rel, 1, 1, "FS001", "error", f"cannot read the file: {exc.strerror or exc}"))
            elif path.suffix in (".yml", ".yaml") and path.parent.parent == sroot:
                continue  # manifests and glossaries are data, not site files
            else:
                site_files.add(site_rel)
    docs = root / "docs"
    pages_from_docs: set[str] = set()
    if docs.is_dir():
        for path in _walk(root, docs, []):
            site_rel = path.relative_to(docs).as_posix()
            (pages_from_docs if path.suffix == ".md" else site_files).add(site_rel)
    site = Site(root, conv, posts, series, site_files, fs_problems, today_from_env(today))
    site.add_pages(pages_from_docs)
    return site


__all__ = ["load_site", "load_series", "today_from_env", "ConfigError", "SLUG_RE"]
