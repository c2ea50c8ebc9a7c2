"""What the site search knows about a page beyond its text (host-agnostic: no MkDocs here).

The search index (Pagefind, written by the host after the pages) reads a page's body and, from
these values, metadata it searches with a weight of its own: a glossary term, its English name,
abbreviation and aliases find the post the glossary names for the term first, even where another
post uses the term more often.
"""
from __future__ import annotations

from dataclasses import dataclass

from serieskit.model.site import Post, Site

# Ranking weights of the metadata fields, passed to the search engine in the browser
# (docs/assets/javascripts/search.js reads them from the page). Pagefind's default for `title` is 5.
META_WEIGHTS = {"title": 5.0, "terms": 8.0}


@dataclass(frozen=True)
class PageSearch:
    """Whether a page goes into the index, and its searchable metadata."""
    indexed: bool
    title: str = ""
    section: str = ""      # shown above the result's excerpt: the series, or the site's name
    terms: str = ""        # the glossary terms that name this post (comma separated)


NOT_INDEXED = PageSearch(indexed=False)


def glossary_terms(site: Site, post: Post) -> list[str]:
    """Every spelling of every glossary term whose `post:` is this post (term, English name,
    abbreviation, aliases), in glossary order, each once."""
    out: list[str] = []
    series = site.series_of(post)
    if series is None:
        return out
    for e in series.glossary:
        if e.post != post.slug:
            continue
        for w in (e.term, e.en, e.abbr, *e.aliases):
            w = (w or "").strip()
            if w and w not in out:
                out.append(w)
    return out


def post_search(site: Site, post: Post) -> PageSearch:
    """A post: its title, its series, and the glossary terms it is the post for. Drafts are never
    indexed (a draft is not on the published site; `mkdocs serve` writes no index)."""
    if post.is_draft:
        return NOT_INDEXED
    series = site.series_of(post)
    return PageSearch(indexed=True, title=post.title, section=series.title if series else "随笔",
                      terms=", ".join(glossary_terms(site, post)))


def page_search(title: str, section: str) -> PageSearch:
    """A hand-written page (about, performance, the writing rules)."""
    return PageSearch(indexed=True, title=title, section=section)
