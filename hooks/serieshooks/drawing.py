"""Diagrams and formulas drawn by the build (serieskit/publish/draw/): one drawer per process (its renderers
live as long as a serve session), handed to the Markdown extension that uses it (serieskit/publish/mdext.py).

`mkdocs build` draws, and stops naming what to install when it cannot (unless SERIES_DRAW=browser
asks for the fallback); `mkdocs serve` draws when it can, else leaves the drawing to the browser and
says so once. In the fallback the pages load the site's own mermaid and KaTeX scripts, as before.
"""
from __future__ import annotations

from serieskit.publish import mdext
from serieskit.publish.draw import Drawer, mode_from_env
from serieskit.publish.plan import BROWSER_SCRIPTS


def start(process, config, root, log) -> None:
    if process.drawer is None:
        mode = mode_from_env("auto" if process.serving else "build")
        process.drawer = Drawer(root, config.extra.get("mermaid_args"), mode)
        if process.drawer.reason:
            log.info(f"diagrams and formulas are drawn in the browser: {process.drawer.reason}")
        elif not process.drawer.drawing:
            log.info("diagrams and formulas are drawn in the browser (SERIES_DRAW=browser)")
    drawer = process.drawer
    mdext.use_drawer(drawer)
    if not drawer.drawing:
        for script in BROWSER_SCRIPTS:
            if script not in config.extra_javascript:
                config.extra_javascript.append(script)


def in_browser(process) -> bool:
    drawer = process.drawer
    return drawer is None or not drawer.drawing


def end_build(process, log) -> None:
    drawer = process.drawer
    if drawer is None:
        return
    drawer.end_build()
    s = drawer.stats
    if s:
        log.info("drawn: " + ", ".join(f"{v} {k}" for k, v in sorted(s.items())))
        s.clear()
    if not process.serving:
        close(process)


def close(process) -> None:
    drawer = process.drawer
    if drawer is not None:
        drawer.close()
