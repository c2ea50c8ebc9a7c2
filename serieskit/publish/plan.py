"""The page plan: what a build publishes besides the host's own pages and what each page carries,
decided here once, for every host.

- `PagePlan.files`: the files the build adds to the host's own (docs/ and the theme): each post's
  page (its rendered Markdown; a draft's only where the build shows drafts), the files beside the
  posts that the publishing plan lets out (serieskit/model/assets.py: images, sanitized SVG), the
  generated pages of the page table (serieskit/model/pagetable.py; a page of the host's own with the
  same path wins), the palette stylesheet and the vendored KaTeX (and mermaid, when the drawing is
  left to the browser: serieskit/publish/vendor.py);
- `PagePlan.feeds` and `write_feeds`: the site's Atom feed and one per series, written once the
  pages are (they carry the posts' HTML);
- `PagePlan.page`: what a page carries besides its text: a post's page metadata, the link preview
  (serieskit/render/share.py), the search metadata (serieskit/publish/search_meta.py) and the series feed
  its head advertises;
- `theme_settings` and `BROWSER_SCRIPTS`: what the templates read from the site's settings, and the
  scripts the pages load when the drawing is left to the browser.

The MkDocs adapter (hooks/serieshooks/) hands these to MkDocs as `File`s, page metadata and the
template context; serieskit/publish/sources.py writes them as files for a host that runs no plugins
(Zensical: zensical_adapter/build.py). A host supplies its settings (`Host`) and what only it knows:
which paths its own pages take, a hand-written page's title and URL as it publishes them, the posts'
HTML for the feeds. What a build says about the conventions is decided once too, in
serieskit/lint/report.py.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from serieskit.model.pagetable import page_titles
from serieskit.model.site import Post, Series
from serieskit.model import urls
from serieskit.model.urls import feed_path
from serieskit.pipeline import page as post_page
from serieskit.pipeline.project import Build
from serieskit.render import pages, share
from serieskit.render.share import Share
from serieskit.render.theme import palette_css

from . import feed, search_meta
from .search_meta import META_WEIGHTS, PageSearch
from .vendor import vendor_files

DEFAULT_SITE_URL = "http://127.0.0.1:8000/"     # mkdocs.yml's default: the local preview
PALETTE_CSS = "assets/stylesheets/palette.css"
# What the pages load when the drawing is left to the reader's browser (SERIES_DRAW=browser): the site's
# own loaders (docs/assets/javascripts/) of the vendored renderers (serieskit/publish/vendor.py).
BROWSER_SCRIPTS = ("assets/javascripts/math.js", "assets/javascripts/mermaid-loader.js")


@dataclass
class Host:
    """What the plan needs from the host's configuration."""
    site_url: str
    site_name: str
    site_author: str = ""
    site_description: str = ""
    nav_titles: dict = field(default_factory=dict)   # a hand-written page -> its title in the nav (sources.py)
    draw_in_browser: bool = False     # the fallback (SERIES_DRAW=browser): serve the renderers too

    def __post_init__(self):
        self.site_url = self.site_url or DEFAULT_SITE_URL


@dataclass(frozen=True)
class SiteFile:
    """A file the build adds: its place among the site's sources, and its content (written by the
    engine) or the file to copy."""
    path: str
    content: str | bytes | None = None
    src: Path | None = None
    post: Post | None = None        # the post whose page this is
    draft: bool = False             # a draft's page: built only where the build shows drafts (`mkdocs serve`)


@dataclass(frozen=True)
class PageData:
    """What a page carries besides its text; the templates read it (overrides/main.html, partials/)."""
    meta: dict                          # page metadata (a post's title, tags, ...: serieskit/pipeline/page.py)
    share: Share | None                 # link preview
    search: PageSearch                  # whether the search indexes the page, and its metadata
    feed: dict | None                   # the series feed the page's head advertises: title, href


class PagePlan:
    """One build's plan. `taken(path)`: whether the host has a page of its own at that path (a page of
    docs/), which then wins over the generated page."""

    def __init__(self, b: Build, root: Path, host: Host, taken: Callable[[str], bool]):
        self.build, self.host = b, host
        site = b.site
        if site.assets.checked_only:
            raise ValueError("the site's asset plan holds the lint's verdicts, not sanitized files: "
                             "it cannot be published")
        self.posts = {p.site_path: p for p in site.posts}
        self.index_of = {s.index_site_path: s for s in site.series.values()}
        # each generated page's title as the navigation names it (render/pages.py `navigation`)
        self.generated_titles = page_titles(site.series)
        self.files: list[SiteFile] = [SiteFile(p.site_path, b.render(p).markdown, post=p, draft=p.is_draft)
                                      for p in site.posts]
        self.files += [SiteFile(a.site_path, a.data, None if a.data is not None else a.src)
                       for a in site.assets.published]
        self.generated: set[str] = set()
        own = {f.path for f in self.files}
        for path, content in pages.generated_pages(site, b.include_drafts, b.reuse).items():
            if path not in own and not taken(path):
                self.generated.add(path)
                self.files.append(SiteFile(path, content))
        self.files.append(SiteFile(PALETTE_CSS, palette_css(site.conv)))
        self.files += [SiteFile(dest, src=src) for src, dest in vendor_files(root, host.draw_in_browser)]
        # where each feed goes: the site's (`None`) and each series' (at the site's root: model.urls.feed_path)
        self.feeds: dict[str, Series | None] = {"feed.xml": None, **{feed_path(s): s for s in site.series.values()}}

    def post(self, path: str) -> Post | None:
        """The post whose page is at `path` (a site path such as `demo/first.md`)."""
        return self.posts.get(path)

    @staticmethod
    def is_home(path: str) -> bool:
        """The page at `path` is the site's home page (served at the site's root)."""
        return urls.url_dir(path) == ""

    def page_markdown(self, path: str, markdown: str) -> str:
        """The Markdown a host converts for the hand-written page at `path` (a page of docs/): its
        lists (the home page's latest posts and series cards) filled in at their placeholders."""
        b = self.build
        return pages.fill_placeholders(markdown, b.site, path, b.include_drafts)

    def page(self, path: str, title: str = "", url: str = "") -> PageData:
        """What the page at `path` carries. `title` and `url`: a page's title and canonical URL as the
        host publishes them (read for pages that are neither posts nor generated)."""
        b, h, site = self.build, self.host, self.build.site
        post = self.posts.get(path)
        if post is not None:
            return PageData(post_page.page_meta(post),
                            share.post_share(site, post, h.site_url, h.site_name, h.site_author),
                            search_meta.post_search(site, post), self.series_feed(site.series_of(post)))
        series = self.index_of.get(path)
        home = self.is_home(path)
        title = (self.generated_titles.get(path) or title) if path in self.generated else title
        title = title or h.site_name
        if series is not None:
            card = share.series_share(site, series, h.site_url, h.site_name, b.include_drafts)
        elif home:
            card = share.home_share(site, h.site_url, h.site_name, h.site_description, h.site_author, b.include_drafts)
        else:
            card = share.page_share(title, h.site_description, url or urls.absolute(h.site_url, urls.url_dir(path)),
                                    h.site_url, h.site_name)
        # the search indexes the posts and the hand-written pages: not the home page, not the generated lists
        search = search_meta.NOT_INDEXED if home or path in self.generated else search_meta.page_search(title, h.site_name)
        return PageData({}, card, search, self.series_feed(series))

    def series_feed(self, series: Series | None) -> dict | None:
        return {"title": feed.feed_title(series, self.host.site_name), "href": feed_path(series)} if series else None

    def write_feeds(self, site_dir: Path, contents: dict[str, str]) -> None:
        """The feeds, with the posts' full content (`contents`: each post's HTML by `Post.rel`)."""
        h, b = self.host, self.build

        def entry_html(content: str, url: str) -> str:
            # a post's HTML made a feed's once, for the site's feed and its series', and under `mkdocs
            # serve` only when it changed since the last build
            return b.reuse(("feed", url, content), lambda: feed.feed_html(content, url))
        for uri, series in self.feeds.items():
            text = feed.atom(b.site, h.site_url, h.site_name, h.site_author, contents, series=series,
                             entry_html=entry_html)
            (site_dir / uri).write_text(text, encoding="utf-8")


def theme_settings(serving: bool, browser: bool) -> dict:
    """What the site's templates read from the settings (`extra`) besides mkdocs.yml's own: the search
    box's (overrides/partials/series-search.html: `mkdocs serve` writes no index; the metadata's
    weights) and whether the drawing is left to the browser (overrides/main.html)."""
    return {"series_draw": {"browser": browser}, "series_search": {"serve": serving, "weights": META_WEIGHTS}}
