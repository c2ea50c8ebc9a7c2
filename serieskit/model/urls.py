"""The site's URLs and paths, in one place: where a page is served and which file it is written to,
the links between pages, a tag's and a rule's anchor, a series' feed, and absolute URLs from the site's URL.

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

import hashlib
import posixpath
import re
from typing import TYPE_CHECKING
from urllib.parse import quote, urljoin

from .pagetable import RULES_PAGE

if TYPE_CHECKING:
    from .site import Series

SPACES = re.compile(r"\s+")


def url_dir(site_path: str) -> str:
    """A page's URL relative to the site root: `a/index.md` -> `a/`, `a/b.md` -> `a/b/`, `index.md` -> ``."""
    stem = site_path[:-3] if site_path.endswith(".md") else site_path
    if stem == "index" or stem.endswith("/index"):
        stem = stem[:-5]
    return stem if not stem or stem.endswith("/") else stem + "/"


def post_url(area: str, slug: str) -> str:
    """A post's URL relative to the site root: `<area>/<slug>/`, from its folder under series/ and its
    slug (the frontmatter's `slug:`, else the file's name), so not always `url_dir` of its site path."""
    return f"{area}/{slug}/" if area else f"{slug}/"


def page_file(url: str) -> str:
    """The file a page URL is written to: `a/b/` -> `a/b/index.html`, `` (the home page) -> `index.html`."""
    return url + "index.html"


def page_dest(site_path: str) -> str:
    """Where a page (`a/b.md`) is written: `a/b/index.html`; `a/index.md` and `index.md` at their
    folder's URL. A post is written at its own URL instead, which follows its slug:
    `page_file(post.url_dir)`."""
    return page_file(url_dir(site_path))


def link_from(page_site_path: str, target_site_path: str) -> str:
    """The relative link from a page of the site to another (both as paths of the built site).
    Between site paths (`a/b.md` to `c/d.md`: `../c/d.md`), not URLs: a Markdown link, which the host
    resolves to the target page's URL and checks."""
    return posixpath.relpath(target_site_path, posixpath.dirname(page_site_path) or ".")


def href(from_url: str, to_url: str) -> str:
    """The relative URL between two pages given by their URLs (`url_dir`, `Post.url_dir`). For the
    raw HTML the generated pages write (no host rewrites it): percent-encoded, and always a folder
    URL, the home page's too (`../`); `relative_url` does neither."""
    rel = posixpath.relpath(to_url or ".", from_url or ".")
    return "./" if rel == "." else quote(rel, safe="/-._~") + "/"


def relative_url(target: str, page_dir: str) -> str:
    """`target` (a site path such as `train-infer-accel/` or `tags/#x`) as a relative link from the
    folder `page_dir` (such as `train-infer-accel`). As MkDocs' `url` template filter writes it, so
    that the post partials read the same on both hosts (serieskit/publish/sources.py renders them for
    Zensical): a fragment is kept, nothing is percent-encoded (a link written encoded already is
    rebased as it is), and a trailing slash only where the target has one (the home page, ``, is
    `..`, where `href` writes `../`)."""
    path, _, frag = target.partition("#")
    rel = posixpath.relpath(path or ".", page_dir or ".")
    if path.endswith("/") and not rel.endswith("/"):
        rel += "/"
    return rel + (f"#{frag}" if frag else "")


def tag_anchor(tag: str) -> str:
    """`tag-<tag>` with runs of anything but letters, digits and `-` made `-` (plus a short hash
    when that changed more than spaces, so that `C++` and `C#` stay apart)."""
    plain = SPACES.sub("-", tag.strip())
    safe = re.sub(r"[^\w-]+", "-", plain).strip("-")
    if safe != plain:
        safe = f"{safe}-{hashlib.sha1(tag.strip().encode('utf-8')).hexdigest()[:6]}".lstrip("-")
    return "tag-" + safe


def tag_fragment(tag: str) -> str:
    """The tag's anchor as a URL's fragment (after the `#`)."""
    return quote(tag_anchor(tag))


def tag_url(tag: str) -> str:
    """The tag's place on the tags page, relative to the site root."""
    return f"tags/#{tag_fragment(tag)}"


def rule_anchor(code: str) -> str:
    """A rule's anchor on the rules page (serieskit/render/pages.py `rules_page`): `FIG002` -> `fig002`."""
    return code.lower()


def feed_path(series: Series) -> str:
    """A series' feed: `feed-train-infer-accel.xml`, at the site's root. Material's instant navigation
    fetches `sitemap.xml` next to every `<link rel="alternate">` of a page (it takes them for language
    versions), so a feed in another folder would cost each page a request that fails."""
    return f"feed-{series.index_site_path.rsplit('/', 1)[0]}.xml"


def base_url(site_url: str) -> str:
    """The site's URL as a folder (`https://x.org/blog` -> `https://x.org/blog/`): what page URLs join."""
    return site_url if site_url.endswith("/") else site_url + "/"


def absolute(site_url: str, site_path: str) -> str:
    """A page URL or a file's site path as an absolute URL, percent-encoded (`/`, `#` and `-._~` kept):
    the link previews' URLs (serieskit/render/share.py), valid whatever the file and folder names."""
    return urljoin(base_url(site_url), quote(site_path, safe="/-._~#"))


def rules_url(site_url: str) -> str:
    """The rules page (写作规范, serieskit/model/pagetable.py `RULES_PAGE`) as an absolute URL; a rule's
    place on it is `rules_url(...) + "#" + rule_anchor(code)`."""
    return absolute(site_url, url_dir(RULES_PAGE))
