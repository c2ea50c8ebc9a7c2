"""The MkDocs adapter of the series site: MkDocs' events, each handed to the module of its concern.
The convention engine (serieskit/) does the work and imports no MkDocs; this folder only adapts it.

    state.py        a Process per process, a BuildState per build: the only state kept
    gate.py         convention findings to MkDocs' log; the strict gate
    generated.py    the files of the engine's page plan (serieskit/publish/plan.py): posts, images, generated
                    pages, palette, vendored KaTeX / mermaid, feeds
    navigation.py   mkdocs.yml's nav with the series in place of its "@series" entry; prev / next
    context.py      the plan's page metadata and template context (share, search, feed); post header, findings box
    search.py       the Pagefind index (serieskit/publish/searchindex.py), written after the pages (`mkdocs build` only)
    drawing.py      the build's drawer of diagrams and formulas (serieskit/publish/draw/), one per process
    serve_cache.py  `mkdocs serve` converts again only what an edit touched
    speedups.py     the switch (SERIES_SPEEDUPS) of the serve memo and of gc.freeze (their figures: the 性能 page)
    upstream.py     every reliance on MkDocs' and Material's internals and copied partials, with the reason
                    (pinned by tests/test_upstream.py)

The engine's host-neutral parts live in serieskit/ (the page plan: serieskit/publish/plan.py; the policy:
serieskit/publish/csp.py; the index: serieskit/publish/searchindex.py), so another host can use them too.
The speed-ups are on unless SERIES_SPEEDUPS=0 (hooks/serieshooks/speedups.py).
"""
from __future__ import annotations

import sys
from pathlib import Path

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from serieskit.publish import mdext, outputgate, plan  # noqa: E402
from serieskit.lint import report  # noqa: E402
from serieskit.conventions import ConfigError  # noqa: E402
from serieskit.publish.draw import Unavailable  # noqa: E402

from serieskit.publish import csp  # noqa: E402

# hooks/ is on sys.path only while MkDocs imports this file: the adapter's package is imported here.
from serieshooks import context, drawing, gate, generated, navigation, search, speedups, upstream  # noqa: E402
from serieshooks.state import BuildState, Process  # noqa: E402

# The one state object, for the life of the process (one build, or one serve session of many).
process = Process()


def _root(config) -> Path:
    return Path(config.config_file_path).resolve().parent


def on_startup(command, dirty=False):
    process.start(command)


def on_config(config):
    """Load and lint the project (the engine re-parses only what changed since the last build); the
    drawer of diagrams and formulas (kept across serve rebuilds)."""
    speedups.start_build()
    try:
        drawing.start(process, config, _root(config), gate.log)
    except Unavailable as exc:
        raise PluginError(str(exc)) from None
    try:
        build = process.project.build(_root(config), process.include_drafts)
    except ConfigError as exc:
        raise PluginError(report.problem(exc.path, exc.line, exc.message))
    state = process.current = BuildState(build)
    gate.watch(bool(config.strict))
    gate.report(state, bool(config.strict))
    navigation.expand(config, state)
    config.extra.update(plan.theme_settings(process.serving, drawing.in_browser(process)))
    if process.serve_cache is not None:
        process.serve_cache.start_build(config)
    return config


def on_files(files, config):
    return generated.add_files(files, config, process.current, _root(config))


def on_nav(nav, config, files):
    navigation.series_order(nav, files, process.current)
    speedups.pages_about_to_render()
    return nav


def on_env(env, config, files):
    state = process.current
    if process.serve_cache is not None:
        # before any template is loaded (the CSP below loads the theme's): Jinja leaves a bytecode cache
        # set after loading undefined
        env.bytecode_cache = process.serve_cache.bytecode
    try:
        state.allowed = set(csp.theme_scripts(env, config).values())
    except RuntimeError as exc:
        raise PluginError(str(exc))
    state.policy = csp.policy(state.allowed)
    return env


def on_page_markdown(markdown, page, config, files):
    state = process.current

    def failed(message, finding):
        gate.error(state, message)
        state.render_errors[page.file.src_uri] = [finding]

    upstream.wrap_render(page, context.source_name(page, state, config), failed, process.serve_cache)
    return context.page_markdown(markdown, page, state)


def on_page_content(output, page, config, files):
    """What the output gate removed from the page and what could not be drawn (serieskit/publish/mdext.py,
    listed in mkdocs.yml, did both during the conversion): errors naming the source file's lines. A
    post's HTML, for the feeds."""
    state = process.current
    post = state.plan.post(page.file.src_uri)
    found = outputgate.switched(outputgate.from_report(context.source_name(page, state, config),
                                                       context.source_text(page, post), mdext.take_report()),
                                state.build.site.conv)
    gate.say(state, report.page_messages(found))
    if found:
        state.render_errors.setdefault(page.file.src_uri, []).extend(found)
    if post is not None:
        state.contents[post.rel] = output
    return output


def on_page_context(ctx, page, config, nav):
    return context.page_context(ctx, page, config, process)


def on_post_template(output, template_name, config):
    return _with_csp(output, template_name)


def on_post_page(output, page, config):
    return _with_csp(output, context.source_name(page, process.current, config))


def _with_csp(output: str, where: str) -> str:
    """Fill the page's CSP meta tag; an inline script the policy does not know is an SEC001 error."""
    state = process.current
    output, unknown = csp.fill(output, state.allowed, state.policy)
    gate.say(state, [report.policy_error(where, start) for start in unknown])
    return output


def on_post_build(config):
    """`_headers` carries the site's policy; the feeds; the search index (`mkdocs build`); the strict gate."""
    state = process.current
    site_dir = Path(config.site_dir)
    indexing = None
    if not process.serving and (not state.errors or not config.strict):
        indexing = search.start(site_dir)        # beside the steps below (serieshooks/search.py)
    try:
        (site_dir / "_headers").write_text(csp.headers(state.policy), encoding="utf-8")
        generated.write_feeds(config, state)
        if process.serve_cache is not None:
            process.serve_cache.end_build()
    except BaseException:
        if indexing is not None:         # the build stops for this: the index waited for, its result not reported
            search.finish(indexing, gate.log, report=False)
        raise
    if indexing is not None:
        search.finish(indexing, gate.log, report=not (state.errors and config.strict))
    drawing.end_build(process, gate.log)
    gate.check(state, config.strict)


def on_shutdown():
    drawing.close(process)


def on_serve(server, config, builder):
    """The live-reload script `mkdocs serve` adds to each page is allowed by that page's policy."""
    upstream.wrap_livereload(server, lambda: process.current.allowed, gate.log)
    return server
