"""What the templates get: page metadata for Material, and the site's own data in the template
context (overrides/main.html and partials/series-*.html): the post header (`series_post`), the serve
findings box (`series_findings`), link previews (`series_share`), search (`series_search`), the
series feed (`series_feed`). All of it comes from the engine (serieskit), read here, nowhere else.
"""
from __future__ import annotations

from pathlib import Path

from serieskit.publish import feed, search_meta
from serieskit.render import pages, share
from serieskit.pipeline import page as post_page
from serieskit.markup import Markup

from .state import BuildState, Process


def page_markdown(markdown: str, page, state: BuildState) -> str:
    """A post's frontmatter as page metadata; the home page's lists."""
    post = state.posts_by_src.get(page.file.src_uri)
    b = state.build
    if post is not None:
        page.meta = post_page.page_meta(post)
        return markdown
    return pages.fill_placeholders(markdown, b.site, page.file.src_uri, b.include_drafts)


def page_context(context: dict, page, config, session: Process) -> dict:
    state = session.current
    b = state.build
    post = state.posts_by_src.get(page.file.src_uri)
    index_of = next((s for s in b.site.series.values() if page.file.src_uri == s.index_site_path), None)
    context["series_post"] = _post_info(state, post, page) if post is not None else None
    if session.serving:
        context["series_findings"] = (b.page_findings(post, index_of, home=page.file.src_uri == "index.md")
                                      + state.render_errors.get(page.file.src_uri, []))
    else:
        context["series_findings"] = []
    context["series_share"] = _share(b, post, index_of, page, config)
    context["series_search"] = _search(b, post, page, config)
    series = b.site.series_of(post) if post is not None else index_of
    context["series_feed"] = ({"title": feed.feed_title(series, config.site_name), "href": feed.feed_path(series)}
                              if series is not None else None)
    return context


def _share(b, post, series, page, config) -> share.Share:
    """Link-preview metadata of the page (serieskit/render/share.py; written by overrides/partials/series-share.html)."""
    site, url = b.site, config.site_url or "http://127.0.0.1:8000/"
    if post is not None:
        return share.post_share(site, post, url, config.site_name, config.site_author or "")
    if series is not None:
        return share.series_share(site, series, url, config.site_name, b.include_drafts)
    if page.is_homepage:
        return share.home_share(site, url, config.site_name, config.site_description or "",
                                config.site_author or "", b.include_drafts)
    title = Markup(page.title or config.site_name).striptags()
    return share.page_share(title, config.site_description or "", page.canonical_url or url, url, config.site_name)


def _search(b, post, page, config) -> search_meta.PageSearch:
    """Whether the page goes into the search index (overrides/main.html marks its body), and its
    searchable metadata: posts and hand-written pages; not the generated lists nor the home page."""
    if post is not None:
        return search_meta.post_search(b.site, post)
    if page.is_homepage or page.file.generated_by:
        return search_meta.NOT_INDEXED
    title = Markup(page.title or config.site_name).striptags()
    return search_meta.page_search(title, config.site_name)


def _post_info(state: BuildState, post, page) -> dict:
    # the post's HTML as the site renders it (a draft's, without MkDocs' own DRAFT marker: the post
    # header shows the site's 草稿 badge)
    return {**post_page.post_info(state.build, post), "content": page.content}


def source_text(page, post) -> str:
    """The text an author edits for this page (the post's file, the docs page, a generated page's
    Markdown): where a finding of the converted page is looked for."""
    if post is not None:
        return "\n".join(post.lines)
    return page.markdown or ""


def source_name(page, state: BuildState, config) -> str:
    """The file an author edits for this page, relative to the project root."""
    post = state.posts_by_src.get(page.file.src_uri)
    if post is not None:
        return post.rel
    if page.file.generated_by:
        return page.file.src_uri   # a generated page (tags, archive, series index)
    docs = Path(config.docs_dir).resolve()
    try:
        return (docs / page.file.src_uri).relative_to(Path(config.config_file_path).resolve().parent).as_posix()
    except ValueError:
        return page.file.src_uri
