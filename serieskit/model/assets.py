"""Which files under series/ become files of the site, and with what bytes: the one publishing policy
both hosts apply (hooks/serieshooks/generated.py for MkDocs, serieskit/publish/sources.py for Zensical).

A file that is not a post, a manifest or a glossary is published only when its type is allowed:

- a raster image (`.png`, `.jpg` / `.jpeg`, `.gif`, `.webp`, `.avif`) whose first bytes are that
  format's signature (a `.png` that is really HTML is not published);
- an SVG, after sanitizing (serieskit/sanitize/svgfile.py, its profile for a standalone SVG file: nh3, then
  the result checked once more as the browser's XML parser reads it; the sanitized bytes are what is
  published);
- a data file whose suffix `conventions.yml` declares (`assets: data_files:`), from a short list
  of types no browser runs (`DATA_SUFFIXES`).

Anything else is left out; so is a file whose site path is the site's own (a `docs/` file, a
generated page or feed, the theme's folders, a host's configuration file). Each refusal or removal
is a `Problem`, which SEC002 (serieskit/lint/rules/sec002_asset_policy.py) reports; the loader keeps the
plan on the Site (`site.assets`). Which files are looked at at all (no dotfiles, no git-ignored
files, no symlink leading out of series/) is the loader's discovery (serieskit/model/loader.py).
"""
from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from serieskit.conventions import DATA_SUFFIXES
from serieskit.sanitize import check_svg, sanitize_svg
from .forking import Pending, fork_start
from .site import SERIES_DIR
from .urls import feed_path, page_dest

# --- raster images ---------------------------------------------------------------------------------
RASTER = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".gif": "GIF", ".webp": "WebP", ".avif": "AVIF"}


def raster_format(head: bytes) -> str | None:
    """The raster format whose signature `head` (the file's first bytes) starts with."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if head.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "GIF"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "WebP"
    if head[4:8] == b"ftyp":
        size = int.from_bytes(head[:4], "big")
        brands = head[8:12] + head[16:max(16, min(size, len(head)))]
        if any(brands[i:i + 4] in (b"avif", b"avis") for i in range(0, len(brands) - 3, 4)):
            return "AVIF"
    return None


# --- the plan ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Asset:
    """A file of the site from series/: its path in the site, on disk, and the bytes to publish when
    they are not the file's own (a sanitized SVG)."""
    site_path: str
    src: Path
    data: bytes | None = None


@dataclass(frozen=True)
class Problem:
    """A file under series/ the plan refused or changed: `kind` (type, signature, svg, svg-changed,
    data-type, taken), `detail` (what was removed, the other owner of the path, ...). SEC002 words it."""
    path: str
    kind: str
    detail: str = ""


@dataclass
class AssetPlan:
    published: list[Asset] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    stamps: dict = field(default_factory=dict)   # site path -> ((file, mtime, size, data suffixes), Asset, [Problem])
    # the plan holds verdicts, not sanitized bytes (the lint CLI's: SVG files checked and not written, or
    # verdicts from its cache, serieskit/parse/parsecache.py VerdictCache): such a plan says what is
    # wrong, and publishing it is refused
    checked_only: bool = False


# Folders and files of the site's root that are the site's own, whoever writes them (theme, docs/,
# the build, the static host): a file from series/ never lands there.
RESERVED_FOLDERS = {"assets/": "the site's own assets folder (theme, docs/assets/, vendored mermaid and KaTeX)",
                    "pagefind/": "the search index", "search/": "the theme's search index"}
RESERVED_FILES = {"_headers": "the static host's headers file", "_redirects": "the static host's redirects file",
                  "sitemap.xml": "the sitemap", "sitemap.xml.gz": "the sitemap", "404.html": "the theme's 404 page",
                  "search.json": "Zensical's search index", "robots.txt": "the crawler rules", "CNAME": "the domain file",
                  "feed.xml": "the site's feed"}


def taken_paths(site, docs_files: set[str], docs_pages: set[str], theme: set[str]) -> dict[str, str]:
    """Site paths a file of series/ must not take, each with whose it is."""
    taken = dict(RESERVED_FILES)
    taken.update({p: f"the theme's overrides/{p}" for p in theme})
    for page in sorted(site.pages):
        post = site.by_site_path.get(page)
        owner = f"the post {post.rel}" if post else f"the page docs/{page}" if page in docs_pages \
            else f"the generated page {page}"
        taken[page] = taken[page_dest(page)] = owner
    for s in site.series.values():
        taken[feed_path(s)] = f"the feed of series {s.slug}"
    taken.update({p: f"the site's own docs/{p}" for p in docs_files})
    return taken


def collision(site_path: str, taken: dict[str, str]) -> str | None:
    """Whose `site_path` is, if it is the site's own."""
    if site_path in taken:
        return taken[site_path]
    return next((why for folder, why in RESERVED_FOLDERS.items() if site_path.startswith(folder)), None)


def classify(site_path: str, src: Path, data_suffixes: tuple[str, ...],
             data: bytes | None = None, checked_only: bool = False) -> tuple[Asset | None, list[Problem]]:
    """One file's fate by its type and content (collisions are the plan's). `data`: an SVG's bytes,
    when they were read already (the verdict kept for them is the verdict on these bytes).
    `checked_only`: an SVG is checked, not written (its Asset holds no bytes: see AssetPlan)."""
    rel = f"{SERIES_DIR}/{site_path}"
    suffix = src.suffix.lower()
    try:
        if suffix in RASTER:
            with src.open("rb") as fh:
                found = raster_format(fh.read(64))
            if found != RASTER[suffix]:
                return None, [Problem(rel, "signature", f"{RASTER[suffix]}|{found or ''}")]
            return Asset(site_path, src), []
        if suffix == ".svg":
            data = src.read_bytes() if data is None else data
            made, removed = check_svg(data) if checked_only else sanitize_svg(data)
            if made is None:
                return None, [Problem(rel, "svg", "; ".join(removed))]
            asset = Asset(site_path, src) if checked_only else Asset(site_path, src, made)
            return asset, [Problem(rel, "svg-changed", ", ".join(removed))] if removed else []
    except OSError as exc:
        return None, [Problem(rel, "unreadable", str(exc.strerror or exc))]
    if suffix in data_suffixes:
        return Asset(site_path, src), []
    return None, [Problem(rel, "data-type" if suffix in DATA_SUFFIXES else "type", suffix or src.name)]


@dataclass
class Checks:
    """The type and content checks of the files of series/ (`start_checks`), under way while the
    loader reads the posts; `plan` collects them."""
    files: dict[str, Path]
    known: dict                 # site path -> (stamp, Asset, [Problem]) of the files not checked again
    todo: list                  # (site path, file, stamp) of the files being checked
    pending: Pending
    verdicts: object = None
    checked_only: bool = False


def start_checks(files: dict[str, Path], data_suffixes: tuple[str, ...], previous: AssetPlan | None = None,
                 jobs: int = 1, verdicts=None, checked_only: bool = False) -> Checks:
    """Begin classifying `files` (site path -> file under series/). A file whose modification time
    and size are those `previous` saw is not read again; the others are classified in up to `jobs`
    child processes, which run while the caller goes on (serieskit/model/forking.py; with one job, in
    this process when `plan` asks for them). `verdicts`: the lint CLI's VerdictCache: an SVG whose
    bytes it has seen is not checked again (the child reads and hashes the file and answers from it).
    `checked_only`: the SVG files are checked, not written (the lint CLI, which publishes nothing:
    the plan is then not publishable); so is a plan made with `verdicts`, which holds no bytes."""
    old = previous.stamps if previous is not None else {}
    known, todo = {}, []
    checked_only = checked_only or verdicts is not None or (previous is not None and previous.checked_only)
    for site_path, src in sorted(files.items()):
        try:
            st = src.stat()
            stamp = (src, st.st_mtime_ns, st.st_size, data_suffixes)
        except OSError:
            stamp = None
        hit = old.get(site_path)
        if hit is not None and stamp is not None and hit[0] == stamp:
            known[site_path] = hit
        else:
            todo.append((site_path, src, stamp))
    pending = fork_start(lambda share: [_check(p, src, data_suffixes, checked_only, verdicts) for p, src, _ in share],
                         todo, jobs)
    return Checks(files, known, todo, pending, verdicts, checked_only)


def _check(site_path: str, src: Path, data_suffixes: tuple[str, ...], checked_only: bool, verdicts):
    """`classify`, or for an SVG file whose bytes `verdicts` has seen, the verdict kept for them; and
    the verdict entry this used or made (`verdicts.entries_of`: a child process hands it back)."""
    data = None
    if verdicts is not None and src.suffix.lower() == ".svg":
        try:
            data = src.read_bytes()
        except OSError:
            pass                # classify() reads it again and words the problem
    if data is None:
        return (*classify(site_path, src, data_suffixes, checked_only=checked_only), {})
    rel, digest = f"{SERIES_DIR}/{site_path}", verdicts.digest(data)
    hit = verdicts.get(rel, digest)
    if hit is None:
        asset, problems = classify(site_path, src, data_suffixes, data, checked_only=True)
        verdicts.put(rel, digest, asset is not None, [(x.kind, x.detail) for x in problems])
    else:
        published, kept = hit
        asset, problems = Asset(site_path, src) if published else None, [Problem(rel, kind, detail) for kind, detail in kept]
    return asset, problems, verdicts.entries_of([rel])


def plan(site, checks: Checks, docs_files: set[str], docs_pages: set[str]) -> AssetPlan:
    """What of the checked files the site publishes, and the problems: each file's own verdict
    (`start_checks`), and a refusal for a file whose site path is the site's own."""
    out = AssetPlan(checked_only=checks.checked_only)
    taken = taken_paths(site, docs_files, docs_pages, theme_files(site.root))
    known = checks.known
    for (p, _, stamp), (asset, problems, kept) in zip(checks.todo, checks.pending.results()):
        known[p] = (stamp, asset, problems)
        if kept:
            checks.verdicts.adopt(kept)
    for site_path in sorted(checks.files):
        stamp, asset, problems = out.stamps[site_path] = known[site_path]
        owner = collision(site_path, taken)     # (a file refused for its type is named here too)
        if owner is not None:
            problems, asset = [*problems, Problem(f"{SERIES_DIR}/{site_path}", "taken", f"{site_path}|{owner}")], None
        out.problems.extend(problems)
        if asset is not None:
            out.published.append(asset)
    return out


def theme_files(root: Path) -> set[str]:
    """The site paths of the project's theme overrides (`overrides/`, mkdocs.yml's custom_dir)."""
    base = root / "overrides"
    if not base.is_dir():
        return set()
    return {p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file()}


# --- what git leaves out -----------------------------------------------------------------------------
class GitUnavailable(Exception):
    """The project is a git checkout, but git could not say which files it ignores."""


def git_ignored(root: Path, rels: list[str]) -> set[str] | None:
    """The paths of `rels` (relative to `root`) that git ignores, asked once (`git check-ignore
    --stdin`); None when `root` is not a git checkout (no `.git` there: a copy, an export, a scratch
    project inside another checkout), where the loader skips dotfiles only, as it always does.
    Raises GitUnavailable when it is one and git cannot answer."""
    if not (root / ".git").exists():
        return None
    if not rels:
        return set()
    try:
        r = subprocess.run(["git", "check-ignore", "--stdin", "-z"], cwd=root, capture_output=True, timeout=60,
                           input="\0".join(rels).encode("utf-8", "surrogateescape"))
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitUnavailable(str(exc)) from None
    if r.returncode not in (0, 1):     # 1: none of them is ignored
        said = r.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitUnavailable(said[-1] if said else f"git check-ignore exited with {r.returncode}")
    return {p.decode("utf-8", "surrogateescape") for p in r.stdout.split(b"\0") if p}
