"""The Zensical adapter: the site built by Zensical, the successor of Material for MkDocs, from the
engine's page plan (`make zensical`, `python zensical_adapter/build.py`). It sits beside hooks/, the
MkDocs adapter, and like it only adapts the engine (serieskit/) to its host:

- build.py: the gate, the page plan written as sources, `zensical build`, the output gate's findings,
  the Content-Security-Policy, the feeds and the search index;
- upstream.py: every reliance on Zensical or Material beyond their documented interfaces, with the
  code that relies on it and the tests that pin it;
- zensical.css: the few rules the site adds for Zensical's look.
"""

INSTALL = "pip install -e '.[zensical]'"


class Failed(Exception):
    """The build stops; the message says why (no traceback)."""
