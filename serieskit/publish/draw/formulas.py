"""Formulas drawn by the build: the site's pinned KaTeX in one Node process per build
(serieskit/publish/draw/katex.mjs), its HTML and MathML sanitized. The page then needs only KaTeX's
stylesheet and fonts, no script."""
from __future__ import annotations

import shutil
from pathlib import Path

from serieskit import sanitize
from .diagrams import Drawn
from .worker import Worker, npm_version

HERE = Path(__file__).resolve().parent
SETTINGS = {"throwOnError": True, "trust": False, "strict": "ignore", "output": "htmlAndMathml"}


def version(root: Path) -> str | None:
    return npm_version(root, "katex")


def missing(root: Path) -> str | None:
    if shutil.which("node") is None:
        return "Node.js is missing (it renders the formulas): install `nodejs`"
    if version(root) is None:
        return "node_modules/katex is missing: run `npm ci`"
    return None


def worker(root: Path) -> Worker:
    return Worker("KaTeX (Node)", ["node", str(HERE / "katex.mjs"), str(root / "node_modules/katex")], cwd=str(root))


def finish(result: dict) -> Drawn:
    if "html" not in result:
        where = result.get("position")
        return Drawn(error=str(result.get("error", "KaTeX failed")), removed=[] if where is None else [])
    cleaned = sanitize.clean(result["html"])
    return Drawn(html=cleaned.html, removed=cleaned.removed)
