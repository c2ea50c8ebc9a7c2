"""The search index of `mkdocs build` (serieskit/publish/searchindex.py does the work): written after the
pages; `mkdocs serve` writes none (the search box says so), so an edit refreshes the preview without
indexing the site again. A reason the index cannot be written stops the build, without a traceback.

The indexer is started first among the post-build steps and runs in a thread of its own while the
hook writes the feeds: most of its time is spent waiting for its two processes (the segmenter in
Node and Pagefind), which then use the machine's other core.
"""
from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from mkdocs.exceptions import PluginError

from serieskit.publish.searchindex import BUNDLE, SearchIndexError, write_index


def start(site_dir: Path) -> Future:
    """Begin indexing the written pages; `finish` waits for it. Nothing the steps after it write is
    read by the indexer (it reads the pages, `*.html`)."""
    pool = ThreadPoolExecutor(1, thread_name_prefix="search-index")
    try:
        return pool.submit(write_index, site_dir)
    finally:
        pool.shutdown(wait=False)


def finish(indexing: Future, log, report: bool = True) -> None:
    """Wait for the index. `report=False`: the build already fails for another reason (a strict build
    whose feeds had an error, which the strict gate names; a step that raised): whatever stopped the
    index is not raised over it."""
    try:
        indexed = indexing.result()
    except Exception as exc:
        if not report:
            log.debug(f"search: no index ({exc})")
            return
        if isinstance(exc, SearchIndexError):
            raise PluginError(str(exc)) from None
        raise
    log.debug(f"search: {indexed} pages indexed into {BUNDLE}/")
