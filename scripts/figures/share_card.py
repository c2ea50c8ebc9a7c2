"""The site's default share image (link previews: Open Graph / Twitter card), 1200 x 630 PNG, in the
series' palette: docs/assets/images/share.png. A post may name its own with `image:` in its
frontmatter. Run: python scripts/figures/share_card.py"""
from __future__ import annotations

import io

import yaml
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch

from _figstyle import PALETTE, ROOT, TEXT

OUT = ROOT / "docs" / "assets" / "images" / "share.png"


def main() -> None:
    head = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\ntheme:", 1)[0]
    cfg = {k: v for k, v in (yaml.safe_load("\n".join(ln for ln in head.splitlines() if "!ENV" not in ln)) or {}).items()}
    fig = Figure(figsize=(12, 6.3), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, 1200)
    ax.set_ylim(0, 630)
    ax.axis("off")
    fig.patch.set_facecolor("#FFFFFF")
    for i, name in enumerate(("yellow", "blue", "green", "pink")):
        c = PALETTE[name]
        ax.add_patch(FancyBboxPatch((80 + i * 270, 70), 230, 90, boxstyle="round,pad=0,rounding_size=18",
                                    facecolor=c["fill"], edgecolor=c["stroke"], linewidth=3))
    ax.text(80, 470, cfg["site_name"], fontsize=84, fontweight="bold", color=TEXT, va="center")
    head, _, rest = cfg["site_description"].partition("：")
    ax.text(80, 345, head + ("：" if rest else ""), fontsize=30, color=TEXT, va="center")
    if rest:
        ax.text(80, 290, rest, fontsize=30, color=TEXT, va="center")
    ax.text(80, 215, cfg["site_author"], fontsize=24, color="#4B5563", va="center")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    OUT.parent.mkdir(parents=True, exist_ok=True)
    if not OUT.exists() or OUT.read_bytes() != buf.getvalue():
        OUT.write_bytes(buf.getvalue())
    print(OUT.relative_to(ROOT))


if __name__ == "__main__":
    main()
