"""Three-axis classification of the series' acceleration techniques, for the post
《训推加速技术地图》(series/train-infer-accel/tech-map.md, §二, 图 1).

Not a chart of measured numbers: it lays the techniques of §四's table on a grid,
  rows    = axis 1, the stage (预训练 / 后训练 / 推理服务),
  columns = axis 2, the bottleneck the technique relieves,
  colour  = axis 3, the layer the technique reaches (模型层 / 框架层 / 算子层 / 系统层),
using the same palette as the mermaid diagrams (pink / blue / green / yellow).
The placement is the author's classification (§二 gives the judging questions), not a benchmark.

Run from the repository root: `.venv/bin/python scripts/figures/tech_map_axes.py`.
"""
from __future__ import annotations

from matplotlib.patches import FancyBboxPatch, Patch

from _figstyle import LINE, PALETTE, TEXT, plt, save

STAGES = ["预训练", "后训练", "推理服务"]
STAGE_NOTES = ["", "SFT / RL / 蒸馏", "LLM 与多模态"]
BOTTLENECKS = ["算力", "显存容量", "显存带宽", "通信", "调度 / CPU /\n串行依赖"]

# axis 3: the layer a technique reaches -> palette colour (same mapping as the post's mermaid)
LAYERS = {
    "model": ("模型层（改结构或权重）", "pink"),
    "framework": ("框架层（并行 / 调度 / 内存管理）", "blue"),
    "kernel": ("算子层（kernel / 数值格式）", "green"),
    "system": ("系统层（通信 / 拓扑 / 部署形态）", "yellow"),
}

# (stage index, bottleneck index, label, layer) -- mirrors the table in §四 of the post
TECHNIQUES = [
    # 预训练
    (0, 0, "FP8 训练", "kernel"),
    (0, 0, "Grouped GEMM", "kernel"),
    (0, 0, "MoE 稀疏激活", "model"),
    (0, 1, "ZeRO / FSDP", "framework"),
    (0, 1, "激活重计算", "framework"),
    (0, 1, "TP / PP / CP", "framework"),
    (0, 2, "算子融合", "kernel"),
    (0, 2, "FlashAttention", "kernel"),
    (0, 3, "EP + DeepEP", "system"),
    (0, 3, "通信计算重叠", "framework"),
    (0, 4, "交错流水线", "framework"),
    (0, 4, "无辅助损失均衡", "model"),
    # 后训练
    (1, 0, "GRPO 去 critic", "model"),
    (1, 1, "训推共卡重分片", "framework"),
    (1, 2, "Rollout 用推理引擎", "framework"),
    (1, 3, "权重同步", "system"),
    (1, 4, "全异步 RL", "framework"),
    (1, 4, "动态采样 / 长尾", "model"),
    (1, 0, "MoE→Dense 蒸馏", "model"),
    # 推理服务
    (2, 0, "前缀缓存", "framework"),
    (2, 0, "视觉 token 压缩", "model"),
    (2, 1, "PagedAttention", "framework"),
    (2, 1, "GQA / MLA", "model"),
    (2, 1, "KV cache 量化", "kernel"),
    (2, 2, "权重量化", "model"),
    (2, 2, "连续批处理", "framework"),
    (2, 3, "PD 分离", "system"),
    (2, 3, "EP + DeepEP", "system"),
    (2, 4, "Chunked Prefill", "framework"),
    (2, 4, "投机解码", "framework"),
    (2, 4, "CUDA Graph", "kernel"),
    (2, 4, "动作分块", "model"),
]

CELL_W, CELL_H = 2.2, 2.0
CHIP_W, CHIP_H, CHIP_GAP = 1.95, 0.36, 0.08
X0, Y0 = 2.3, 0.0  # left margin holds the stage labels


def cell_origin(stage: int, bottleneck: int) -> tuple[float, float]:
    """Top-left corner of a grid cell (y grows downwards in the drawing's logic)."""
    x = X0 + bottleneck * CELL_W
    y = Y0 - stage * CELL_H
    return x, y


def main() -> None:
    fig, ax = plt.subplots(figsize=(10.0, 5.8))
    ax.set_axis_off()
    ax.grid(False)

    n_rows, n_cols = len(STAGES), len(BOTTLENECKS)
    # grid lines
    for r in range(n_rows + 1):
        y = Y0 - r * CELL_H
        ax.plot([X0, X0 + n_cols * CELL_W], [y, y], color=LINE, lw=0.8)
    for c in range(n_cols + 1):
        x = X0 + c * CELL_W
        ax.plot([x, x], [Y0, Y0 - n_rows * CELL_H], color=LINE, lw=0.8)

    # axis titles and labels
    for c, name in enumerate(BOTTLENECKS):
        ax.text(X0 + (c + 0.5) * CELL_W, Y0 + 0.35, name, ha="center", va="bottom", fontsize=11,
                color=TEXT, fontweight="bold")
    ax.text(X0 + n_cols * CELL_W / 2, Y0 + 1.05, "第二维：瓶颈（这项技术缓解的是哪种资源的紧张）",
            ha="center", va="bottom", fontsize=11, color=TEXT)
    for r, (name, note) in enumerate(zip(STAGES, STAGE_NOTES)):
        ax.text(X0 - 0.15, Y0 - (r + 0.5) * CELL_H + 0.12, name, ha="right", va="center", fontsize=11,
                color=TEXT, fontweight="bold")
        if note:
            ax.text(X0 - 0.15, Y0 - (r + 0.5) * CELL_H - 0.22, note, ha="right", va="center", fontsize=9,
                    color=LINE)
    ax.text(X0 - 2.05, Y0 - n_rows * CELL_H / 2, "第一维：阶段", ha="center", va="center",
            rotation=90, fontsize=11, color=TEXT)

    # chips: stack the techniques of each cell top-down
    filled: dict[tuple[int, int], int] = {}
    for stage, bott, label, layer in TECHNIQUES:
        k = filled.get((stage, bott), 0)
        filled[(stage, bott)] = k + 1
        x, y = cell_origin(stage, bott)
        cx = x + (CELL_W - CHIP_W) / 2
        cy = y - 0.16 - (k + 1) * CHIP_H - k * CHIP_GAP
        colour = PALETTE[LAYERS[layer][1]]
        ax.add_patch(FancyBboxPatch((cx, cy), CHIP_W, CHIP_H, boxstyle="round,pad=0,rounding_size=0.08",
                                    facecolor=colour["fill"], edgecolor=colour["stroke"], lw=1.1))
        ax.text(cx + CHIP_W / 2, cy + CHIP_H / 2, label, ha="center", va="center", fontsize=8.8, color=TEXT)
    assert max(filled.values()) * (CHIP_H + CHIP_GAP) + 0.16 <= CELL_H, "a cell overflows"

    handles = [Patch(facecolor=PALETTE[c]["fill"], edgecolor=PALETTE[c]["stroke"], label=name)
               for name, c in LAYERS.values()]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.58, 0.0), ncol=2, fontsize=10,
              title="第三维：触达层（颜色）", title_fontsize=10, frameon=False)

    ax.set_xlim(X0 - 2.3, X0 + n_cols * CELL_W + 0.1)
    ax.set_ylim(Y0 - n_rows * CELL_H - 0.1, Y0 + 1.5)
    ax.set_aspect("equal")
    save(fig, "train-infer-accel/assets/tech-map-axes.svg")


if __name__ == "__main__":
    main()
