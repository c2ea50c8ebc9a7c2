"""The pages the build generates, in one table: where each goes, its title, what writes it, and
where it sits in the navigation. Read by the model (links to these pages are valid), by the page
generator (serieskit/render/pages.py `generated_pages`) and by any host's adapter (hooks/ for MkDocs).

Plain data, no import of the model: the model imports it.

- `path`: the page's place in the site (a `.md` path; `{series}` is each series' slug);
- `title`: its navigation title and heading (`None`: the series' index title, from its manifest);
- `builder`: the function of serieskit/render/pages.py that writes its Markdown;
- `nav`: `"series"`, at the head of its series' section; `"lists"`, after the series and the
  standalone posts, in this table's order (where `mkdocs.yml`'s nav has its `SERIES_NAV` entry).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GeneratedPage:
    path: str
    title: str | None
    builder: str
    nav: str


RULES_PAGE = "rules.md"   # 写作规范, where the editor's diagnostics link (serieskit/model/urls.py `rules_url`)

PAGES = (
    GeneratedPage("tags.md", "标签", "tags_page", "lists"),
    GeneratedPage("archive.md", "归档", "archive_page", "lists"),
    GeneratedPage(RULES_PAGE, "写作规范", "rules_page", "lists"),
    GeneratedPage("{series}/index.md", None, "series_index", "series"),
)

# The site-wide generated pages (one each, not one per series).
SITE_PAGES = tuple(p.path for p in PAGES if "{series}" not in p.path)

# The entry of a navigation that stands for the series, the standalone posts (随笔) and the "lists"
# pages above (mkdocs.yml `nav:`); everything else in that navigation is written by hand.
SERIES_NAV = "@series"
STANDALONE_TITLE = "随笔"
