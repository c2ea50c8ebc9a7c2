"""The front-end libraries the site serves itself (never from a CDN): mermaid and KaTeX, from
node_modules (pinned by package.json and its lock file). Any host copies the files this lists."""
from __future__ import annotations

from pathlib import Path

VENDOR = {
    # package: (path inside node_modules, destination under the site, what is served) — no source maps.
    # The build draws diagrams and formulas (serieskit/publish/draw/): pages need KaTeX's stylesheet and fonts only.
    "katex": ("katex/dist", "assets/vendor/katex", ("katex-swap.min.css", "fonts/")),
}
# The fallback that leaves the drawing to the reader's browser (SERIES_DRAW=browser, or `mkdocs serve`
# without a browser to draw with) serves the renderers too.
BROWSER_VENDOR = {
    "mermaid": ("mermaid/dist", "assets/vendor/mermaid", ("mermaid.esm.min.mjs", "chunks/mermaid.esm.min/")),
    "katex": ("katex/dist", "assets/vendor/katex", ("katex.min.js", "contrib/auto-render.min.js")),
}
SUFFIX = {"mermaid": ".mjs", "katex": ".woff2"}   # what a folder entry serves


class VendorMissing(Exception):
    """node_modules lacks a file; the message says to run `npm ci`."""


def vendor_files(root: Path, browser: bool = False) -> list[tuple[Path, str]]:
    """Each served file: its path on disk and its path in the site (`browser`: with the renderers)."""
    nm = root / "node_modules"
    out = []
    tables = [VENDOR, BROWSER_VENDOR] if browser else [VENDOR]
    for pkg, (inner, dest, wanted) in ((p, v) for t in tables for p, v in t.items()):
        base = nm / inner
        if not base.is_dir():
            raise VendorMissing(f"node_modules/{pkg} is missing (mermaid and KaTeX are served from the site itself, "
                                f"never from a CDN): run `npm ci` in {root}")
        for w in wanted:
            if w.endswith("/"):
                sources = sorted(p for p in (base / w).rglob("*") if p.is_file() and p.suffix == SUFFIX[pkg])
            else:
                sources = [base / w]
            for p in sources:
                if not p.is_file():
                    raise VendorMissing(f"{p.relative_to(root)} is missing: run `npm ci` in {root}")
                out.append((p, f"{dest}/{p.relative_to(base).as_posix()}"))
    return out
