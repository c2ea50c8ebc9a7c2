"""The speed-ups, behind one switch: SERIES_SPEEDUPS (on unless it is 0, false, no or off).

- `mkdocs serve`: each page's Markdown conversion is memoised across rebuilds (hooks/serieshooks/serve_cache.py;
  it needs a MkDocs internal, hooks/serieshooks/upstream.py). On the real site, on a busy 2-core machine:
  edit-to-refresh 1.32 s with it, 2.35 s without (scripts/bench_serve.py --quick, the 性能 page).
- every build: the objects made before the pages are rendered (parsed posts, files, pages,
  navigation) live until the build ends, so they are kept out of the cyclic garbage collector's full
  passes, which would otherwise walk all of them again and again (CPython's `gc.freeze`; objects still
  go when their last reference does). Measured: 5.55 / 5.76 s at N = 100, 64.5 / 66.2 s at N = 1000
  with / without it (scripts/bench_build.py), where the build target (a/b <= 0.9) has little margin.

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
