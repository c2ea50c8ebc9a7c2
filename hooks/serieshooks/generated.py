"""The files the build adds to MkDocs' own (on_files): the posts of series/ and the files beside
them that the engine's publishing plan lets out (serieskit/model/assets.py: images, sanitized SVG), the
generated pages of the page table (serieskit/model/pagetable.py), the palette stylesheet, the feeds, and
mermaid and KaTeX from node_modules (no CDN). All through the public `File.generated`.

Drafts are pages with `InclusionLevel.DRAFT`: MkDocs builds them for `mkdocs serve` and leaves them
out of `mkdocs build`.
"""
from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel

from serieskit.publish import feed, vendor
from serieskit.render import pages
from serieskit.render.theme import palette_css

from .state import BuildState

def add_files(files: Files, config, state: BuildState, root: Path) -> Files:
    b = state.build
    for post in b.site.posts:
        inclusion = InclusionLevel.DRAFT if post.is_draft else InclusionLevel.UNDEFINED
        f = File.generated(config, post.site_path, content=b.render(post).markdown, inclusion=inclusion)
        f.dest_uri = f"{post.url_dir}index.html"
        files.append(f)
        state.posts_by_src[f.src_uri] = post
    for asset in b.site.assets.published:       # what serieskit/model/assets.py lets out of series/
        if asset.data is not None:                # a sanitized SVG
            files.append(File.generated(config, asset.site_path, content=asset.data))
        else:
            files.append(File.generated(config, asset.site_path, abs_src_path=str(asset.src)))
    for uri, content in pages.generated_pages(b.site, b.include_drafts).items():
        if files.get_file_from_path(uri) is None:   # a page of docs/ with the same path wins
            files.append(File.generated(config, uri, content=content))
    files.append(File.generated(config, "assets/stylesheets/palette.css", content=palette_css(b.site.conv)))
    # The feeds carry the posts' rendered HTML, so they are written once the pages are (write_feeds);
    # they are site files from here on, so links to them validate.
    for uri in feed_uris(b.site):
        files.append(File.generated(config, uri, content=""))
    for f in vendor_files(config, root, config.extra.get("series_draw", {}).get("browser", False)):
        files.append(f)
    return files


def vendor_files(config, root: Path, browser: bool) -> list[File]:
    try:
        found = vendor.vendor_files(root, browser)
    except vendor.VendorMissing as exc:
        raise PluginError(str(exc)) from None
    return [File.generated(config, dest, abs_src_path=str(src)) for src, dest in found]


def feed_uris(site) -> dict:
    """Where each feed goes: the site's (`None`) and each series' (its index folder)."""
    return {"feed.xml": None, **{feed.feed_path(s): s for s in site.series.values()}}


def write_feeds(config, state: BuildState) -> None:
    """The site's Atom feed and one per series, with the posts' full content (serieskit/publish/feed.py)."""
    site_dir, url = Path(config.site_dir), config.site_url or "http://127.0.0.1:8000/"
    converted: dict[str, str] = {}      # a post's HTML made a feed's once, for the site's feed and its series'
    for uri, series in feed_uris(state.build.site).items():
        text = feed.atom(state.build.site, url, config.site_name, config.site_author or "", state.contents,
                         series=series, converted=converted)
        (site_dir / uri).write_text(text, encoding="utf-8")
