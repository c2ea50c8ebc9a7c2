"""Load a project: conventions, series manifests and glossaries, posts and the site's files.

`load_site(root, previous=site)` reuses the parsed posts, manifests and glossaries of an earlier load
whose files did not change (same size and modification time), so `mkdocs serve` re-parses only what
an edit touched.
"""
from __future__ import annotations

import datetime as dt
import os
import stat
from pathlib import Path

import yaml

from . import assets
from serieskit.parse.frontmatter import yaml_error
from serieskit.yamlsafe import Loader as _SafeLoader, check_tree
from serieskit.conventions import CONVENTIONS_FILE, Conventions, ConfigError, load_conventions
from serieskit.finding import problem
from .site import MANIFEST_FILE, SERIES_DIR, SLUG_RE, Finding, GlossaryEntry, Planned, Post, Series, Site, Skipped, relative
from .schema import SWITCHES, manifest_value_ok



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
            return dt.datetime.fromtimestamp(int(epoch), tz=dt.UTC).date()
        except (ValueError, OverflowError, OSError):
            raise ConfigError("SOURCE_DATE_EPOCH", f"`{epoch}` is not a time in whole seconds since "
                                                   f"1970-01-01 UTC (e.g. `git log -1 --format=%ct`); fix or unset it")
    return dt.datetime.now(tz=dt.UTC).date()


def _yaml_lines(text: str) -> tuple[object, dict[str, int], list[int]]:
    """Load YAML; return (data, top-level key -> line, line of each top-level list item).

    libyaml when PyYAML has it; on any error the pure-Python loader runs again, so messages and
    positions are its own. Aliases and deep nesting are refused (serieskit/yamlsafe.py).
    """
    if getattr(yaml, "__with_libyaml__", False):
        try:
            return _yaml_lines_with(yaml.CSafeLoader, text)
        except (yaml.YAMLError, ValueError):
            pass
    return _yaml_lines_with(_SafeLoader, text)


def _yaml_lines_with(loader_class, text: str) -> tuple[object, dict[str, int], list[int]]:
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        check_tree(node)
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
    return (_stamp(s.dir / MANIFEST_FILE), _stamp(s.dir / s.glossary_file) if s.glossary_file else None)


def load_series(root: Path, area: Path, conv: Conventions, previous: Series | None = None) -> Series:
    """The series of folder `area`; `previous` (an earlier load of it) is reused when neither the
    manifest nor the glossary changed since."""
    if previous is not None and previous.dir == area and previous.stamps == _series_stamps(previous):
        return previous
    s = _load_series(root, area, conv)
    s.stamps = _series_stamps(s)
    return s


def _load_series(root: Path, area: Path, conv: Conventions) -> Series:
    """Read a manifest (and its glossary) into a Series. A value of the wrong type falls back to its
    default: MAN001 / MAN002 / MAN003 check the raw data kept on the Series against the schema."""
    mpath = area / MANIFEST_FILE
    rel = relative(mpath, root)
    s = Series(slug=area.name, dir=area, manifest_rel=rel, title=area.name, index_title=area.name,
               standing_examples=list(conv.standing_examples), stale_after_days=conv.stale_after_days)
    data, s.key_lines, _, s.manifest_error = _read_yaml(mpath, "the series manifest")
    if s.manifest_error is not None:
        return s
    if not isinstance(data, dict):
        s.manifest_error = problem(1, 1, "the series manifest must be a mapping (title:, slug:, planned: ...)")
        return s
    s.manifest = data

    def get(key, default):
        v = data.get(key)
        return default if v is None or not manifest_value_ok(key, v) else v

    s.title = get("title", area.name)
    s.index_title = get("index_title", s.title)
    s.description = get("description", "").strip()
    s.author = get("author", "")
    if "standing_examples" in data:
        s.standing_examples = [str(e) for e in get("standing_examples", []) if isinstance(e, (str, int, float))]
    s.stale_after_days = get("stale_after_days", conv.stale_after_days)
    s.timely = get("timely", False)
    for code, sev in get("rules", {}).items():
        sev = "off" if sev is False else str(sev)   # YAML 1.1 reads a bare `off` as false
        if sev in SWITCHES:
            s.rules[str(code)] = sev
    pl_line = s.key_lines.get("planned", 1)
    for i, item in enumerate(get("planned", [])):
        if isinstance(item, str):
            s.planned.append(Planned(item.strip(), None, "", pl_line + 1 + i))
        elif isinstance(item, dict) and isinstance(item.get("title"), str):
            order = item.get("order")
            order = order if isinstance(order, int) and not isinstance(order, bool) else None
            s.planned.append(Planned(item["title"].strip(), order, str(item.get("summary") or ""), pl_line + 1 + i))
    gl = get("glossary", "")
    if gl:
        gpath = area / gl
        if not _inside(gpath, area):
            s.glossary_outside = gl     # never read: MAN001 reports it
            return s
        s.glossary_file = gl
        s.glossary_rel = relative(gpath, root) if gpath.is_relative_to(root) else gl
        if not gpath.exists():
            s.glossary_missing = True
        else:
            s.glossary_data, _, s.glossary_lines, s.glossary_error = _read_yaml(gpath, "the glossary")
            s.glossary = glossary_entries(s.glossary_data, s.glossary_lines)
    return s


def _inside(path: Path, folder: Path) -> bool:
    """`path` (links followed) is `folder` or under it: a manifest reads files of its own series only."""
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):
        return False


def _read_yaml(path: Path, what: str) -> tuple[object, dict[str, int], list[int], Finding | None]:
    """(data, top-level key -> line, line of each list item, neutral problem or None) of a YAML file."""
    text = ""
    kind = _not_regular(path)
    if kind:
        return None, {}, [], problem(1, 1, f"{what} is {kind}, not a file; it is not read")
    try:
        text = path.read_bytes().decode("utf-8-sig")
        data, keys, items = _yaml_lines(text)
        return data, keys, items, None
    except UnicodeDecodeError as exc:
        return None, {}, [], problem(1, 1, f"{what} is not valid UTF-8 ({exc.reason})", hint="save it as UTF-8")
    except (yaml.YAMLError, ValueError) as exc:
        e = yaml_error(exc, text)
        return None, {}, [], problem(e.line, e.column, f"{what} does not parse: {e.message}", e.hint)
    except OSError as exc:
        return None, {}, [], problem(1, 1, f"cannot read {what}: {exc.strerror or exc}")


def glossary_entries(data, lines: list[int]) -> list[GlossaryEntry]:
    """The usable entries of a glossary (MAN002 reports the others)."""
    if not isinstance(data, list):
        return []
    entries: list[GlossaryEntry] = []
    for i, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("term"), str) or not item["term"].strip():
            continue
        aliases = item.get("aliases") or []
        aliases = aliases if isinstance(aliases, list) else []
        entries.append(GlossaryEntry(
            item["term"].strip(), str(item.get("en") or "").strip(), str(item.get("abbr") or "").strip(),
            str(item.get("desc") or "").strip(), str(item.get("post") or "").strip(),
            [str(a).strip() for a in aliases if str(a).strip()], lines[i] if i < len(lines) else 1))
    return entries


def _walk(root: Path, top: Path, skipped: list[Skipped], inside: Path | None = None):
    """Files under `top`, folder by folder in name order (a folder's files before its subfolders'),
    without following symlinked folders; links it cannot follow, that leave `inside` (the project
    by default) or that lead to a hidden file are recorded in `skipped` (FS001 reports them). What
    the folder listing says of each entry (folder, file, link) is used as it is: only links and
    what is not a regular file are looked at again."""
    inside = (inside or root).resolve()
    folders = [top]     # (a stack, not recursion: a tree of any depth is walked)
    while folders:
        below = yield from _walk_folder(root, folders.pop(), skipped, inside)
        folders.extend(reversed(below))


def _walk_folder(root: Path, d: Path, skipped: list[Skipped], inside: Path):
    """The files of folder `d` (yielded) and its subfolders to walk (returned), both in name order."""
    try:
        with os.scandir(d) as listing:
            entries = sorted(listing, key=lambda e: e.name)
    except OSError:
        return []       # unreadable: as os.walk, which this follows, skips it
    folders, below = [], []
    for e in entries:
        try:
            (folders if e.is_dir() else below).append(e)
        except OSError:     # (a link that loops: not a folder)
            below.append(e)
    subfolders = []
    for e in folders:
        p = d / e.name
        if e.is_symlink():
            try:
                target = p.resolve(strict=True)
            except (OSError, RuntimeError) as exc:
                skipped.append(Skipped(relative(p, root), "broken-link", _reason(exc)))
                continue
            skipped.append(Skipped(relative(p, root), "linked-folder", str(target)))
        elif not e.name.startswith("."):
            subfolders.append(p)
    for e in below:
        if e.name.startswith("."):
            continue
        p = d / e.name
        link = e.is_symlink()
        if link:
            try:
                target = p.resolve(strict=True)
            except (OSError, RuntimeError) as exc:
                skipped.append(Skipped(relative(p, root), "broken-link", _reason(exc)))
                continue
            if not target.is_relative_to(inside):
                skipped.append(Skipped(relative(p, root), "link-outside", str(target)))
                continue
            if any(part.startswith(".") for part in target.relative_to(inside).parts):
                skipped.append(Skipped(relative(p, root), "link-hidden", str(target)))
                continue
        kind = "" if not link and _listed_regular(e) else _not_regular(p)
        if kind:
            skipped.append(Skipped(relative(p, root), "not-a-file", kind))
            continue
        yield p
    return subfolders


def _listed_regular(entry: os.DirEntry) -> bool:
    try:
        return entry.is_file(follow_symlinks=False)
    except OSError:
        return False        # _not_regular() says what it is


def _not_ignored(root: Path, paths: list[Path], skipped: list[Skipped]) -> tuple[list[Path], bool]:
    """The files git does not ignore (in a git checkout: one `git check-ignore`; a symlink counts as
    ignored when its target is), and whether the site may publish files of series/ at all (not when
    the checkout's git cannot say what it ignores: FS001)."""
    rels = [relative(p, root) for p in paths]
    targets = {rel: relative(p.resolve(), root) for rel, p in zip(rels, paths) if p.is_symlink()}
    try:
        ignored = assets.git_ignored(root, sorted(set(rels) | set(targets.values())))
    except assets.GitUnavailable as exc:
        skipped.append(Skipped(SERIES_DIR, "git-unavailable", str(exc)))
        return paths, False
    if not ignored:
        return paths, True
    return [p for rel, p in zip(rels, paths) if rel not in ignored and targets.get(rel) not in ignored], True


def _not_regular(path: Path) -> str:
    """What `path` is when it is not a regular file (a FIFO, a socket, a device), else "". Checked
    with stat() only: opening a FIFO would wait for a writer for ever."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return ""          # reading it reports why (FS001 "cannot read")
    if stat.S_ISREG(mode):
        return ""
    for test, what in ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device")):
        if test(mode):
            return what
    return "not a regular file"


def _reason(exc: BaseException) -> str:
    return str(getattr(exc, "strerror", None) or exc)


def load_site(root: str | Path, conventions: Conventions | None = None, today: dt.date | None = None,
              previous: Site | None = None, cache=None, jobs: int = 1, verdicts=None, checked_only: bool = False) -> Site:
    """Load everything under `<root>/series/` (and the page list of `<root>/docs/`). `cache`: a
    FrontmatterCache (serieskit/parse/parsecache.py), which the CLI uses between runs and saves.
    `jobs`: processes for the asset plan's checks (serieskit/model/forking.py); `verdicts`: the lint
    CLI's VerdictCache of those checks (serieskit/parse/parsecache.py; the plan is then not publishable);
    `checked_only`: the SVG files are checked, not written (the lint CLI: the plan is not publishable).

    Raises ConfigError when conventions.yml is missing or invalid (nothing can be checked then).
    """
    root = Path(root).resolve()
    conv = conventions or load_conventions(root / CONVENTIONS_FILE)
    fs_problems: list[Skipped] = []
    series: dict[str, Series] = {}
    posts: list[Post] = []
    site_files: set[str] = set()
    from_series: dict[str, Path] = {}       # site path -> file: what the publishing plan looks at
    post_paths: list[Path] = []
    publish = True
    reuse = previous is not None and previous.conv.fingerprint == conv.fingerprint
    reusable = {p.rel: p for p in previous.posts} if reuse else {}
    sroot = root / SERIES_DIR
    if sroot.is_dir():
        for area in sorted(sroot.iterdir()):
            if area.is_dir() and not area.is_symlink() and (area / MANIFEST_FILE).is_file():
                series[area.name] = load_series(root, area, conv, previous.series.get(area.name) if reuse else None)
        found, publish = _not_ignored(root, list(_walk(root, sroot, fs_problems, inside=sroot)), fs_problems)
        for path in found:
            if path.suffix == ".md":
                post_paths.append(path)
            elif not (path.suffix in (".yml", ".yaml") and path.parent.parent == sroot):   # (manifests, glossaries)
                site_rel = relative(path, root)[len(SERIES_DIR) + 1:]
                site_files.add(site_rel)
                from_series[site_rel] = path
    # the files' checks (the SVG sanitizer above all) run in other processes while the posts are read
    checks = assets.start_checks(from_series if publish else {}, conv.data_files, previous.assets if reuse else None,
                                 jobs, verdicts, checked_only)
    for path in post_paths:
        rel = relative(path, root)
        try:
            st = path.stat()
            old = reusable.get(rel)
            if old is not None and old.mtime_ns == st.st_mtime_ns and old.size == st.st_size:
                posts.append(old)
                continue
            posts.append(Post(root, path, path.read_bytes(), st.st_mtime_ns, cache))
        except OSError as exc:
            fs_problems.append(Skipped(rel, "unreadable", _reason(exc)))
    docs = root / "docs"
    pages_from_docs: set[str] = set()
    docs_files: set[str] = set()
    if docs.is_dir():
        for path in _walk(root, docs, []):
            site_rel = path.relative_to(docs).as_posix()
            (pages_from_docs if path.suffix == ".md" else docs_files).add(site_rel)
    site_files |= docs_files
    site = Site(root, conv, posts, series, site_files, fs_problems, today_from_env(today))
    site.add_pages(pages_from_docs)
    site.assets = assets.plan(site, checks, docs_files, pages_from_docs)
    return site


__all__ = ["load_site", "load_series", "today_from_env", "ConfigError", "SLUG_RE"]
