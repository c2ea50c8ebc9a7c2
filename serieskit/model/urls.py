"""The site's URLs and paths, in one place: where a page is served and which file it is written to,
the links between pages, a tag's anchor, a series' feed, and absolute URLs from the site's URL.

Four kinds of address appear here:

- a site path: a page's source in the built site's source tree (`train-infer-accel/x.md`,
  `tags.md`, `train-infer-accel/index.md`), as the model keeps it (`Post.site_path`) and as a
  Markdown link names a page (the host resolves it and checks that it exists);
- a page URL, relative to the site's root, as a folder (`train-infer-accel/x/`, `tags/`, and ``
  for the home page): the site uses directory URLs;
- a page file: what the host writes for a page URL (`train-infer-accel/x/index.html`);
- an absolute URL: the site's URL (`SITE_URL`) joined with a page URL or a file's site path (link
  previews, feeds).
"""
from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .site import Series


def page_dest(site_path: str) -> str:
    """Where a page (`a/b.md`) is written: `a/b/index.html`."""
    stem = site_path[:-3]
    stem = stem[:-5] if stem == "index" or stem.endswith("/index") else stem + "/"
    return stem + "index.html"


def link_from(page_site_path: str, target_site_path: str) -> str:
    """The relative link from a page of the site to another (both as paths of the built site)."""
    return posixpath.relpath(target_site_path, posixpath.dirname(page_site_path) or ".")


def feed_path(series: Series) -> str:
    """A series' feed: `feed-train-infer-accel.xml`, at the site's root. Material's instant navigation
    fetches `sitemap.xml` next to every `<link rel="alternate">` of a page (it takes them for language
    versions), so a feed in another folder would cost each page a request that fails."""
    return f"feed-{series.index_site_path.rsplit('/', 1)[0]}.xml"
