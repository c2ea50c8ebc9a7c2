"""The project as an editor sees it: the files on disk, some posts replaced by unsaved buffers.

Plain Python; the language server (serieskit/lsp/) adapts it to an editor. The project is loaded once
and kept: `refresh()` re-reads only files whose size or modification time changed (`load_site(...,
previous=)`), a buffer is parsed once per distinct content, and the site the rules see is the saved
one with the buffers in place of (or beside) their files, its indexes rebuilt (`overlay`). Cross-post
rules (links, sister links, duplicate slugs and orders, manifests) therefore see the whole project with
the buffers in it, and the findings are the ones `series-lint` gives for the same files once saved:
the same `lint()`, the same fixes (`fixed()` runs the rounds of `series-lint --fix` in memory).

Manifests, glossaries and conventions.yml are read from disk (an unsaved edit of them counts once saved).
"""
from __future__ import annotations

import datetime as dt
import time
from pathlib import Path, PurePosixPath
from collections.abc import Iterable

from serieskit.lint.engine import lint
from serieskit.lint.fix import MAX_FIX_ROUNDS, apply_edits
from serieskit.model.loader import load_site
from serieskit.model.site import SERIES_DIR, Finding, Post, Site
from serieskit.pipeline.project import Project


def overlay(site: Site, posts: Iterable[Post]) -> Site:
    """`site` with `posts` in place of the saved posts of the same path (or beside them, for a file not
    saved yet): a new Site whose indexes include them; series, files and pages are shared."""
    replaced = {p.rel: p for p in posts}
    if not replaced:
        return site
    merged = [replaced.pop(p.rel, p) for p in site.posts]
    merged += replaced.values()
    new = Site(site.root, site.conv, merged, site.series, site.site_files, site.fs_problems, site.today)
    new.assets = site.assets
    new.add_pages(site.pages - set(site.by_site_path))   # the docs/ pages (the rest Site adds itself)
    return new


def is_post_path(rel: str) -> bool:
    """Whether the loader reads this project-relative path as a post: a `.md` file under series/,
    in no hidden folder."""
    parts = PurePosixPath(rel).parts
    return (len(parts) >= 2 and parts[0] == SERIES_DIR and rel.endswith(".md")
            and not any(p.startswith(".") for p in parts))


def is_project_file(rel: str) -> bool:
    """Whether `series-lint <rel>` checks anything of this file: a path under series/."""
    return rel.startswith(SERIES_DIR + "/")


def _same(a: Site, b: Site) -> bool:
    """Whether a new load of the disk found nothing new (the loader reuses unchanged posts and series)."""
    return (a.conv is b.conv and a.today == b.today and len(a.posts) == len(b.posts)
            and all(p is q for p, q in zip(a.posts, b.posts)) and a.series.keys() == b.series.keys()
            and all(s is b.series[k] for k, s in a.series.items()) and a.site_files == b.site_files
            and a.pages == b.pages and a.fs_problems == b.fs_problems)


class Workspace:
    """One project root, its saved files and the editor's unsaved posts.

    Raises ConfigError (from `refresh()`, `site()`, `lint()`) while conventions.yml is missing or
    invalid, as `series-lint` would."""

    def __init__(self, root: str | Path, today: dt.date | None = None):
        self.root = Path(root).resolve()
        self.today = today
        self._conventions = Project()              # re-reads conventions.yml only when it changed
        self._disk: Site | None = None
        self._buffers: dict[str, tuple[bytes, Post]] = {}
        self._site: Site | None = None             # the disk site with the buffers laid over it
        self.refreshed = 0.0                       # time.monotonic() of the last look at the disk

    def refresh(self) -> bool:
        """Look at the disk again: re-read conventions.yml, manifests, glossaries and posts that
        changed since the last look (by size and modification time), reuse the rest. True when
        anything changed (or on the first look)."""
        conv = self._conventions.conventions(self.root)
        old, self._disk = self._disk, load_site(self.root, conv, today=self.today, previous=self._disk)
        self.refreshed = time.monotonic()
        if old is not None and _same(old, self._disk):
            return False
        self._site = None
        return True

    def set_buffer(self, rel: str, data: bytes | None) -> None:
        """The editor's unsaved content of post `rel` (None: the saved file counts again). A content
        seen last time is not parsed again; one equal to the saved file reuses the saved post."""
        if data is None:
            if self._buffers.pop(rel, None) is not None:
                self._site = None
            return
        if not is_post_path(rel):
            return
        old = self._buffers.get(rel)
        if old is not None and old[0] == data:
            return
        post = self._saved_post(rel, data) or Post(self.root, self.root / rel, data)
        self._buffers[rel] = (data, post)
        self._site = None

    def _saved_post(self, rel: str, data: bytes) -> Post | None:
        saved = self._disk.by_rel.get(rel) if self._disk is not None else None
        if saved is None or saved.size != len(data):
            return None
        try:
            return saved if saved.path.read_bytes() == data else None
        except OSError:
            return None

    def site(self) -> Site:
        if self._disk is None:
            self.refresh()
        if self._site is None:
            self._site = overlay(self._disk, (post for _, post in self._buffers.values()))
        return self._site

    def post(self, rel: str) -> Post | None:
        """The post as the rules see it: the buffer, else the saved file."""
        return self.site().by_rel.get(rel)

    def lint(self, rels: Iterable[str]) -> list[Finding]:
        """What `series-lint <rels>` reports (info included), with the buffers in place of their files."""
        only = {r for r in rels if is_project_file(r)}
        return lint(self.site(), only) if only else []

    def fixed(self, rel: str) -> bytes | None:
        """The content `series-lint --fix <rel>` would give the post as it is now (buffer or saved
        file), or None when no fix changes it. Nothing is written."""
        site = self.site()
        post = site.by_rel.get(rel)
        if post is None or post.decode_error:
            return None     # never rewrite a file that could not be decoded faithfully
        original = data = post.serialize()
        for _ in range(MAX_FIX_ROUNDS):
            edits = [e for f in lint(site, {rel}) if f.path == rel and f.fix for e in f.fix]
            if not edits:
                break
            new, _ = apply_edits(post, edits)
            if new == data:
                break
            data = new
            post = Post(self.root, post.path, data)
            site = overlay(site, [post])
        return data if data != original else None
