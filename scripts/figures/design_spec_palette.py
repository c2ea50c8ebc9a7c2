"""The series' mermaid palette as swatches, read from conventions.yml (no hex value is typed here).

Stated in series/train-infer-accel/design-spec.md, §一: every diagram of the series uses the four
HF-style pastel classes yellow / blue / green / pink, each a (fill, stroke) pair, plus three neutrals
(text, line, white). This script draws one swatch per class: the box is filled with `fill`, outlined
with `stroke`, and labelled with both hex values and the mermaid usage (`class A yellow`).

Run from the repository root:
    .venv/bin/python scripts/figures/design_spec_palette.py
"""
from __future__ import annotations

import matplotlib.patches as mpatches

from _figstyle import LINE, TEXT, _CONV, plt, save

PALETTE = _CONV["palette"]            # list of {name, zh, fill, stroke}, in file order
NEUTRALS = _CONV["neutrals"]          # {text, line, white}
DEFAULT_NODE = _CONV.get("default_node", "")

ROLE = {  # how the series uses each class (a convention, not data from the file)
    "yellow": "入口 / 问题 / 输入",
    "blue": "主流程 / 计算步骤",
    "green": "产出 / 推荐路径",
    "pink": "瓶颈 / 风险 / 上界",
}


def main() -> None:
    n = len(PALETTE)
    fig, ax = plt.subplots(figsize=(10.5, 4.2))
    ax.set_xlim(0, n)
    ax.set_ylim(-1.55, 1.35)
    ax.axis("off")

    for i, c in enumerate(PALETTE):
        x0 = i + 0.08
        box = mpatches.FancyBboxPatch((x0, 0.05), 0.84, 0.95, boxstyle="round,pad=0.0,rounding_size=0.08",
                                      facecolor=c["fill"], edgecolor=c["stroke"], linewidth=2.2)
        ax.add_patch(box)
        cx = i + 0.5
        ax.text(cx, 0.74, f"{c['name']}（{c['zh']}）", ha="center", va="center", fontsize=12.5, color=TEXT)
        ax.text(cx, 0.47, f"fill {c['fill']}", ha="center", va="center", fontsize=10, color=TEXT,
                family="DejaVu Sans Mono")
        ax.text(cx, 0.25, f"stroke {c['stroke']}", ha="center", va="center", fontsize=10, color=c["stroke"],
                family="DejaVu Sans Mono")
        ax.text(cx, -0.12, ROLE.get(c["name"], ""), ha="center", va="center", fontsize=9.5, color=LINE)
        usage = f"class A {c['name']}" + (" / 默认" if c["name"] == DEFAULT_NODE else "")
        ax.text(cx, -0.34, usage, ha="center", va="center", fontsize=9, color=LINE)

    # neutrals strip
    y = -0.95
    ax.text(0.08, y, "中性色（任何图都可用）：", ha="left", va="center", fontsize=10, color=TEXT)
    for j, (key, hexv) in enumerate(NEUTRALS.items()):
        x = 1.45 + j * 1.05
        ax.add_patch(mpatches.Rectangle((x, y - 0.13), 0.22, 0.26, facecolor=hexv, edgecolor=LINE, linewidth=1))
        ax.text(x + 0.28, y, f"{key} {hexv}", ha="left", va="center", fontsize=9.5, color=TEXT,
                family="DejaVu Sans Mono")
    ax.text(0.08, -1.38, "数据来源：仓库根目录 conventions.yml 的 palette / neutrals 字段（脚本运行时读取，不手抄色值）",
            ha="left", va="center", fontsize=9, color=LINE)
    ax.set_title("训推加速系列 mermaid 配色：四个 pastel 类（fill / stroke）+ 三个中性色", fontsize=12.5, pad=8)
    save(fig, "train-infer-accel/assets/design-spec-palette.svg")
    for c in PALETTE:
        print(c["name"], c["fill"], c["stroke"])


if __name__ == "__main__":
    main()
