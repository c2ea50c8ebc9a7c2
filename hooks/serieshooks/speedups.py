"""The speed-ups, behind one switch: SERIES_SPEEDUPS (on unless it is 0, false, no or off).

- `mkdocs serve`: each page's Markdown conversion is memoised across rebuilds (hooks/serieshooks/serve_cache.py;
  it needs a MkDocs internal, hooks/serieshooks/upstream.py): an edit refreshes the page sooner
  (scripts/bench_serve.py; the figures with and without it are on the 性能 page, 预览刷新).
- every build: the objects made before the pages are rendered (parsed posts, files, pages,
  navigation) live until the build ends, so they are kept out of the cyclic garbage collector's full
  passes, which would otherwise walk all of them again and again (CPython's `gc.freeze`; objects still
  go when their last reference does); scripts/bench_build.py measures it (the figures are on the 性能
  page, 构建速度).

Off, the site is the same (tests/test_reproducible.py builds it both ways), with public APIs only but
for the SPEC002 guard (hooks/serieshooks/upstream.py).
"""
from __future__ import annotations

import gc
import os

ENV = "SERIES_SPEEDUPS"


def on() -> bool:
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def start_build() -> None:
    """The previous (serve) build's frozen objects may be collected again."""
    gc.unfreeze()


def pages_about_to_render() -> None:
    if on():
        gc.freeze()
