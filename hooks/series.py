"""MkDocs adapter for the series site: a thin layer over `serieskit` (which does not import MkDocs).

- loads series/ (posts, images, manifests) into the build and generates the series index, tags,
  archive and rules pages; serves mermaid and KaTeX from node_modules (no CDN);
- runs the convention engine on the raw files: every error becomes a WARNING on the `mkdocs.*`
  logger (so `mkdocs build --strict` fails listing all of them), warnings are logged as INFO, and
  `mkdocs serve` shows each page's findings in a box on that page;
- takes mermaid2's per-page BeautifulSoup pass off the hot path (the loader is on every page);
- under `mkdocs serve`, converts and indexes again only the pages an edit touched
  (hooks/serve_cache.py memoises Markdown, search entries and templates across rebuilds);
- writes the Atom feed and the Content-Security-Policy (meta tag and `_headers`).
"""
from __future__ import annotations

import functools
import gc
import hashlib
import json
import logging
import re
import sys
import types
from pathlib import Path

from mkdocs.exceptions import Abort, PluginError
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.toc import get_toc

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from serieskit import feed, pages, share  # noqa: E402
from serieskit import report  # noqa: E402
from serieskit.config import ConfigError  # noqa: E402
from serieskit.rules.spec002_internal_error import render_crashed  # noqa: E402
from serieskit.model import SERIES_DIR  # noqa: E402
from serieskit.markup import Markup, escape, html  # noqa: E402
from serieskit.render import apply_tooltips  # noqa: E402

import csp  # noqa: E402  (hooks/csp.py: the Content-Security-Policy, known before any page is built)

import serve_cache  # noqa: E402  (hooks/serve_cache.py: mkdocs serve re-converts only what an edit touched)
from serieskit.session import SESSION, Build  # noqa: E402
from serieskit.theme import palette_css  # noqa: E402

log = get_plugin_logger("series")

VENDOR = {
    # (package, path inside the package, destination under the site) — no source maps
    "mermaid": ("mermaid/dist", "assets/vendor/mermaid", ("mermaid.esm.min.mjs", "chunks/mermaid.esm.min/")),
    "katex": ("katex/dist", "assets/vendor/katex", ("katex.min.js", "katex.min.css", "contrib/auto-render.min.js", "fonts/")),
}
CSP_PLACEHOLDER = "__SERIES_CSP__"


class _State:
    command = "build"
    build: Build | None = None
    posts_by_src: dict = {}
    contents: dict = {}      # each post's rendered HTML (Post.rel -> HTML), for the full-content feeds
    allowed: set = set()     # sha256 of the theme's own inline scripts (hooks/csp.py)
    policy: str = ""
    errors: int = 0          # convention errors of this build: the strict gate counts them itself
    jieba_words: str | None = None    # the user dictionary jieba has loaded (one process, many serve builds)


S = _State()


# --- helpers ----------------------------------------------------------------------------------------
def _root(config) -> Path:
    return Path(config.config_file_path).resolve().parent


def _include_drafts() -> bool:
    return S.command == "serve"


def _vendor_files(config, root: Path) -> list[File]:
    nm = root / "node_modules"
    out = []
    for pkg, (inner, dest, wanted) in VENDOR.items():
        base = nm / inner
        if not base.is_dir():
            raise PluginError(f"node_modules/{pkg} is missing (mermaid and KaTeX are served from the site itself, "
                              f"never from a CDN): run `npm ci` in {root}")
        for w in wanted:
            if w.endswith("/"):
                sources = sorted(p for p in (base / w).rglob("*") if p.is_file())
                if pkg == "katex":
                    sources = [p for p in sources if p.suffix == ".woff2"]
                else:
                    sources = [p for p in sources if p.suffix == ".mjs"]
            else:
                sources = [base / w]
            for p in sources:
                if not p.is_file():
                    raise PluginError(f"{p.relative_to(root)} is missing: run `npm ci` in {root}")
                out.append(File.generated(config, f"{dest}/{p.relative_to(base).as_posix()}", abs_src_path=str(p)))
    return out


def _patch_mermaid2(config) -> None:
    """Keep mermaid2's configuration, drop its BeautifulSoup re-parse of every page.

    mermaid2 re-parses each page with a diagram to add a <script> (4.3x slower builds); here the
    loader named by its `javascript:` option is on every page (so Material's instant navigation
    finds it too), and its `arguments:` reach the renderer through the page config. mermaid2 has no
    setting for this: its event is taken out of MkDocs' event list, a private internal pinned by
    tests/test_upstream.py.
    """
    plugin = config.plugins.get("mermaid2")
    if plugin is None:
        return
    events = config.plugins.events.get("post_page", [])
    config.plugins.events["post_page"] = [e for e in events if getattr(e, "__self__", None) is not plugin]
    js = plugin.config.get("javascript") or ""
    if re.match(r"^(https?:)?//", js):
        raise PluginError(f"mermaid2 `javascript: {js}` is a remote URL; the site serves mermaid itself: "
                          f"point it at assets/javascripts/mermaid-loader.js")
    if js and js not in [str(s) for s in config.extra_javascript]:
        config.extra_javascript.append(js)
    config.extra["mermaid_args"] = dict(plugin.config.get("arguments") or {})


def _jieba_dictionary(config, build: Build, root: Path) -> None:
    """Generate the jieba user dictionary from the glossaries and load it for the search index."""
    words = []
    for s in build.site.series.values():
        for e in s.glossary:
            for w in [e.term, *e.aliases]:
                if re.search(r"[\u4e00-\u9fff]", w):
                    words.append(w)
    if not words:
        return
    cache = root / ".cache"
    cache.mkdir(exist_ok=True)
    path = cache / "jieba_user_dict.txt"
    text = "".join(f"{w.replace(' ', '')} 20000 n\n" for w in dict.fromkeys(words))
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    try:
        import jieba
    except ImportError:
        log.warning("jieba is not installed: Chinese search will not segment words (pip install jieba)")
        return
    jieba.setLogLevel(60)
    if S.jieba_words != text:
        # Load the dictionary once per process: jieba never forgets a word, and each load_userdict
        # adds to its frequency total. When the glossary changes during `mkdocs serve`, start again
        # from jieba's main dictionary, so search segments as a fresh build would.
        if S.jieba_words is not None:
            jieba.dt.initialized = False
            jieba.dt.user_word_tag_tab = {}
            jieba.dt.initialize()
        jieba.load_userdict(str(path))
        S.jieba_words = text
    serve_cache.jieba_key = hashlib.sha256(text.encode("utf-8")).hexdigest()
    search = config.plugins.get("material/search") or config.plugins.get("search")
    if search is not None and hasattr(search.config, "jieba_dict_user"):
        search.config.jieba_dict_user = str(path)


def _error(msg: str) -> None:
    """A convention error: a WARNING (so MkDocs lists it with the others), or an ERROR when the
    command line silenced warnings (`-q`): the findings are printed whatever the flags."""
    S.errors += 1
    if log.isEnabledFor(logging.WARNING):
        log.warning(msg)
    else:
        log.error(msg)


def _report(build: Build) -> None:
    errors = warnings = 0
    for f in build.findings:
        msg = report.entry(f, severity=False)
        if f.severity == "error":
            errors += 1
            _error(msg)
        elif f.severity == "warning":
            warnings += 1
            log.info(f"warning: {msg}")
        else:
            log.debug(msg)
    if errors or warnings:
        log.info(f"conventions: {errors} error(s), {warnings} warning(s); details: python scripts/lint.py")


# --- events -----------------------------------------------------------------------------------------
def on_startup(command, dirty=False):
    S.command = command


def on_config(config):
    root = _root(config)
    gc.unfreeze()   # the previous serve build's objects (see on_nav) may be collected again
    S.errors = 0
    try:
        S.build = SESSION.build(root, _include_drafts())
    except ConfigError as exc:
        raise PluginError(report.problem(exc.path, exc.line, exc.message))
    _report(S.build)
    _patch_mermaid2(config)
    _jieba_dictionary(config, S.build, root)
    _utf8_search_index(config)
    config.extra.setdefault("scope", "/")  # one localStorage scope: Material's inline scripts are the same on every page
    if S.command == "serve":
        serve_cache.start_build(config)
        search = config.plugins.get("material/search") or config.plugins.get("search")
        index = getattr(search, "search_index", None)
        if index is not None:
            index.add_entry_from_context = functools.partial(serve_cache.search_entries, index,
                                                             index.add_entry_from_context)
    return config


def on_env(env, config, files):
    try:
        S.allowed = set(csp.theme_scripts(env, config).values())
    except RuntimeError as exc:
        raise PluginError(str(exc))
    S.policy = csp.policy(S.allowed)
    if S.command == "serve":
        env.bytecode_cache = serve_cache.BYTECODE
    return env


def on_files(files: Files, config):
    b, root = S.build, _root(config)
    site = b.site
    S.posts_by_src = {}
    S.contents = {}
    series_root = root / SERIES_DIR
    for post in b.published():
        f = File.generated(config, post.site_path, content=b.render(post).markdown)
        f.dest_uri = f"{post.url_dir}index.html"
        files.append(f)
        S.posts_by_src[f.src_uri] = post
    for sp in sorted(site.site_files):
        p = series_root / sp
        if p.is_file():
            files.append(File.generated(config, sp, abs_src_path=str(p)))
    generated = {"tags.md": pages.tags_page(site, b.include_drafts),
                 "archive.md": pages.archive_page(site, b.include_drafts),
                 "rules.md": pages.rules_page(site)}
    for s in site.series.values():
        generated[s.index_site_path] = pages.series_index(s, site, b.include_drafts)
    for uri, content in generated.items():
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, content=content))
    files.append(File.generated(config, "assets/stylesheets/palette.css", content=palette_css(site.conv)))
    # The feeds carry the posts' rendered HTML, so they are written once the pages are (_write_feeds);
    # they are site files from here on, so links to them validate.
    for uri in _feed_uris(site):
        files.append(File.generated(config, uri, content=""))
    for f in _vendor_files(config, root):
        files.append(f)
    config.nav = _nav(b, files)
    return files


def _nav(b: Build, files: Files) -> list:
    site = b.site
    nav: list = [{"首页": "index.md"}]
    for s in site.series.values():
        entries = [s.index_site_path]
        for p in site.series_posts(s.slug, b.include_drafts):
            title = f"{p.order}. {p.short_title}" if p.order is not None else p.short_title
            entries.append({_text(title): p.site_path})
        nav.append({_text(s.title): entries})
    standalone = [p for p in b.published() if site.series_of(p) is None]
    if standalone:
        standalone.sort(key=lambda p: (p.date.isoformat() if p.date else "", p.rel), reverse=True)
        nav.append({"随笔": [{_text(p.short_title): p.site_path} for p in standalone]})
    for title, uri in (("标签", "tags.md"), ("归档", "archive.md"), ("写作规范", "rules.md"),
                       ("性能", "performance.md"), ("关于", "about.md")):
        if files.get_file_from_path(uri) is not None:
            nav.append({title: uri})
    return nav


def on_nav(nav, config, files):
    """Previous / next follow the series order, not the global navigation."""
    b = S.build
    for s in b.site.series.values():
        posts = [p for p in b.site.series_posts(s.slug, b.include_drafts)]
        pages_ = [files.get_file_from_path(p.site_path) for p in posts]
        pages_ = [f.page for f in pages_ if f is not None and f.page is not None]
        for i, page in enumerate(pages_):
            page.previous_page = pages_[i - 1] if i > 0 else None
            page.next_page = pages_[i + 1] if i + 1 < len(pages_) else None
    # Everything made so far (the parsed posts, files, pages, navigation, jieba's dictionary) lives
    # until the build ends. Keep it out of the cyclic garbage collector's full passes, which would
    # otherwise walk all of it again and again while pages are rendered (CPython's gc.freeze; objects
    # still go when their last reference does, and on_config unfreezes for the next serve build).
    gc.freeze()
    return nav


def _text(s: str) -> str:
    return str(escape(s))


def _source_name(page, post, config) -> str:
    """The file an author edits for this page, relative to the project root."""
    if post is not None:
        return post.rel
    if page.file.generated_by:
        return page.file.src_uri   # a generated page (tags, archive, series index)
    docs = Path(config.docs_dir).resolve()
    try:
        return (docs / page.file.src_uri).relative_to(_root(config)).as_posix()
    except ValueError:
        return page.file.src_uri


def _guard_render(page, where: str) -> None:
    """If Python-Markdown itself crashes on a page (RecursionError deep in its block parser, ...), log
    the file as an error (a strict build fails naming it) and render a note instead, so that one
    page never takes down the build's other messages or `mkdocs serve`."""
    render = page.render

    def guarded(config, files):
        try:
            render(config, files)
        except Exception as exc:  # noqa: BLE001 - whatever the renderer raised on this page
            what = f"{type(exc).__name__}: {str(exc)[:200]}".rstrip(": ")
            finding = render_crashed(where, what)
            _error(report.entry(finding, severity=False))
            page.series_render_error = [finding]
            page.content = html('<div class="series-unrendered" role="alert">这一页无法渲染：{}。'
                                '源文件：<code>{}</code></div>', what, where)
            page.toc = get_toc([])
            page.present_anchor_ids = set()
            page.links_to_anchors = {}

    page.render = guarded


def on_page_markdown(markdown, page, config, files):
    b = S.build
    if S.command == "serve":
        page.render = functools.partial(serve_cache.render, page)   # memoised Markdown -> HTML
    post = S.posts_by_src.get(page.file.src_uri)
    _guard_render(page, _source_name(page, post, config))
    if post is not None:
        # MkDocs and Material print page.meta values into HTML unescaped (a title is HTML to them),
        # so only escaped text from the frontmatter reaches them: <title>, header, search index.
        meta = {"title": _text(post.title), "tags": [_text(t) for t in post.tags]}
        if post.author:
            meta["author"] = _text(post.author)
        if post.summary:
            meta["description"] = _text(post.summary)
        if post.is_draft:
            meta["status"] = "draft"
        page.meta = meta
        return markdown
    if "<!-- latest-posts -->" in markdown or "<!-- series-cards -->" in markdown:
        here = page.file.src_uri
        markdown = markdown.replace("<!-- latest-posts -->", pages.latest_posts(b.site, here, b.include_drafts))
        markdown = markdown.replace("<!-- series-cards -->", pages.series_cards(b.site, here, b.include_drafts))
    return markdown


def on_page_content(output, page, config, files):
    """Glossary tooltips: the rendered post carries marks; they become <abbr> elements here."""
    post = S.posts_by_src.get(page.file.src_uri)
    if post is None:
        return output
    output = apply_tooltips(output, S.build.render(post).tooltips)
    S.contents[post.rel] = output
    return output


def on_page_context(context, page, config, nav):
    b = S.build
    post = S.posts_by_src.get(page.file.src_uri)
    page.series_post = _post_info(b, post, page) if post is not None else None
    if S.command == "serve":
        series = next((s for s in b.site.series.values() if page.file.src_uri == s.index_site_path), None)
        page.series_findings = b.page_findings(post, series, home=page.file.src_uri == "index.md")
        page.series_findings += getattr(page, "series_render_error", [])
    else:
        page.series_findings = []
    context["series_share"] = _share(b, post, page, config)
    series = b.site.series_of(post) if post is not None else next(
        (s for s in b.site.series.values() if page.file.src_uri == s.index_site_path), None)
    context["series_feed"] = ({"title": feed.feed_title(series, config.site_name), "href": feed.feed_path(series)}
                              if series is not None else None)
    return context


def _share(b: Build, post, page, config) -> share.Share:
    """Link-preview metadata of the page (serieskit/share.py; written by overrides/partials/series-share.html)."""
    site, url = b.site, config.site_url or "http://127.0.0.1:8000/"
    if post is not None:
        return share.post_share(site, post, url, config.site_name, config.site_author or "")
    series = next((s for s in site.series.values() if page.file.src_uri == s.index_site_path), None)
    if series is not None:
        return share.series_share(site, series, url, config.site_name, b.include_drafts)
    if page.is_homepage:
        return share.home_share(site, url, config.site_name, config.site_description or "",
                                config.site_author or "", b.include_drafts)
    title = Markup(page.title or config.site_name).striptags()
    return share.page_share(title, config.site_description or "", page.canonical_url or url, url, config.site_name)


def _post_info(b: Build, post, page) -> dict:
    site = b.site
    s = site.series_of(post)
    st = post.stats(site.conv)
    info = {
        "title": post.title, "author": post.author or (s.author if s else ""),
        "date": post.date.isoformat() if post.date else "",
        "updated": post.updated.isoformat() if post.updated and post.updated != post.date else "",
        "tags": [{"name": t, "href": pages.tag_url(t)} for t in post.tags],
        "chars": st.cjk_chars, "minutes": st.minutes, "draft": post.is_draft,
        "stale": b.render(post).stale_days,
    }
    if s is not None:
        number, places, published = site.series_number(post, b.include_drafts)
        info["series"] = {"title": s.title, "index_title": s.index_title, "href": f"{s.slug}/",
                          "number": number, "places": places, "published": published}
        for key, other in (("prev", page.previous_page), ("next", page.next_page)):
            op = S.posts_by_src.get(other.file.src_uri) if other is not None else None
            info[f"{key}_number"] = op.order if op is not None else None
    return info


def on_post_template(output, template_name, config):
    return _with_csp(output, template_name)


def on_post_page(output, page, config):
    return _with_csp(output, _source_name(page, S.posts_by_src.get(page.file.src_uri), config))


def _with_csp(output: str, where: str) -> str:
    """Fill the page's CSP meta tag; an inline script the policy does not know is an SEC001 error
    (the browser would refuse it: a post's, a diagram's, or a theme feature's the policy lacks)."""
    if CSP_PLACEHOLDER not in output:
        return output
    for start in csp.unknown_scripts(output, S.allowed):
        _error(f"{where}:1:1: SEC001 the built page carries an inline script the site's policy does not "
               f"allow (`{start}`); posts carry no scripts, and a theme feature's script belongs in "
               f"hooks/csp.py THEME_SCRIPTS")
    return output.replace(CSP_PLACEHOLDER, str(escape(S.policy)), 1)


def _feed_uris(site) -> dict:
    """Where each feed goes: the site's (`None`) and each series' (its index folder)."""
    return {"feed.xml": None, **{feed.feed_path(s): s for s in site.series.values()}}


def _write_feeds(config, site_dir: Path) -> None:
    """The site's Atom feed and one per series, with the posts' full content (serieskit/feed.py)."""
    b, url = S.build, config.site_url or "http://127.0.0.1:8000/"
    for uri, series in _feed_uris(b.site).items():
        text = feed.atom(b.site, url, config.site_name, config.site_author or "", S.contents, series=series)
        (site_dir / uri).write_text(text, encoding="utf-8")


def on_post_build(config):
    """`_headers` carries the site's policy; under `--strict` (or `strict: true`) any convention error
    fails the build, counted here rather than by MkDocs' logging (mkdocs/mkdocs#4126, #3991: with
    `-q` or `-v` its own count misses warnings)."""
    site_dir = Path(config.site_dir)
    (site_dir / "_headers").write_text(csp.headers(S.policy), encoding="utf-8")
    _write_feeds(config, site_dir)
    if S.command == "serve":
        serve_cache.end_build()
    if config.strict and S.errors:
        raise Abort(f"Aborted with {S.errors} convention error(s) in strict mode "
                    f"(details above; python scripts/lint.py lists them too)")


class _JsonUtf8(types.ModuleType):
    """`json` as Material's search plugin sees it: the same module, except that `dumps` writes
    UTF-8 instead of `\\uXXXX` escapes."""

    def __getattr__(self, name):
        return getattr(json, name)

    @staticmethod
    def dumps(obj, **kwargs):
        kwargs.setdefault("ensure_ascii", False)
        return json.dumps(obj, **kwargs)


_JSON_UTF8 = _JsonUtf8("json")


def _utf8_search_index(config) -> None:
    """Material writes the search index as ASCII JSON: every Chinese character becomes a 6-byte
    `\\uXXXX` escape (3 bytes in UTF-8). Every reader downloads the index on the first page they open,
    so the index is written as UTF-8 instead (about 40% smaller here): the search plugin's module gets
    a `json` whose `dumps` keeps non-ASCII characters (the same JSON otherwise, written once; the
    plugin calls nothing else of `json`). tests/test_site.py checks the written index."""
    search = config.plugins.get("material/search") or config.plugins.get("search")
    mod = sys.modules.get(type(search).__module__) if search is not None else None
    if mod is not None and getattr(mod, "json", None) is json:
        mod.json = _JSON_UTF8


def on_serve(server, config, builder):
    """`mkdocs serve` adds its live-reload script inline to every page it serves; the page's policy
    allows exactly the scripts the server added to that response (or the preview would never reload).
    MkDocs has no public hook for served responses: this wraps `LiveReloadServer._inject_js_into_html`
    (tests/test_upstream.py fails when it changes)."""
    inject = getattr(server, "_inject_js_into_html", None)
    if inject is None:
        log.warning("mkdocs serve: LiveReloadServer._inject_js_into_html is gone; live reload is blocked by the "
                    "page's Content-Security-Policy (see hooks/series.py on_serve)")
        return server

    def inject_allowed(content: bytes, epoch) -> bytes:
        out = inject(content, epoch)
        text = out.decode("utf-8", "replace")
        m = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', text)
        if m is None:
            return out
        added = csp.served_additions(content.decode("utf-8", "replace"), text)
        policy = str(escape(csp.policy(S.allowed | {csp.sha256(b) for b in added})))
        return (text[:m.start(1)] + policy + text[m.end(1):]).encode("utf-8")

    server._inject_js_into_html = inject_allowed
    return server
