"""The pins of the upstream facts the code relies on, each failing loudly when an upgrade changes one.

The MkDocs adapter's, listed with the reasons in hooks/serieshooks/upstream.py:

1. `mkdocs.livereload.LiveReloadServer._inject_js_into_html(content, epoch)` (`wrap_livereload`): the
   only place where the live-reload script `mkdocs serve` adds inline can be allowed by the page's
   Content-Security-Policy.
2. `Page.render(config, files)` replaced on each page (`wrap_render`): the SPEC002 guard, and under
   serve with the speed-ups on, the memo, which restores `Page._title_from_render`, the table of
   contents, the anchors and the links to anchors that a conversion leaves on the page.
3. The serve memo's Jinja bytecode cache, set on MkDocs' Environment in on_env (hooks/series.py): MkDocs
   loads no template before that event.

And public-but-versioned facts: the Material partials of serieskit/publish/csp.py THEME_SCRIPTS exist and
each holds one inline script; overrides/partials/header.html is Material's header with one block
changed (Material shows its header search box only with its own search plugin, which downloads its
whole index on every first visit; the site's box searches the Pagefind index, hooks/serieshooks/search.py);
overrides/partials/progress.html is Material's progress bar with its role taken off, and no other
Material partial is overridden; serieskit/publish/draw/material-mermaid.css is the stylesheet Material's
bundle gives mermaid (`themeCSS`), so that the diagrams the build draws look as Material drew them; and
Material's instant navigation still makes the page's relative addresses absolute as its script starts
(why overrides/partials/series-stylesheets.html makes the stylesheets' absolute first).

The Zensical adapter's that a one-page Zensical build or the installed package shows
(zensical_adapter/upstream.py 4.-7.; the others are pinned in tests/test_zensical.py).

The engine's reliances on private Python internals (serieskit/, listed in ARCHITECTURE.md):
`xml.etree.ElementTree._escape_attrib` (serieskit/sanitize/svgfile.py `_written_names`), `re._parser.parse` and
`re._constants` (serieskit/conventions.py `_backtracking_risk`).
"""
from __future__ import annotations

import hashlib
import inspect
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from mkdocs.livereload import LiveReloadServer

from support.sitebuild import ROOT, env

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


class _Stop(Exception):
    """Ends the build at on_env: what is pinned happens before it."""


def test_no_template_is_loaded_before_on_env(tmp_path):
    """hooks/series.py on_env gives MkDocs' Environment the serve memo's bytecode cache, which Jinja takes
    as an argument of the Environment it builds: set later, it serves only the templates loaded after it
    (one already in `env.cache` is not loaded again). MkDocs, with the site's theme and plugins, must reach
    on_env where the hook runs (after the plugins) with no template loaded (hooks/serieshooks/upstream.py 7.)."""
    import jinja2
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.plugins import BasePlugin
    from zensical_adapter.build import load_config as site_settings

    site = site_settings(ROOT / "mkdocs.yml")
    theme = dict(site["theme"], custom_dir=str(ROOT / site["theme"].get("custom_dir", "overrides")))
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# 一页\n\n正文。\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(
        {"site_name": "t", "theme": theme, "plugins": site.get("plugins") or []}, allow_unicode=True), encoding="utf-8")
    seen: dict[str, list[str]] = {}

    class Compiled(jinja2.BytecodeCache):
        def get_bucket(self, environment, name, filename, source):
            seen.setdefault("compiled", []).append(name)
            return super().get_bucket(environment, name, filename, source)

        def load_bytecode(self, bucket):
            pass

        def dump_bytecode(self, bucket):
            pass

    class AsTheHook(BasePlugin):
        def on_env(self, env, config, files):
            seen["loaded"] = sorted(name for _, name in (env.cache or {}).keys())
            env.bytecode_cache = Compiled()       # as hooks/series.py does
            env.get_template("main.html")
            raise _Stop

    config = load_config(str(tmp_path / "mkdocs.yml"))
    config.plugins["upstream-on-env"] = AsTheHook()     # last, as the site's hook is
    with pytest.raises(_Stop):
        build(config)
    assert seen["loaded"] == [], (f"MkDocs loaded {seen['loaded']} before on_env: the serve memo's bytecode cache "
                                  f"(hooks/series.py on_env) does not serve them; see hooks/serieshooks/upstream.py 7.")
    assert "main.html" in seen.get("compiled", []), "a template loaded after on_env did not go through the bytecode cache"


def test_the_themes_inline_script_partials_are_where_the_policy_reads_them():
    import material
    from pathlib import Path
    templates = Path(material.__file__).parent / "templates"
    for name in csp.THEME_SCRIPTS:
        text = (templates / name).read_text(encoding="utf-8")
        assert text.count("<script>") == text.count("</script>") >= 1, name


HEADER_BLOCK_OURS = re.compile(r"\{#- series site: the search box.*?\{% endif %\}\n", re.S)
HEADER_BLOCK_MATERIAL = re.compile(r'\{% if "material/search" in config.plugins %\}.*?\{% endif %\}\n    \{% endif %\}\n', re.S)
PARTIAL_NOTE = re.compile(r"\A\{#-.*?-#\}\n", re.S)


def test_the_header_override_is_materials_header_but_for_the_search_block():
    import material
    theirs = (Path(material.__file__).parent / "templates" / "partials" / "header.html").read_text(encoding="utf-8")
    ours = (ROOT / "overrides" / "partials" / "header.html").read_text(encoding="utf-8")
    assert len(HEADER_BLOCK_MATERIAL.findall(theirs)) == 1, "Material's header no longer has its search block: " \
        "copy the new partials/header.html to overrides/partials/ and put the site's search block back in"
    assert len(HEADER_BLOCK_OURS.findall(ours)) == 1
    assert PARTIAL_NOTE.sub("", HEADER_BLOCK_MATERIAL.sub("SEARCH\n", theirs)) == \
        PARTIAL_NOTE.sub("", HEADER_BLOCK_OURS.sub("SEARCH\n", ours)), \
        "Material's partials/header.html changed: copy it to overrides/partials/header.html again, " \
        "with the site's search block in place of Material's"


PROGRESS_ROLE_MATERIAL = 'role="progressbar"'
PROGRESS_ROLE_OURS = 'aria-hidden="true"'


def test_the_progress_override_is_materials_progress_bar_but_for_its_role():
    """overrides/partials/progress.html is Material's partials/progress.html (navigation.instant.progress)
    with `role="progressbar"` replaced by `aria-hidden="true"`: Material gives the bar neither a name nor a
    value, so it is drawing only (hooks/serieshooks/upstream.py 3.)."""
    import material
    theirs = (Path(material.__file__).parent / "templates" / "partials" / "progress.html").read_text(encoding="utf-8")
    ours = (ROOT / "overrides" / "partials" / "progress.html").read_text(encoding="utf-8")
    assert theirs.count(PROGRESS_ROLE_MATERIAL) == 1, "Material's progress bar no longer has its role: copy the new " \
        "partials/progress.html to overrides/partials/ and check that the bar still needs hiding"
    assert ours.count(PROGRESS_ROLE_OURS) == 1 and PROGRESS_ROLE_MATERIAL not in ours
    assert PARTIAL_NOTE.sub("", theirs.replace(PROGRESS_ROLE_MATERIAL, PROGRESS_ROLE_OURS)) == \
        PARTIAL_NOTE.sub("", ours), "Material's partials/progress.html changed: copy it to " \
        f"overrides/partials/progress.html again, with {PROGRESS_ROLE_OURS} in place of {PROGRESS_ROLE_MATERIAL}"


PINNED_PARTIAL_OVERRIDES = {"header.html", "progress.html"}    # the two tests above


def test_every_material_partial_the_site_overrides_is_pinned():
    """A file of overrides/partials/ named as one of Material's replaces it: it is a copy, listed in
    hooks/serieshooks/upstream.py 3. and held to Material's by a test here."""
    import material
    theirs = Path(material.__file__).parent / "templates" / "partials"
    overriding = {p.name for p in (ROOT / "overrides" / "partials").iterdir() if (theirs / p.name).exists()}
    assert overriding == PINNED_PARTIAL_OVERRIDES, (
        f"overrides/partials/ replaces Material's {sorted(overriding - PINNED_PARTIAL_OVERRIDES)} unpinned: list it in "
        f"hooks/serieshooks/upstream.py 3. with a test like the header's (or {sorted(PINNED_PARTIAL_OVERRIDES - overriding)} "
        f"is no longer an override)")


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


# --- the Zensical adapter's (zensical_adapter/upstream.py 4.-7.) --------------------------------------------------
ZENSICAL_PAGE = """---
title: 一篇
series_note: "<script>in the frontmatter</script>"
---

<header class="series-post-header"><p>头</p></header>

正文 <script>alert(1)</script>
"""


ZENSICAL_TAGGED_PAGE = """---
title: 另一篇
tags: [甲, 乙]
---

<header class="series-post-header"><p>头</p></header>

正文
"""


@pytest.fixture(scope="module")
def zensical_page(tmp_path_factory):
    """One page built by Zensical (well under a second), with the site's templates (`custom_dir`) and its
    Markdown extension writing its report, as zensical_adapter/build.py stages them: (source, site, reports)."""
    proj = tmp_path_factory.mktemp("zensical-page")
    report = proj / "draw-report.jsonl"
    (proj / "docs").mkdir()
    source = proj / "docs" / "index.md"
    source.write_text(ZENSICAL_PAGE, encoding="utf-8")
    (proj / "docs" / "tagged.md").write_text(ZENSICAL_TAGGED_PAGE, encoding="utf-8")
    (proj / "mkdocs.yml").write_text(yaml.safe_dump({
        "site_name": "t", "theme": {"name": "material", "custom_dir": str(ROOT / "overrides")},
        "markdown_extensions": [{"serieskit.publish.mdext": {"report": str(report)}}]}), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "zensical", "build", "-f", str(proj / "mkdocs.yml")], cwd=proj,
                       env=env(NO_COLOR="1"), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, (r.stdout + r.stderr)[-3000:]
    reports = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()] if report.is_file() else []
    return source.read_text(encoding="utf-8"), proj / "site", reports


def test_zensical_converts_a_page_without_its_frontmatter(zensical_page):
    """4. The adapter finds a page's report by the digest of the page after its frontmatter."""
    from serieskit.publish.mdext import page_digest
    from zensical_adapter.build import FRONTMATTER
    text, _, reports = zensical_page
    assert reports, "the Markdown extension wrote no report in Zensical's process"
    digest = page_digest(text[FRONTMATTER.match(text).end():])
    mine = [r for r in reports if r["digest"] == digest]       # (the other page's and the tables of contents')
    assert mine, ("Zensical no longer hands Python-Markdown the page without its frontmatter: zensical_adapter/build.py "
                  "drawn_findings matches no page's report, and the SEC003 / MER004 / MAT001 findings of a Zensical build vanish")
    assert [r[0] for r in mine[-1]["removed"]] == ["script"], mine[-1]


def test_zensicals_own_search_index_is_search_json(zensical_page):
    """5. zensical_adapter/build.py deletes Zensical's search index by this name (the site searches with Pagefind)."""
    _, site, _ = zensical_page
    assert (site / "search.json").is_file(), (
        f"Zensical wrote no search.json (its site: {sorted(p.name for p in site.iterdir())}): find its search index "
        f"and delete that in zensical_adapter/build.py, or it is published")


def test_zensical_closes_a_pages_content_with_article(zensical_page):
    """6. A standalone post's feed entry is its page's HTML from the post header to `</article>`: an untagged
    page has nothing else between its text and `</article>`."""
    from zensical_adapter.build import ARTICLE
    _, site, _ = zensical_page
    m = ARTICLE.search((site / "index.html").read_text(encoding="utf-8"))
    assert m is not None, "Zensical no longer closes a page's content with </article>: zensical_adapter/build.py " \
        "post_contents finds no standalone post's text (the build stops)"
    assert m.group(1) == "<p>正文 </p>", f"Zensical writes more between a page's text and </article>: {m.group(1)!r}"


def test_zensical_writes_a_pages_tags_after_its_content(zensical_page):
    """6. A tagged standalone post's feed entry ends where Zensical's tag strip begins (the MkDocs feed has
    no tag strip: the tags are in the post header)."""
    from zensical_adapter.build import ARTICLE
    _, site, _ = zensical_page
    m = ARTICLE.search((site / "tagged" / "index.html").read_text(encoding="utf-8"))
    assert m is not None and m.group(2) == '<nav class="md-tags"', (
        "Zensical no longer writes a page's tags as <nav class=\"md-tags\"> after its text: zensical_adapter/build.py "
        "post_contents would carry what it writes instead into the feed entry")
    assert m.group(1) == "<p>正文</p>", m.group(1)


ZENSICAL_PARTIALS_REVIEWED = {   # zensical 0.0.73: what overrides/partials/ replaces on Zensical
    "header.html": "efcbc9f075685fefdccc113e85fb5a60aa86c0cff7b6a9004683bf2deb39c1df",
    "progress.html": "21d77a72cc39caee1a9d9c46db397bdab802cbc61a916d8a50ed1ebcd5c0a935",
}


def test_zensicals_partials_the_overrides_replace_are_the_reviewed_ones():
    """7. The site's copies of Material's partials replace Zensical's own, which differ from Material's."""
    from zensical_adapter import upstream as zensical
    theirs = zensical.theme_templates() / "partials"
    overriding = {p.name for p in (ROOT / "overrides" / "partials").iterdir() if (theirs / p.name).exists()}
    assert overriding == set(ZENSICAL_PARTIALS_REVIEWED), f"overrides/partials/ replaces Zensical's {sorted(overriding)}"
    for name, digest in ZENSICAL_PARTIALS_REVIEWED.items():
        assert hashlib.sha256((theirs / name).read_bytes()).hexdigest() == digest, (
            f"Zensical's partials/{name} changed: overrides/partials/{name} (a copy of Material's) replaces it on "
            f"Zensical; compare the two, update zensical_adapter/upstream.py 7., then this digest")


# --- the engine's reliances on private Python internals (serieskit/; ARCHITECTURE.md) -----------------------------
def test_elementtrees_attribute_escape_is_how_it_writes_a_value():
    """serieskit/sanitize/svgfile.py `_written_names` reads the names inside an attribute's value as ElementTree writes
    the value (`_file_names` of the written file must count the same), by ElementTree's own private
    `_escape_attrib`: it must exist and be what `tostring` writes between the quotes."""
    import xml.etree.ElementTree as ET
    from serieskit.sanitize import svgfile
    escape = getattr(ET, "_escape_attrib", None)
    assert callable(escape), (f"Python {sys.version.split()[0]} has no xml.etree.ElementTree._escape_attrib: "
                              f"serieskit/sanitize/svgfile.py `_written_names` must escape a value as ElementTree writes it")
    assert svgfile._escape_attrib is escape
    assert escape('"<&\n') == "&quot;&lt;&amp;&#10;"
    for value in ('a="1"', "<b x=2>", "&c=3;", "d=\n4", "e=\r\t5", "f='6' >", "g=&amp;7"):
        written = ET.tostring(ET.Element("x", a=value), encoding="unicode")
        assert written == f'<x a="{escape(value)}" />', (value, written)


RE_WALKED = {   # a pattern per kind of node `_backtracking_risk` walks into, and what it finds there
    "(a+)+$": "a repeat inside a repeat", "(a+?)+?": "a repeat inside a repeat",
    "(?:x|xa)*y": "an alternation inside a repeat", "(?=(a+)+)b": "a repeat inside a repeat",
    "(?!(a+)+)b": "a repeat inside a repeat", "(a)?(?(1)(b+)+|c)": "a repeat inside a repeat",
    "(a)?(?(1)c|(b+)+)": "a repeat inside a repeat",
    "(ab|cd)x+": None, "(?:a+)b*": None, "(a)?(?(1)b+|c)": None,
}


def test_the_regex_parse_tree_is_what_the_backtracking_check_walks():
    """serieskit/conventions.py checks a pattern of conventions.yml on the tree `re` compiles it from
    (private `re._parser.parse`), by the node kinds of private `re._constants` and their layouts."""
    import re._constants
    import re._parser
    from serieskit.conventions import _backtracking_risk
    names = set(re.findall(r"\bc\.([A-Z_]+)", inspect.getsource(_backtracking_risk)))
    assert names and not [n for n in names if not hasattr(re._constants, n)], (
        f"Python {sys.version.split()[0]}: re._constants lacks {sorted(n for n in names if not hasattr(re._constants, n))}"
        f" (serieskit/conventions.py _backtracking_risk)")
    for pattern, what in RE_WALKED.items():
        found = _backtracking_risk(re._parser.parse(pattern))
        assert (found or "").startswith(what or "") and (found is None) == (what is None), (
            f"Python {sys.version.split()[0]} parses {pattern!r} into another tree ({found!r}, expected {what!r}): "
            f"update serieskit/conventions.py _backtracking_risk")
