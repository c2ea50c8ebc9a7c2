"""What a post's page shows around its text, for any host: the data of its header (title, author,
dates, tags, series position, reading time) and of its previous / next links inside its series.

The page templates (overrides/partials/series-post-header.html and series-nav.html) print it: the
MkDocs adapter passes it as the template context's `series_post` (hooks/serieshooks/context.py); a host that
runs no plugins gets the same partials rendered into the page's source (serieskit/publish/sources.py).
Values are plain text: the templates escape them.
"""
from __future__ import annotations

from serieskit.markup import escape
from serieskit.model.site import Post
from serieskit.model.urls import tag_url, url_dir
from .project import Build


def post_info(b: Build, post: Post) -> dict:
    site = b.site
    s = site.series_of(post)
    st = post.stats(site.conv)
    info = {
        "title": post.title, "author": post.author or (s.author if s else ""),
        "date": post.date.isoformat() if post.date else "",
        "updated": post.updated.isoformat() if post.updated and post.updated != post.date else "",
        "tags": [{"name": t, "href": tag_url(t)} for t in post.tags],
        "chars": st.cjk_chars, "minutes": st.minutes, "draft": post.is_draft,
        "stale": b.render(post).stale_days,
    }
    if s is not None:
        number, places, published = site.series_number(post, b.include_drafts)
        info["series"] = {"title": s.title, "index_title": s.index_title, "href": url_dir(s.index_site_path),
                          "number": number, "places": places, "published": published}
        info.update(neighbours(b, post))
    return info


def neighbours(b: Build, post: Post) -> dict:
    """The posts before and after this one in its series (drafts only where the build shows them):
    `prev` / `next`, each with its title, its page (`url_dir`) and its number, or None."""
    seq = b.site.series_posts(post.series_slug, b.include_drafts)
    i = next((k for k, p in enumerate(seq) if p is post), None)

    def link(k: int):
        if i is None or not 0 <= k < len(seq):
            return None
        p = seq[k]
        return {"title": p.title, "href": p.url_dir, "number": p.order}
    return {"prev": link(i - 1 if i is not None else -1), "next": link(i + 1 if i is not None else -1)}


def page_meta(post: Post) -> dict:
    """The page metadata of a post's page. Themes print page metadata into HTML unescaped (to
    MkDocs, Material and Zensical a title is HTML: navigation, <title>, header, footer), so only
    escaped text from the frontmatter reaches them."""
    meta = {"title": _text(post.title), "tags": [_text(t) for t in post.tags]}
    if post.author:
        meta["author"] = _text(post.author)
    if post.summary:
        meta["description"] = _text(post.summary)
    if post.is_draft:
        meta["status"] = "draft"
    return meta


def _text(s: str) -> str:
    return str(escape(s))
