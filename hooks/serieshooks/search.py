"""The search index of `mkdocs build` (serieskit/publish/searchindex.py does the work): written after the
pages; `mkdocs serve` writes none (the search box says so), so an edit refreshes the preview without
indexing the site again. A reason the index cannot be written stops the build, without a traceback.
"""
from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError

from serieskit.publish.searchindex import BUNDLE, SearchIndexError, write_index


def index_site(site_dir: Path, log) -> None:
    try:
        indexed = write_index(site_dir)
    except SearchIndexError as exc:
        raise PluginError(str(exc)) from None
    log.debug(f"search: {indexed} pages indexed into {BUNDLE}/")
