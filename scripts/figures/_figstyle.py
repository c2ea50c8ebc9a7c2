"""Shared style for the series' chart scripts: the pastel palette from conventions.yml, a font stack
that covers Chinese, and a deterministic SVG writer (same input, byte-identical file).

A chart script computes its numbers from formulas stated in its post, draws with matplotlib and
calls `save(fig, "<series>/assets/<name>.svg")`. Text stays text in the SVG (`svg.fonttype: none`),
so the reader's browser draws it with the site's own fonts.
"""
from __future__ import annotations

import io
import pathlib
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import matplotlib  # noqa: E402

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402

_CONV = yaml.safe_load((ROOT / "conventions.yml").read_text(encoding="utf-8"))
PALETTE = {c["name"]: {"fill": c["fill"], "stroke": c["stroke"]} for c in _CONV["palette"]}
TEXT = _CONV["neutrals"]["text"]
LINE = _CONV["neutrals"]["line"]
# Strokes are the saturated member of each pair: use them for lines and markers, fills for areas.
SERIES_COLORS = [PALETTE[n]["stroke"] for n in ("blue", "pink", "green", "yellow")]

plt.rcParams.update({
    "svg.fonttype": "none",
    "svg.hashsalt": "train-infer-accel",
    "font.family": ["Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei", "DejaVu Sans"],
    "font.size": 11,
    "axes.edgecolor": LINE,
    "axes.labelcolor": TEXT,
    "axes.titlecolor": TEXT,
    "xtick.color": LINE,
    "ytick.color": LINE,
    "text.color": TEXT,
    "axes.grid": True,
    "grid.color": "#E5E7EB",
    "grid.linewidth": 0.8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": matplotlib.cycler(color=SERIES_COLORS),
    "figure.facecolor": "#FFFFFF",
    "axes.facecolor": "#FFFFFF",
    "legend.frameon": False,
    "axes.unicode_minus": False,
})


def out_path(rel: str) -> pathlib.Path:
    """Path of a figure under series/ (e.g. "train-infer-accel/assets/x.svg")."""
    return ROOT / "series" / rel


def save(fig, rel: str) -> pathlib.Path:
    """Write the figure as SVG under series/, deterministically (no date, fixed ids)."""
    return save_path(fig, out_path(rel))


def save_path(fig, path: pathlib.Path) -> pathlib.Path:
    """Write the figure as SVG at `path` (e.g. under docs/assets/), deterministically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    text = buf.getvalue()
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return path
