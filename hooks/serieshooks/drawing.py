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


def start(session, config, root, log) -> None:
    if getattr(session, "drawer", None) is None:
        mode = mode_from_env("auto" if session.serving else "build")
        session.drawer = Drawer(root, config.extra.get("mermaid_args"), mode)
        if session.drawer.reason:
            log.info(f"diagrams and formulas are drawn in the browser: {session.drawer.reason}")
        elif not session.drawer.drawing:
            log.info("diagrams and formulas are drawn in the browser (SERIES_DRAW=browser)")
    drawer = session.drawer
    mdext.use_drawer(drawer)
    if not drawer.drawing:
        for script in BROWSER_SCRIPTS:
            if script not in config.extra_javascript:
                config.extra_javascript.append(script)


def in_browser(session) -> bool:
    drawer = getattr(session, "drawer", None)
    return drawer is None or not drawer.drawing


def end_build(session, log) -> None:
    drawer = getattr(session, "drawer", None)
    if drawer is None:
        return
    drawer.end_build()
    s = drawer.stats
    if s:
        log.info("drawn: " + ", ".join(f"{v} {k}" for k, v in sorted(s.items())))
        s.clear()
    if not session.serving:
        close(session)


def close(session) -> None:
    drawer = getattr(session, "drawer", None)
    if drawer is not None:
        drawer.close()
