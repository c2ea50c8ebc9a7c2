"""One build's view of the project, kept between rebuilds of `mkdocs serve`.

Plain Python: the MkDocs hook asks the session for the site, the findings, the rendered Markdown of a
post and the generated pages; the session re-parses only files that changed since the last build.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from .config import CONVENTIONS_FILE, Conventions, load_conventions
from .engine import lint
from .loader import load_site
from .model import SERIES_DIR, Finding, Post, Series, Site
from .render import Rendered, render_post


@dataclass
class Build:
    site: Site
    findings: list[Finding]
    include_drafts: bool
    by_path: dict[str, list[Finding]] = field(default_factory=dict)
    rendered: dict[str, Rendered] = field(default_factory=dict)
    matchers: dict = field(default_factory=dict)   # glossary matchers by series slug (serieskit/render.py)

    def published(self) -> list[Post]:
        return [p for p in self.site.posts if self.include_drafts or not p.is_draft]

    def page_findings(self, post: Post | None = None, series: Series | None = None, home: bool = False) -> list[Finding]:
        """What `mkdocs serve` shows on a page: a post's own findings; on a series index, those of the
        series' other files (manifest, glossary, symlinks, ...); on the home page, those of files
        outside every series folder. Info findings are left out."""
        if post is not None:
            found = self.by_path.get(post.rel, [])
        else:
            loose = [f for f in self.findings if f.path not in self.site.by_rel]
            if series is not None:
                prefix = f"{SERIES_DIR}/{series.slug}/"
                found = [f for f in loose if f.path.startswith(prefix) or f.path in (series.manifest_rel, series.glossary_rel)]
            elif home:
                taken = tuple(f"{SERIES_DIR}/{s}/" for s in self.site.series)
                glossaries = {s.glossary_rel for s in self.site.series.values()}
                found = [f for f in loose if not f.path.startswith(taken) and f.path not in glossaries]
            else:
                found = []
        return [f for f in found if f.severity != "info"]

    def render(self, post: Post) -> Rendered:
        r = self.rendered.get(post.rel)
        if r is None:
            r = self.rendered[post.rel] = render_post(post, self.site, self.include_drafts, self.matchers)
        return r


class Session:
    def __init__(self):
        self._site: Site | None = None
        self._conv: Conventions | None = None
        self._conv_stamp: tuple | None = None

    def conventions(self, root: Path) -> Conventions:
        path = root / CONVENTIONS_FILE
        try:
            st = path.stat()
            stamp = (str(path), st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = None
        if self._conv is None or stamp != self._conv_stamp:
            self._conv = load_conventions(path)
            self._conv_stamp = stamp
            self._site = None
        return self._conv

    def build(self, root: str | Path, include_drafts: bool, today: dt.date | None = None) -> Build:
        root = Path(root).resolve()
        conv = self.conventions(root)
        site = load_site(root, conv, today=today, previous=self._site)
        self._site = site
        findings = lint(site)
        b = Build(site, findings, include_drafts)
        for f in findings:
            b.by_path.setdefault(f.path, []).append(f)
        return b

