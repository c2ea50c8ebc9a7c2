"""The post, series and site model. Each raw file is read and parsed once per run; the loader,
the rules and the renderers all take the same `Post`. `Site` holds the indexes that cross-post
checks use (by slug, by series and order, by title, by site path), built once per run.
"""
from __future__ import annotations

import datetime as dt
import functools
import math
import os
import posixpath
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from serieskit.parse import frontmatter as fmmod
from serieskit.finding import Finding
from .schema import DATE_RE, SLUG_RE
from serieskit.conventions import STALE_AFTER_DAYS, Conventions
from serieskit.parse.syntax import Body
from serieskit.parse.markdown import parse_body
from .pagetable import page_titles
from .urls import link_from, post_url

SERIES_DIR = "series"
MANIFEST_FILE = "series.yml"
CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff]+")
WORD_RE = re.compile(r"[A-Za-z0-9]+(?:[-'.][A-Za-z0-9]+)*")
SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:|^//")
QUERY_OR_FRAGMENT = re.compile(r"[#?]")
TITLE_SPLIT = re.compile(r"[：:]")   # the short title is the part before the first colon

SERIES_INDEX = "index.md"


def parse_date(value) -> dt.date | None:
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if isinstance(value, str) and DATE_RE.match(value.strip()):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            return None
    return None


@dataclass
class Stats:
    cjk_chars: int
    words: int
    minutes: int


class Post:
    """One Markdown file under series/, decoded and parsed once."""

    def __init__(self, root: Path, path: Path, data: bytes, mtime_ns: int = 0, cache=None):
        """`cache`: a serieskit/parse/parsecache.py FrontmatterCache, which gives the frontmatter of bytes
        seen before."""
        self.root = root
        self.path = path
        self.rel = relative(path, root)
        self.mtime_ns = mtime_ns
        self.size = len(data)
        parts = tuple(self.rel.split("/")[1:]) if self.rel.startswith(SERIES_DIR + "/") \
            else path.relative_to(root / SERIES_DIR).parts
        self.area = parts[0] if len(parts) > 1 else ""
        self.site_path = "/".join(parts)  # path in the built site's source tree, e.g. train-infer-accel/x.md
        self.site_dir = posixpath.dirname(self.site_path)   # its folder there (links resolve from it)
        self.decode_error: Finding | None = None    # the first byte that is not UTF-8 (FMT008 reports it)
        self.bom = data.startswith(b"\xef\xbb\xbf")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            before = data[:exc.start]
            line = before.count(b"\n") + 1
            col = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
            self.decode_error = Finding("", line, col, "", "", f"byte 0x{data[exc.start]:02x} is not valid UTF-8")
            text = data.decode("utf-8-sig", "replace")
        self.text = text
        raw_lines = text.split("\n")
        self.lines: list[str]
        self.endings: list[str]
        if "\r" not in text:
            self.lines = raw_lines
            self.endings = ["\n"] * (len(raw_lines) - 1) + [""]
        else:
            self.lines, self.endings = [], []
            for i, line in enumerate(raw_lines):
                last = i == len(raw_lines) - 1
                if line.endswith("\r"):
                    self.lines.append(line[:-1])
                    self.endings.append("\r\n")
                else:
                    self.lines.append(line)
                    self.endings.append("" if last else "\n")
        if self.lines and self.lines[-1] == "" and len(self.lines) > 1:
            # a trailing newline does not make an extra (empty) line
            self.lines.pop()
            self.endings.pop()
        digest = cache.digest(data) if cache is not None else ""
        self.digest = digest     # SHA-256 of the bytes, when a cache asked for it (else "")
        fm = cache.get(self.rel, digest) if cache is not None else None
        if fm is None:
            fm = fmmod.parse(self.lines)
            if cache is not None:
                cache.put(self.rel, digest, fm)
        self.fm = fm
        self.meta: dict = self.fm.data if isinstance(self.fm.data, dict) else {}
        self.body_start = self.fm.end + 1 if self.fm.end else (1 if self.fm.start == 0 else 2)
        self._derived: dict[tuple, object] = {}   # see memo()

    @functools.cached_property
    def body(self) -> Body:
        """The parsed Markdown body, made when first read: loading a site reads every post's
        frontmatter, and a run parses only the bodies it looks at (`series-lint one.md` parses that
        post and the posts it links to; a run in several processes parses each body in the process
        that lints it)."""
        return parse_body(self.lines, self.body_start)

    def memo(self, name: str, key, compute):
        """A value derived from this post, computed once: a post never changes after parsing, so the
        entry is keyed by `name` plus `key`, which must hold every other input (the Conventions'
        fingerprint, a fence's line...). Every derived cache of the engine goes through here."""
        k = (name, key)
        try:
            return self._derived[k]
        except KeyError:
            value = self._derived[k] = compute()
            return value

    def forget_derived(self) -> None:
        """Drop every memo() value (a benchmark measures a view's cost as if it were computed first)."""
        self._derived.clear()

    # --- raw access ---------------------------------------------------------------------------
    def line(self, n: int) -> str:
        return self.lines[n - 1] if 1 <= n <= len(self.lines) else ""

    def prose(self, n: int) -> str:
        return self.body.prose.get(n, "")

    @property
    def nlines(self) -> int:
        return len(self.lines)

    def pos(self, key: str) -> tuple[int, int]:
        """(line, col) of a frontmatter key's value, or of the frontmatter's start."""
        return self.fm.value_pos.get(key) or self.fm.key_pos.get(key) or (max(self.fm.start, 1), 1)

    def serialize(self, lines: list[str] | None = None) -> bytes:
        lines = self.lines if lines is None else lines
        out = "".join(l + e for l, e in zip(lines, self.endings))
        if len(lines) > len(self.endings):
            out += "".join(l + "\n" for l in lines[len(self.endings):])
        return (b"\xef\xbb\xbf" if self.bom else b"") + out.encode("utf-8")

    # --- frontmatter accessors (tolerant: wrong types give None; FMT rules report them) ----------
    def _str(self, key: str) -> str | None:
        v = self.meta.get(key)
        return v.strip() if isinstance(v, str) and v.strip() else None

    @property
    def title(self) -> str:
        return self._str("title") or Path(self.rel).stem

    @property
    def slug(self) -> str:
        s = self._str("slug")
        return s if s and SLUG_RE.match(s) else Path(self.rel).stem

    @property
    def series_slug(self) -> str | None:
        return self._str("series")

    @property
    def order(self) -> int | None:
        v = self.meta.get("order")
        return v if isinstance(v, int) and not isinstance(v, bool) else None

    @property
    def date(self) -> dt.date | None:
        return parse_date(self.meta.get("date"))

    @property
    def updated(self) -> dt.date | None:
        return parse_date(self.meta.get("updated"))

    @property
    def last_update(self) -> dt.date | None:
        return self.updated or self.date

    @property
    def author(self) -> str | None:
        return self._str("author")

    @property
    def summary(self) -> str | None:
        return self._str("summary")

    @property
    def image(self) -> str | None:
        """The post's share image (link previews), a file path relative to the post."""
        return self._str("image")

    @property
    def tags(self) -> list[str]:
        v = self.meta.get("tags")
        return [t.strip() for t in v if isinstance(t, str) and t.strip()] if isinstance(v, list) else []

    @property
    def is_draft(self) -> bool:
        return self.meta.get("status") == "draft"

    @property
    def short_title(self) -> str:
        return TITLE_SPLIT.split(self.title, 1)[0].strip()

    @property
    def url_dir(self) -> str:
        """The post's URL path relative to the site root: `<area>/<slug>/` (serieskit/model/urls.py)."""
        return post_url(self.area, self.slug)

    # --- derived --------------------------------------------------------------------------------
    def lead_range(self) -> range:
        """Body lines before the first heading of level 1 or 2."""
        end = next((h.line for h in self.body.headings if h.level <= 2), self.nlines + 1)
        return range(self.body_start, end)

    def stats(self, conv: Conventions) -> Stats:
        return self.memo("stats", (conv.cjk_chars_per_minute, conv.words_per_minute), lambda: self._stats(conv))

    def _stats(self, conv: Conventions) -> Stats:
        in_code, prose = self.body.in_code, self.body.prose
        # one string (no pattern matches across a newline) and runs of Chinese, not one match per character
        text = "\n".join([prose.get(ln, "") for ln in range(self.body_start, self.nlines + 1) if ln not in in_code])
        cjk = sum(map(len, CJK_RUN.findall(text)))
        words = len(WORD_RE.findall(text))
        minutes = max(1, math.ceil(cjk / conv.cjk_chars_per_minute + words / conv.words_per_minute))
        return Stats(cjk, words, minutes)


def relative(path: Path, root: Path) -> str:
    """`path.relative_to(root).as_posix()`, without pathlib's cost when `path` is plainly under `root`."""
    p, r = str(path), str(root)
    if os.sep == "/" and p.startswith(r.rstrip("/") + "/") and "/./" not in p and "/../" not in p:
        return p[len(r.rstrip("/")) + 1:]
    return path.relative_to(root).as_posix()


@dataclass
class Planned:
    title: str
    order: int | None
    summary: str
    line: int


@dataclass
class GlossaryEntry:
    term: str
    en: str
    abbr: str
    desc: str
    post: str
    aliases: list[str]
    line: int


@dataclass
class Series:
    slug: str
    dir: Path
    manifest_rel: str
    title: str = ""
    index_title: str = ""
    description: str = ""
    author: str = ""
    standing_examples: list[str] = field(default_factory=list)
    stale_after_days: int = STALE_AFTER_DAYS
    timely: bool = False
    planned: list[Planned] = field(default_factory=list)
    rules: dict[str, str] = field(default_factory=dict)
    glossary_rel: str | None = None
    glossary: list[GlossaryEntry] = field(default_factory=list)
    # what was read, for the MAN rules to check (neutral problems: no code; the rules own the checks)
    manifest: dict = field(default_factory=dict)           # the manifest's raw mapping
    manifest_error: Finding | None = None                  # it could not be read or parsed
    key_lines: dict[str, int] = field(default_factory=dict)
    glossary_data: object = None                           # the glossary's raw YAML
    glossary_lines: list[int] = field(default_factory=list)   # line of each glossary entry
    glossary_error: Finding | None = None
    glossary_missing: bool = False
    glossary_outside: str = ""  # the manifest's `glossary:` when it leaves the series folder (not read)
    glossary_file: str = ""     # the manifest's `glossary:` value (a path relative to the series folder)
    stamps: tuple = ()          # (mtime, size) of the manifest and the glossary when loaded (loader reuse)

    @property
    def index_site_path(self) -> str:
        return f"{self.slug}/{SERIES_INDEX}"


@dataclass
class Skipped:
    """A file under series/ the loader did not read: `kind` is broken-link, linked-folder,
    link-outside (of series/), link-hidden, unreadable or git-unavailable; `detail` the link's target
    or the error (FS001 reports it)."""
    path: str
    kind: str
    detail: str


@dataclass(frozen=True)
class Staleness:
    """How old a post is against its staleness window: the one answer the timeliness banner's
    "可能已过时" notice (serieskit/render/post.py) and TML003 both read (`Site.staleness`)."""
    last: dt.date      # the post's last update: `updated`, else `date`
    window: int        # days: the series' `stale_after_days`, else conventions.yml's
    today: dt.date     # the site's date (`--today`, else SOURCE_DATE_EPOCH, else the calendar)

    @property
    def age(self) -> int:
        return (self.today - self.last).days

    @property
    def stale(self) -> bool:
        return self.age > self.window


def nfkc(s: str) -> str:
    return unicodedata.normalize("NFKC", s).strip()


class Site:
    """Everything under series/ plus the site pages known to the build, with indexes."""

    def __init__(self, root: Path, conventions: Conventions, posts: list[Post], series: dict[str, Series],
                 site_files: set[str], fs_problems: list[Skipped], today: dt.date):
        self.root = root
        self.conv = conventions
        self.posts = sorted(posts, key=lambda p: p.rel)
        self.series = series
        self.site_files = site_files        # non-page files of the site (images...) by site path
        self.fs_problems = fs_problems
        self.today = today
        self.assets = None                  # what of series/ the site publishes (serieskit/model/assets.py: the loader's plan)
        self.by_site_path = {p.site_path: p for p in self.posts}
        self.by_rel = {p.rel: p for p in self.posts}
        self.by_slug: dict[str, list[Post]] = {}
        self.by_series_order: dict[tuple[str, int], list[Post]] = {}
        self.by_title: dict[str, list[Post]] = {}
        for p in self.posts:
            self.by_slug.setdefault(p.slug, []).append(p)
            if p.series_slug and p.order is not None:
                self.by_series_order.setdefault((p.series_slug, p.order), []).append(p)
            for t in {nfkc(p.title), nfkc(p.short_title)}:
                self.by_title.setdefault(t, []).append(p)
        self.pages: set[str] = set(self.by_site_path)
        # the pages the build generates (serieskit/model/pagetable.py): links to them are valid
        self.pages.update(page_titles(series))
        self._resolved: dict[tuple[str, str], tuple[str, str | None]] = {}   # (folder, href) -> resolve()
        self._by_series: dict[tuple[str, bool], list[Post]] = {}

    def add_pages(self, site_paths) -> None:
        """Pages of the site that are not posts (docs/ pages); links to them resolve."""
        self.pages.update(site_paths)
        self._resolved.clear()

    # --- queries ---------------------------------------------------------------------------------
    def series_of(self, post: Post) -> Series | None:
        """The series a post belongs to: its `series:` key names a manifest."""
        s = post.series_slug
        return self.series.get(s) if s else None

    def staleness(self, post: Post) -> Staleness | None:
        """The post's age against its series' window on the site's date; None when it has no date.
        Whether it matters (a timely post, a banner to show it on) is the caller's question."""
        last = post.last_update
        if last is None:
            return None
        series = self.series_of(post)
        window = series.stale_after_days if series is not None else self.conv.stale_after_days
        return Staleness(last, window, self.today)

    def series_posts(self, slug: str, include_drafts: bool = True) -> list[Post]:
        """The posts of a series in series order (a new list; the index behind it is built once)."""
        return list(self._series_index(slug, include_drafts))

    def planned_open(self, series: Series, include_drafts: bool = True) -> list:
        """The series' planned posts that are not published yet (a planned title that a post now has
        is that post)."""
        titles = {p.title for p in self.series_posts(series.slug, include_drafts)}
        return [pl for pl in series.planned if pl.title not in titles]

    def series_number(self, post: Post, include_drafts: bool = True) -> tuple[int | None, int, int]:
        """The one numbering readers see (navigation, header, series index, prev / next, feed): a
        post's number is its `order`, its place in the series as planned; the series has as many
        places as published and planned posts. Returns (number, places, published)."""
        series = self.series_of(post)
        if series is None:
            return None, 0, 0
        posts = self.series_posts(series.slug, include_drafts)
        return post.order, len(posts) + len(self.planned_open(series, include_drafts)), len(posts)

    def _series_index(self, slug: str, include_drafts: bool) -> list[Post]:
        key = (slug, include_drafts)
        hit = self._by_series.get(key)
        if hit is None:
            hit = [p for p in self.posts if p.series_slug == slug and (include_drafts or not p.is_draft)]
            hit.sort(key=lambda p: (p.order if p.order is not None else 10 ** 9, p.rel))
            self._by_series[key] = hit
        return hit

    def published(self, post: Post) -> bool:
        return not post.is_draft

    def resolve(self, post: Post, href: str) -> tuple[str, str | None]:
        """Resolve a link of `post`. Returns (kind, detail):

        ("external", url) | ("anchor", None) | ("page", site_path) | ("file", site_path)
        | ("missing", site_path) | ("outside", href)
        """
        key = (post.site_dir, href)
        hit = self._resolved.get(key)
        if hit is None:
            hit = self._resolved[key] = self._resolve(key[0], href)
        return hit

    def _resolve(self, base: str, href: str) -> tuple[str, str | None]:
        h = href.strip()
        if SCHEME_RE.match(h):
            return "external", h
        path = QUERY_OR_FRAGMENT.split(h, 1)[0]
        if not path:
            return "anchor", None
        path = unquote(path)
        if path.startswith("/"):
            target = posixpath.normpath(path.lstrip("/"))
        else:
            target = posixpath.normpath(posixpath.join(base, path))
        if target == ".." or target.startswith("../") or target.startswith("/"):
            return "outside", href
        if target in self.pages:
            return "page", target
        if target in self.site_files:
            return "file", target
        return "missing", target

    def post_at(self, site_path: str) -> Post | None:
        return self.by_site_path.get(site_path)

    def rel_link(self, post: Post, target_site_path: str) -> str:
        return link_from(post.site_path, target_site_path)

