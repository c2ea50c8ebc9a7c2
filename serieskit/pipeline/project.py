"""One build's view of the project, kept between rebuilds of `mkdocs serve`.

Plain Python: the MkDocs hook asks the project (`Project`) for the site, the findings, the rendered Markdown of a
post and the generated pages; the project re-parses only files that changed since the last build.
"""
from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from serieskit.conventions import CONVENTIONS_FILE, Conventions, load_conventions
from serieskit.lint.engine import lint
from serieskit.model.loader import load_site
from serieskit.model.site import SERIES_DIR, Finding, Post, Series, Site
from serieskit.render.post import Rendered, render_post


@dataclass
class Build:
    site: Site
    findings: list[Finding]
    include_drafts: bool
    by_path: dict[str, list[Finding]] = field(default_factory=dict)
    rendered: dict[str, Rendered] = field(default_factory=dict)
    matchers: dict = field(default_factory=dict)   # glossary matchers by series slug (serieskit/render/post.py)
    # what the last build of this process made (key -> value: renderings, feed entries, pages), what
    # this build made or took from it (the next build's `earlier`), and this build's part of a
    # rendering's key
    earlier: dict = field(default_factory=dict)
    used: dict = field(default_factory=dict)
    inputs: str = ""

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
        """The post's Markdown for the site, rendered once per build; under `mkdocs serve`, a post whose
        text and whose site inputs (`render_inputs`) did not change since the last build is not
        rendered again."""
        r = self.rendered.get(post.rel)
        if r is None:
            r = self.rendered[post.rel] = self.reuse(
                ("post", self.inputs, post.rel, post.text),
                lambda: render_post(post, self.site, self.include_drafts, self.matchers))
        return r

    def reuse(self, key: tuple, make):
        """`make()`, or what it gave in the last build of this process (`mkdocs serve` builds again
        after each change) under the same `key`, which must hold every input `make` reads."""
        try:
            value = self.used[key]
        except KeyError:
            value = self.earlier.get(key)
            if value is None:
                value = make()
            self.used[key] = value
        return value


def render_inputs(site: Site, include_drafts: bool) -> str:
    """Everything of the site that rendering one post reads besides the post itself: the conventions,
    each series' manifest and glossary, every post's place (path, slug, title, series, order, draft),
    the site's other pages and files, and the date (staleness)."""
    h = hashlib.sha256()
    for part in (site.conv.fingerprint, site.today.isoformat(), str(include_drafts),
                 repr(sorted(site.pages)), repr(sorted(site.site_files))):
        h.update(part.encode("utf-8", "surrogatepass") + b"\0")
    for slug, ser in sorted(site.series.items()):
        h.update(repr((slug, ser.title, ser.index_title, ser.description, ser.author, ser.standing_examples,
                       ser.stale_after_days, ser.timely, ser.planned, ser.rules, ser.glossary)).encode("utf-8", "surrogatepass"))
    for p in site.posts:
        h.update(repr((p.rel, p.slug, p.title, p.short_title, p.series_slug, p.order, p.is_draft, p.url_dir,
                       p.site_path, p.date, p.updated)).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


class Project:
    """The project as successive builds of one process see it (one for `mkdocs build`, one per change
    for `mkdocs serve`, one per edit in the editor): conventions and parsed posts are kept and read
    again only when their files changed; `build()` makes each build's `Build`."""

    def __init__(self):
        self._site: Site | None = None
        self._conv: Conventions | None = None
        self._conv_stamp: tuple | None = None
        self._made: dict = {}         # what the last build made (Build.reuse), for the next one

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
        b = Build(site, findings, include_drafts, earlier=self._made, inputs=render_inputs(site, include_drafts))
        self._made = b.used           # what this build made is what the next one may reuse
        for f in findings:
            b.by_path.setdefault(f.path, []).append(f)
        return b

