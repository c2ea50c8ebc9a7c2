"""The adapter's reliances on MkDocs and Material internals, all of them, in one place (tests/test_upstream.py pins
each, so that an upgrade that changes one fails loudly, not silently).

1. `LiveReloadServer._inject_js_into_html(content, epoch)` (`wrap_livereload`): `mkdocs serve` adds
   its live-reload script inline to every page it serves, and no public hook sees served responses.
   The page's Content-Security-Policy must allow exactly that script, or the preview never reloads.
2. `Page.render(config, files)` replaced on each page (`wrap_render`):
   - always: when Python-Markdown itself crashes on a page (a RecursionError deep in its block
     parser, ...), the build logs the file as an error (SPEC002; a strict build fails naming it) and
     renders a note instead, so one page never takes down the build's other messages or `mkdocs
     serve` (MkDocs lets the exception end the build; no event runs between conversion and that);
   - with the speed-ups on (SERIES_SPEEDUPS, hooks/serieshooks/speedups.py), under `mkdocs serve` only: the memo of
     hooks/serieshooks/serve_cache.py, which restores what a conversion leaves on the page, including the private
     `Page._title_from_render`, and replays the conversion's log records (so `--strict` counts them),
     and the output gate's report of the page (serieskit/publish/mdext.py).

Reliances that are not code here but that the adapter's behaviour depends on, each with its pin:

3. Copied Material templates: `overrides/partials/header.html` is Material's header with the search
   block swapped (pin: test_the_header_override_is_materials_header_but_for_the_search_block);
   `overrides/partials/progress.html` is Material's progress bar (navigation.instant.progress) with
   `role="progressbar"` replaced by `aria-hidden="true"`: Material gives assistive technology neither
   a name nor a value for the bar, so it is drawing only (a screen reader hears the new page when it
   arrives) (pin: test_the_progress_override_is_materials_progress_bar_but_for_its_role; that no other
   Material partial is overridden unpinned: test_every_material_partial_the_site_overrides_is_pinned);
   and the CSP hashes the theme's inline scripts from the partials Material ships
   (pin: test_the_themes_inline_script_partials_are_where_the_policy_reads_them).
4. `Page.previous_page` / `Page.next_page` set in on_nav (hooks/serieshooks/navigation.py): MkDocs documents them
   as attributes of a page, not as settable; Material's footer reads them (pin: tests/test_site.py
   test_materials_footer_takes_the_series_neighbours_from_on_nav).
5. The strict gate (hooks/serieshooks/gate.py): `mkdocs build -q` sets the `mkdocs` logger to ERROR, which would drop
   the warnings that `--strict` counts; in strict mode the gate sets it back to WARNING (pin:
   tests/test_strict_gate.py).
6. The serve memo's restore set (2.: `_memoised` here, the memo in hooks/serieshooks/serve_cache.py): what
   `Page.render` leaves on a `Page` (`content`, `toc`, `_title_from_render`, `present_anchor_ids`,
   `links_to_anchors`), with the conversion's log records and the output gate's report
   (serieskit/publish/mdext.py). Not `meta`: MkDocs reads it from the frontmatter before the
   conversion (`Page.read_source`), so a hit finds it as a miss does (pin:
   test_page_render_is_what_the_render_wrapper_replaces_and_restores and tests/test_serve_incremental.py).
7. The serve memo's Jinja bytecode cache (hooks/series.py on_env, under `mkdocs serve` with the
   speed-ups on): a serve rebuild does not compile the theme's templates again
   (hooks/serieshooks/serve_cache.py; the 性能 page, docs/performance.md 预览刷新, counts it among the
   in-process caches that take `bench_serve.py --quick` from 2.35 s to 1.32 s). Jinja takes
   `bytecode_cache` as an argument of the `Environment` it builds; MkDocs builds it without one
   (`Theme.get_env`) and hands it to plugins first in on_env, so the hook sets the attribute there.
   A template loaded before that stays in `env.cache` and never goes through the bytecode cache:
   relied on is that MkDocs, with the site's theme and plugins (hooks run after them), loads no
   template before on_env (pin: test_no_template_is_loaded_before_on_env).

The Zensical adapter (zensical_adapter/, beside hooks/) has its own, listed in
zensical_adapter/upstream.py: Material's stylesheet found by glob
(`templates/assets/stylesheets/main.*.min.css`, for the search box's rules), Zensical's template
layout and its log format, the Markdown it hands Python-Markdown (without the frontmatter), the name
of its search index, the `</article>` that closes a page's content, and its own partials that the
site's copies of Material's replace (pins: tests/test_zensical.py, tests/test_upstream.py).

Outside this adapter, two reliances on Material's front end, shared by both hosts:

- `overrides/partials/series-stylesheets.html` makes the stylesheets' addresses absolute at the end of
  <head>: Material's instant navigation makes every relative address absolute as its script starts
  (`resolve` in integrations/instant/index.ts), and a stylesheet whose address changes is loaded again
  and the whole page restyled and laid out after it was drawn (pins: tests/test_upstream.py
  test_materials_instant_navigation_still_makes_relative_addresses_absolute, which reads Material's
  bundle through its source map; Zensical's bundle, minified without one, carries the same code and is
  held by tests/test_browser.py test_no_stylesheet_loads_again_after_the_page_is_styled, which runs
  on both hosts' sites).
- One copy of Material's internals: `serieskit/publish/draw/material-mermaid.css` is the stylesheet
  Material's bundle passes to mermaid as `themeCSS` (a string in
  `material/templates/assets/javascripts/bundle.*.min.js`), so that diagrams drawn by the build look as
  Material drew them. tests/test_upstream.py compares it with the installed bundle and fails loudly when
  Material changes it.
"""
from __future__ import annotations

import logging
import re

from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from serieskit.publish import mdext
from serieskit.lint import report
from serieskit.markup import escape, html
from serieskit.lint.rules.spec002_internal_error import render_crashed

from serieskit.publish import csp
from .serve_cache import ServeCache

CSP_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


# --- 1. live reload ---------------------------------------------------------------------------------
def wrap_livereload(server, allowed, log) -> None:
    """`allowed()`: the hashes of the current build's theme scripts."""
    inject = getattr(server, "_inject_js_into_html", None)
    if inject is None:
        log.warning("mkdocs serve: LiveReloadServer._inject_js_into_html is gone; live reload is blocked by the "
                    "page's Content-Security-Policy (see hooks/serieshooks/upstream.py)")
        return

    def inject_allowed(content: bytes, epoch) -> bytes:
        out = inject(content, epoch)
        text = out.decode("utf-8", "replace")
        m = CSP_META.search(text)
        if m is None:
            return out
        added = csp.served_additions(content.decode("utf-8", "replace"), text)
        policy = str(escape(csp.policy(allowed() | {csp.sha256(b) for b in added})))
        return (text[:m.start(1)] + policy + text[m.end(1):]).encode("utf-8")

    server._inject_js_into_html = inject_allowed


# --- 2. Page.render -----------------------------------------------------------------------------------
def wrap_render(page, where: str, on_error, cache: ServeCache | None) -> None:
    """Guard the page's conversion (on a crash, `on_error(message, finding)` logs the SPEC002 error and
    keeps the finding for the serve findings box) and, given a serve cache, memoise it."""
    convert = (lambda config, files: _memoised(page, config, files, cache)) if cache is not None else page.render

    def guarded(config, files):
        try:
            convert(config, files)
        except Exception as exc:  # noqa: BLE001 - whatever the renderer raised on this page
            what = f"{type(exc).__name__}: {str(exc)[:200]}".rstrip(": ")
            finding = render_crashed(where, what)
            on_error(report.entry(finding, severity=False), finding)
            page.content = html('<div class="series-unrendered" role="alert">这一页无法渲染：{}。'
                                '源文件：<code>{}</code></div>', what, where)
            page.toc = get_toc([])
            page.present_anchor_ids = set()
            page.links_to_anchors = {}

    page.render = guarded


class _Capture(logging.Handler):
    """Collects the log records emitted while a page is converted (they are replayed on a hit)."""

    NAMES = ("mkdocs", "MARKDOWN")

    def __init__(self):
        super().__init__(logging.NOTSET)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def __enter__(self):
        for name in self.NAMES:
            logging.getLogger(name).addHandler(self)
        return self

    def __exit__(self, *exc):
        for name in self.NAMES:
            logging.getLogger(name).removeHandler(self)


def _memoised(page, config, files, cache: ServeCache) -> None:
    key = cache.page_key(page, files)
    hit = cache.markdown.get(key)
    if hit is not None:
        content, toc, title, anchors, links, records, drawn = hit
        targets = None
        if links is not None:
            targets = {}
            for src, anchors_to in links:
                f = files.get_file_from_path(src)
                if f is None:
                    hit = None
                    break
                targets[f] = dict(anchors_to)
    if hit is None:
        with _Capture() as cap:
            Page.render(page, config, files)
        links = None if page.links_to_anchors is None else \
            [(f.src_uri, dict(v)) for f, v in page.links_to_anchors.items()]
        cache.markdown.put(key, (page.content, page.toc, page._title_from_render,
                                 frozenset(page.present_anchor_ids or ()), links, cap.records, mdext.peek_report()))
        return
    page.content, page.toc, page._title_from_render = content, toc, title
    page.present_anchor_ids = set(anchors)
    if targets is not None:
        page.links_to_anchors = targets
    for record in records:
        logging.getLogger(record.name).handle(record)
    mdext.restore_report(drawn)     # what the output gate and the drawings found, as if converted again
