"""The Zensical adapter's reliances beyond Zensical's and Material's documented interfaces, all of
them, in one place; each is pinned by a test that fails loudly when an upgrade changes it
(tests/test_zensical.py, and tests/test_upstream.py for those a one-page Zensical build or the installed
package shows; Zensical is pinned at zensical==0.0.73 in pyproject.toml, Material at its own pin there).

1. Material's stylesheet found by glob (`search_box_css`): Zensical's stylesheet has no styles for
   Material's search box, which the site's search uses (overrides/partials/series-search.html), so the
   `.md-search` rules are taken from the installed `material` package's
   `templates/assets/stylesheets/main.*.min.css` (pin: test_materials_stylesheet_still_has_the_search_box_rules).
2. Zensical's template layout (`theme_templates`): the Content-Security-Policy hashes the theme's
   inline scripts from the partials of the installed `zensical` package's `templates/` folder, where
   Material keeps them (serieskit/publish/csp.py THEME_SCRIPTS; pin:
   test_zensicals_inline_script_partials_are_where_the_policy_reads_them).
3. The format of Zensical's log (`zensical_log`): its link check reads the link examples in the code
   blocks of the 写作规范 page as links (MkDocs does not), so by default only its count of warnings per
   file is shown, found by the `╭─[ file:line` lines it prints; when a `Warning` line of the report
   is not placed that way (its format changed), the report is shown whole, so nothing is hidden (pins:
   test_zensicals_link_check_warnings_are_counted_per_file, test_a_warning_in_another_format_is_shown_whole).

The code of these is in zensical_adapter/build.py:

4. Python-Markdown is handed a page without its frontmatter (`drawn_findings`): the Markdown extension's
   report of a page (serieskit/publish/mdext.py, appended to `.zensical/draw-report.jsonl` in
   Zensical's process) names the page by the digest of the Markdown it converted, and the adapter finds
   the page by the digest of its staged source after `FRONTMATTER` (Zensical reads the frontmatter in
   Rust, before zensical/markdown/render.py calls Python-Markdown). Were the frontmatter handed over
   too, no report would match a page, and the SEC003 / MER004 / MAT001 findings of the Zensical build
   would vanish silently (pins: tests/test_upstream.py
   test_zensical_converts_a_page_without_its_frontmatter; on the fixture site,
   tests/test_attack_corpus_browser.py test_every_payload_is_reported_at_its_line, whose Zensical build
   must report each payload as SEC003).
5. Zensical's own search index is `search.json` at the site's root (`build` deletes it): the site
   searches with Pagefind (serieskit/publish/searchindex.py), and Zensical's search is on unless
   mkdocs.yml turns it off (zensical/config.py; the site's `plugins: []` does not). Under another name
   the index would stay published, silently: a second full-text index of the site that nothing reads
   (pin: tests/test_upstream.py test_zensicals_own_search_index_is_search_json).
6. What Zensical writes after a page's content (base.html, partials/content.html; `ARTICLE` in
   `post_contents`): a post's feed entry is its page's HTML from the post header to the series'
   previous / next links, or, for a post without them (a standalone post), to Zensical's tag strip
   (`<nav class="md-tags"`) on a tagged page, else to `</article>` (the search body's `</div>` left
   out), as the MkDocs adapter takes `page.content`. Without `</article>` such a post stops the build,
   loudly ("Zensical wrote no page ..."); with more written before it, that goes into the feed entry
   (pins: tests/test_upstream.py test_zensical_closes_a_pages_content_with_article, which holds the
   text between an untagged page's content and `</article>` to nothing, and
   test_zensical_writes_a_pages_tags_after_its_content).
7. Zensical's own partials, which the site's copies of Material's replace (`custom_dir`, kept in the
   staged mkdocs.yml): overrides/partials/header.html and progress.html are Material's
   (hooks/serieshooks/upstream.py 3.), and Zensical's differ from Material's (its header gives the
   drawer and search buttons visually hidden names, reads the plugin `search`, not `material/search`,
   and writes `md-header__source` always; its progress bar has a name). On Zensical the site's pages
   carry Material's header and the site's progress bar (pin: tests/test_upstream.py
   test_zensicals_partials_the_overrides_replace_are_the_reviewed_ones: their SHA-256 as reviewed,
   so a change in either is compared with the override before the digest is updated).

Not reliances of this kind: the staged mkdocs.yml (Zensical documents that it reads MkDocs'
configuration) and the Python-Markdown extension both hosts run (serieskit/publish/mdext.py).
"""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

from serieskit.sanitize.css import rules_naming
from zensical_adapter import INSTALL, Failed


# --- 1. Material's stylesheet ----------------------------------------------------------------------
def search_box_css() -> str:
    spec = importlib.util.find_spec("material")
    found = sorted((Path(spec.origin).parent / "templates/assets/stylesheets").glob("main.*.min.css")) if spec else []
    if not found:
        raise Failed("Material for MkDocs' stylesheet is not installed (the search box's styles come from it): "
                     "run `make setup`")
    return "/* Material for MkDocs' search-box rules (MIT licence) */\n" + rules_naming(
        found[0].read_text(encoding="utf-8"), ".md-search")


# --- 2. Zensical's templates -----------------------------------------------------------------------
def theme_templates() -> Path:
    spec = importlib.util.find_spec("zensical")
    if spec is None or not spec.origin:
        raise Failed(f"Zensical is not installed: run `{INSTALL}` (or `make zensical`)")
    return Path(spec.origin).parent / "templates"


# --- 3. Zensical's log -----------------------------------------------------------------------------
ANSI = re.compile(r"\x1b\[[0-9;]*m")
WARNED = re.compile(r"╭─\[ ([^:\]]+)")
WARNING = re.compile(r"(?im)^\s*warning\b")


def zensical_log(output: str, verbose: bool) -> None:
    """Zensical's own report. Its link check reads the link examples in the code blocks of the
    写作规范 page as links (MkDocs does not), so by default only its count of warnings per file is shown."""
    output = ANSI.sub("", output)
    files: dict[str, int] = {}
    for name in WARNED.findall(output):
        files[name] = files.get(name, 0) + 1
    if verbose or len(WARNING.findall(output)) > sum(files.values()):
        sys.stderr.write(output)
        return
    if files:
        listed = ", ".join(f"{name}: {n}" for name, n in sorted(files.items()))
        print(f"INFO    -  Zensical: {sum(files.values())} warning(s) of its link check ({listed}); -v shows them",
              file=sys.stderr)
