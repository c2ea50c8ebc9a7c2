"""The pages the build generates, in one table: where each goes, its title, what writes it, and
where it sits in the navigation. Read by the model (links to these pages are valid), by the page
generator (serieskit/render/pages.py `generated_pages`) and by any host's adapter (hooks/ for MkDocs).

Plain data, no import of the model: the model imports it.

- `path`: the page's place in the site (a `.md` path; `{series}` is each series' slug);
- `title`: its navigation title and heading (`None`: the series' index title, from its manifest);
- `builder`: the function of serieskit/render/pages.py that writes its Markdown;
- `nav`: `"series"`, at the head of its series' section, in this table's order; `"lists"`, after the
  series and the standalone posts, in this table's order (where `mkdocs.yml`'s nav has its
  `SERIES_NAV` entry);
- `reads`: `"site"`, written again for every build; `"conventions"`, a page that reads nothing of
  the site but conventions.yml (the rules page), written once for each version of that file.

A builder takes `(site, include_drafts)`, or `(series, site, include_drafts)` for a row whose path
has `{series}`, and returns the page's Markdown.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GeneratedPage:
    path: str
    title: str | None
    builder: str
    nav: str
    reads: str = "site"

    @property
    def per_series(self) -> bool:
        return "{series}" in self.path

    def path_of(self, series_slug: str) -> str:
        """The page's place for a series (a row per series), or its one place."""
        return self.path.format(series=series_slug) if self.per_series else self.path


RULES_PAGE = "rules.md"   # 写作规范, where the editor's diagnostics link (serieskit/model/urls.py `rules_url`)

PAGES = (
    GeneratedPage("tags.md", "标签", "tags_page", "lists"),
    GeneratedPage("archive.md", "归档", "archive_page", "lists"),
    GeneratedPage(RULES_PAGE, "写作规范", "rules_page", "lists", reads="conventions"),
    GeneratedPage("{series}/index.md", None, "series_index", "series"),
)

def page_titles(series_slugs) -> dict[str, str | None]:
    """Every page the build generates for these series, by path: its title from the table (None: the
    page's own, e.g. a series' index title)."""
    return {p.path_of(slug): p.title for p in PAGES for slug in (series_slugs if p.per_series else [""])}

# The entry of a navigation that stands for the series, the standalone posts (随笔) and the "lists"
# pages above (mkdocs.yml `nav:`); everything else in that navigation is written by hand.
SERIES_NAV = "@series"
STANDALONE_TITLE = "随笔"
