"""The files the build adds to MkDocs' own (on_files), as the engine's page plan lists them
(serieskit/publish/plan.py: the posts, the files beside them that the publishing plan lets out, the
generated pages, the palette stylesheet, the vendored KaTeX and mermaid, the feeds), each through the
public `File.generated`; the feeds are written once the pages are (on_post_build).

Drafts are pages with `InclusionLevel.DRAFT`: MkDocs builds them for `mkdocs serve` and leaves them
out of `mkdocs build`.
"""
from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel

from serieskit.model.urls import page_file
from serieskit.publish.plan import Host, PagePlan
from serieskit.publish.vendor import VendorMissing

from .state import BuildState


def add_files(files: Files, config, state: BuildState, root: Path) -> Files:
    host = Host(config.site_url or "", config.site_name, config.site_author or "", config.site_description or "",
                draw_in_browser=config.extra["series_draw"]["browser"])
    try:   # a page of docs/ with a generated page's path wins
        plan = state.plan = PagePlan(state.build, root, host, lambda path: files.get_file_from_path(path) is not None)
    except VendorMissing as exc:
        raise PluginError(str(exc)) from None
    for f in plan.files:
        inclusion = InclusionLevel.DRAFT if f.draft else InclusionLevel.UNDEFINED
        if f.src is not None:
            files.append(File.generated(config, f.path, abs_src_path=str(f.src), inclusion=inclusion))
            continue
        page = File.generated(config, f.path, content=f.content, inclusion=inclusion)
        if f.post is not None:
            page.dest_uri = page_file(f.post.url_dir)
        files.append(page)
    # The feeds carry the posts' rendered HTML, so they are written once the pages are (write_feeds);
    # they are site files from here on, so links to them validate.
    for uri in plan.feeds:
        files.append(File.generated(config, uri, content=""))
    return files


def write_feeds(config, state: BuildState) -> None:
    """The site's Atom feed and one per series, with the posts' full content (serieskit/publish/feed.py)."""
    state.plan.write_feeds(Path(config.site_dir), state.contents)
