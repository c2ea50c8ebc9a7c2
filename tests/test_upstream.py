"""The private upstream internals the adapter relies on, all listed in hooks/serieshooks/upstream.py with the
reasons, each pinned here so that an upgrade that changes one fails loudly instead of silently:

1. `mkdocs.livereload.LiveReloadServer._inject_js_into_html(content, epoch)` (`wrap_livereload`): the
   only place where the live-reload script `mkdocs serve` adds inline can be allowed by the page's
   Content-Security-Policy.
2. `Page.render(config, files)` replaced on each page (`wrap_render`): the SPEC002 guard, and under
   serve with the speed-ups on, the memo, which restores `Page._title_from_render`, the table of
   contents, the anchors and the links to anchors that a conversion leaves on the page.

And three public-but-versioned facts: the Material partials of serieskit/publish/csp.py THEME_SCRIPTS exist and
each holds one inline script; overrides/partials/header.html is Material's header with one block
changed (Material shows its header search box only with its own search plugin, which downloads its
whole index on every first visit; the site's box searches the Pagefind index, hooks/serieshooks/search.py);
serieskit/publish/draw/material-mermaid.css is the stylesheet Material's bundle gives mermaid (`themeCSS`),
so that the diagrams the build draws look as Material drew them; and Material's instant navigation still
makes the page's relative addresses absolute as its script starts (why overrides/partials/series-stylesheets.html
makes the stylesheets' absolute first).
"""
from __future__ import annotations

import inspect
import re
from pathlib import Path

from mkdocs.livereload import LiveReloadServer

from support.sitebuild import ROOT

from serieskit.publish import csp  # noqa: E402


def test_livereload_injects_one_inline_script_through_the_wrapped_method():
    method = LiveReloadServer._inject_js_into_html
    assert list(inspect.signature(method).parameters) == ["self", "content", "epoch"]
    server = LiveReloadServer.__new__(LiveReloadServer)
    page = b"<html><head></head><body><p>x</p></body></html>"
    out = method(server, page, 1).decode()
    added = csp.served_additions(page.decode(), out)
    assert len(added) == 1 and "livereload(" in added[0], out


def test_page_render_is_what_the_render_wrapper_replaces_and_restores():
    from mkdocs.structure.pages import Page
    assert list(inspect.signature(Page.render).parameters) == ["self", "config", "files"]
    source = inspect.getsource(Page.render)
    # what a conversion leaves on the page, all of which the serve memo restores on a hit
    for attr in ("self.content", "self.toc", "self._title_from_render", "self.present_anchor_ids",
                 "self.links_to_anchors"):
        assert attr in source, f"Page.render no longer sets {attr}: update hooks/serieshooks/upstream.py _memoised"
    page_source = inspect.getsource(Page)
    assert "if self._title_from_render:" in page_source and "return self._title_from_render" in page_source
    # MkDocs calls the page's render (an instance attribute wins) between on_page_markdown and on_page_content
    from mkdocs.commands import build
    assert "page.render(config, files)" in inspect.getsource(build._populate_page)


def test_the_themes_inline_script_partials_are_where_the_policy_reads_them():
    import material
    from pathlib import Path
    templates = Path(material.__file__).parent / "templates"
    for name in csp.THEME_SCRIPTS:
        text = (templates / name).read_text(encoding="utf-8")
        assert text.count("<script>") == text.count("</script>") >= 1, name


HEADER_BLOCK_OURS = re.compile(r"\{#- series site: the search box.*?\{% endif %\}\n", re.S)
HEADER_BLOCK_MATERIAL = re.compile(r'\{% if "material/search" in config.plugins %\}.*?\{% endif %\}\n    \{% endif %\}\n', re.S)
HEADER_NOTE = re.compile(r"\A\{#-.*?-#\}\n", re.S)


def test_the_header_override_is_materials_header_but_for_the_search_block():
    import material
    theirs = (Path(material.__file__).parent / "templates" / "partials" / "header.html").read_text(encoding="utf-8")
    ours = (ROOT / "overrides" / "partials" / "header.html").read_text(encoding="utf-8")
    assert len(HEADER_BLOCK_MATERIAL.findall(theirs)) == 1, "Material's header no longer has its search block: " \
        "copy the new partials/header.html to overrides/partials/ and put the site's search block back in"
    assert len(HEADER_BLOCK_OURS.findall(ours)) == 1
    assert HEADER_NOTE.sub("", HEADER_BLOCK_MATERIAL.sub("SEARCH\n", theirs)) == \
        HEADER_NOTE.sub("", HEADER_BLOCK_OURS.sub("SEARCH\n", ours)), \
        "Material's partials/header.html changed: copy it to overrides/partials/header.html again, " \
        "with the site's search block in place of Material's"


MERMAID_CSS_START = ".node circle,.node ellipse"


def _js_string_at(source: str, start: int) -> str:
    """The JavaScript string literal of `source` whose text begins at `start`, decoded."""
    quote = source[start - 1]
    assert quote in "\"'`", f"the text at {start} is not the start of a string literal ({source[start - 20:start]!r})"
    out, i = [], start
    simple = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
    while source[i] != quote:
        c = source[i]
        if quote == "`" and source.startswith("${", i):
            raise AssertionError("Material's mermaid stylesheet became a template with substitutions")
        if c == "\\":
            n = source[i + 1]
            if n == "x":
                out.append(chr(int(source[i + 2:i + 4], 16)))
                i += 4
            elif n == "u":
                out.append(chr(int(source[i + 2:i + 6], 16)))
                i += 6
            else:
                out.append(simple.get(n, n))
                i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def test_the_mermaid_theme_is_the_one_materials_bundle_gives_mermaid():
    """serieskit/publish/draw/material-mermaid.css is a copy of the `themeCSS` string in Material's bundle
    (the diagrams are drawn by the build, with Material's look): the same text, or this fails."""
    import material
    bundles = sorted((Path(material.__file__).parent / "templates" / "assets" / "javascripts").glob("bundle.*.min.js"))
    assert len(bundles) == 1, f"expected one Material bundle, found {[b.name for b in bundles]}"
    source = bundles[0].read_text(encoding="utf-8")
    starts = [m.start() for m in re.finditer(re.escape(MERMAID_CSS_START), source)]
    assert len(starts) == 1, (f"{bundles[0].name} (Material {material.__version__}) holds {len(starts)} string(s) "
                              f"starting {MERMAID_CSS_START!r}: find the stylesheet Material passes to mermaid as "
                              f"themeCSS and update serieskit/publish/draw/material-mermaid.css and this test")
    theirs = _js_string_at(source, starts[0])
    ours = (ROOT / "serieskit" / "publish" / "draw" / "material-mermaid.css").read_text(encoding="utf-8").strip()
    at = next((i for i, (a, b) in enumerate(zip(theirs, ours)) if a != b), min(len(theirs), len(ours)))
    assert theirs == ours, (
        f"Material {material.__version__} changed its mermaid stylesheet ({bundles[0].name}): copy the string "
        f"starting {MERMAID_CSS_START!r} to serieskit/publish/draw/material-mermaid.css (the drawing cache follows it). "
        f"First difference at {at}: Material {theirs[at:at + 80]!r}, ours {ours[at:at + 80]!r}")


def test_materials_instant_navigation_still_makes_relative_addresses_absolute():
    """overrides/partials/series-stylesheets.html exists because Material's instant navigation, as its
    script starts, gives every relative `href` / `src` of the page its absolute address (`resolve` in
    integrations/instant/index.ts) and leaves absolute ones alone: a stylesheet whose address changes is
    loaded again and the page restyled. When Material changes this, the partial may be dropped or must
    change (tests/test_browser.py test_no_stylesheet_loads_again_after_the_page_is_styled)."""
    import json
    import material
    maps = sorted((Path(material.__file__).parent / "templates" / "assets" / "javascripts").glob("bundle.*.min.js.map"))
    assert len(maps) == 1, f"expected one Material bundle source map, found {[m.name for m in maps]}"
    data = json.loads(maps[0].read_text(encoding="utf-8"))
    sources = dict(zip(data["sources"], data["sourcesContent"]))
    instant = next((text for name, text in sources.items() if name.endswith("integrations/instant/index.ts")), None)
    assert instant is not None, f"Material {material.__version__}: no integrations/instant/index.ts in {maps[0].name}"
    for part in ('getElements("[href], [src]", document)', r"!/^(?:[a-z]+:)?\/\//i.test(value)", "el[key] = el[key]",
                 "of(document)\n    .subscribe(resolve)"):
        assert part in instant, (f"Material {material.__version__} changed how instant navigation resolves addresses "
                                 f"({part!r} is gone): check overrides/partials/series-stylesheets.html is still needed")
