"""The navigation: mkdocs.yml's `nav:` is written by hand (home, about, 性能, any new docs/ page); its
`"@series"` entry becomes the series, their posts, the standalone posts and the generated lists
(serieskit/render/pages.py `navigation`, from the page table). Previous / next follow the series order.
"""
from __future__ import annotations

from serieskit.render.pages import navigation
from serieskit.model.pagetable import SERIES_NAV

from .state import BuildState


def expand(config, state: BuildState) -> None:
    """on_config: the configured navigation with the series in place of its SERIES_NAV entry."""
    b = state.build
    if config.nav is not None and SERIES_NAV in config.nav:
        config.nav = navigation(b.site, b.include_drafts, config.nav)


def series_order(nav, files, state: BuildState) -> None:
    """on_nav: each post's previous and next page are its neighbours in its series."""
    b = state.build
    for s in b.site.series.values():
        found = [files.get_file_from_path(p.site_path) for p in b.site.series_posts(s.slug, b.include_drafts)]
        pages_ = [f.page for f in found if f is not None and f.page is not None]
        for i, page in enumerate(pages_):
            page.previous_page = pages_[i - 1] if i > 0 else None
            page.next_page = pages_[i + 1] if i + 1 < len(pages_) else None
