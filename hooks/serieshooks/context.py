"""What the templates get: page metadata for Material, and the site's own data in the template
context (overrides/main.html and partials/series-*.html): the post header (`series_post`), the serve
findings box (`series_findings`), link previews (`series_share`), search (`series_search`), the
series feed (`series_feed`). All of it comes from the engine (the page plan, serieskit/publish/plan.py,
which the Zensical build writes into the pages' frontmatter instead), read here, nowhere else.
"""
from __future__ import annotations

from pathlib import Path

from serieskit.pipeline import page as post_page
from serieskit.markup import Markup

from .state import BuildState, Process


def page_markdown(markdown: str, page, state: BuildState) -> str:
    """A post's frontmatter as page metadata; the home page's lists."""
    src = page.file.src_uri
    if state.plan.post(src) is not None:
        page.meta = state.plan.page(src).meta
        return markdown
    return state.plan.page_markdown(src, markdown)


def page_context(context: dict, page, config, process: Process) -> dict:
    """The page's plan (serieskit/publish/plan.py) as the template context; the post header; the
    findings box of `mkdocs serve`."""
    state = process.current
    b, src = state.build, page.file.src_uri
    post = state.plan.post(src)
    # MkDocs' page titles are HTML (escaped text from the engine): the plan takes plain text
    data = state.plan.page(src, Markup(page.title or "").striptags(), page.canonical_url or "")
    context["series_post"] = _post_info(state, post, page) if post is not None else None
    if process.serving:
        context["series_findings"] = (b.page_findings(post, state.plan.index_of.get(src), home=state.plan.is_home(src))
                                      + state.render_errors.get(src, []))
    else:
        context["series_findings"] = []
    context["series_share"] = data.share
    context["series_search"] = data.search
    context["series_feed"] = data.feed
    return context


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
    post = state.plan.post(page.file.src_uri)
    if post is not None:
        return post.rel
    if page.file.generated_by:
        return page.file.src_uri   # a generated page (tags, archive, series index)
    docs = Path(config.docs_dir).resolve()
    try:
        return (docs / page.file.src_uri).relative_to(Path(config.config_file_path).resolve().parent).as_posix()
    except ValueError:
        return page.file.src_uri
