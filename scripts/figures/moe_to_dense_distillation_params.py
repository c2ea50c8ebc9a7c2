"""Total vs. activated parameters of the teachers and students in the public recipes.

Post: series/train-infer-accel/moe-to-dense-distillation.md (§一).

Numbers are the nominal values stated by the model owners (technical reports / model cards):
  DeepSeek-R1 (DeepSeek-V3 architecture): 671B total, 37B activated (R1 paper, Table 4).
  DeepSeek-V4-Pro 1.6T / 49B, DeepSeek-V4-Flash 284B / 13B (DeepSeek-V4 model card).
  Qwen3-235B-A22B 235B / 22B, Qwen3-30B-A3B 30B / 3B, dense Qwen3-32B / 14B / 8B (Qwen3 report;
  the MoE names encode total/active).
  DeepSeek-R1-Distill-Qwen-32B / -Llama-70B / -Qwen-7B: dense students fine-tuned from Qwen2.5-32B,
  Llama-3.3-70B-Instruct and Qwen2.5-Math-7B (R1 paper §2.4); nominal sizes from the names.
Weight memory in bf16 (2 bytes / parameter) is computed as total * 2, weights only, no KV cache (示意).
"""
from __future__ import annotations

import numpy as np

from _figstyle import LINE, PALETTE, plt, save

# (name, total B, active B, role)
MODELS = [
    ("DeepSeek-V4-Pro", 1600, 49, "MoE，后训练用 OPD 整合"),
    ("DeepSeek-R1 (V3 架构)", 671, 37, "MoE 教师"),
    ("DeepSeek-V4-Flash", 284, 13, "MoE，后训练用 OPD 整合"),
    ("Qwen3-235B-A22B", 235, 22, "MoE 教师"),
    ("R1-Distill-Llama-70B", 70, 70, "Dense 学生"),
    ("Qwen3-32B", 32, 32, "Dense 教师"),
    ("R1-Distill-Qwen-32B", 32, 32, "Dense 学生"),
    ("Qwen3-30B-A3B", 30, 3, "MoE 学生"),
    ("Qwen3-14B", 14, 14, "Dense 学生"),
    ("Qwen3-8B", 8, 8, "Dense 学生"),
    ("R1-Distill-Qwen-7B", 7, 7, "Dense 学生"),
]


def bf16_weight_gb(total_b: float) -> float:
    return total_b * 1e9 * 2 / 1e9


def main() -> None:
    names = [m[0] for m in MODELS]
    total = np.array([m[1] for m in MODELS], dtype=float)
    active = np.array([m[2] for m in MODELS], dtype=float)
    roles = [m[3] for m in MODELS]

    fig, ax = plt.subplots(figsize=(8.6, 5.2))
    y = np.arange(len(MODELS))[::-1]
    is_moe = total > active
    ax.barh(y, total, height=0.62, color=[PALETTE["pink"]["fill"] if m else PALETTE["blue"]["fill"] for m in is_moe],
            edgecolor=[PALETTE["pink"]["stroke"] if m else PALETTE["blue"]["stroke"] for m in is_moe],
            linewidth=1.0, label="总参数")
    ax.barh(y, active, height=0.28, color=PALETTE["green"]["stroke"], label="激活参数 / token")
    for yi, t, a, role in zip(y, total, active, roles):
        ax.text(t * 1.08, yi, f"{t:.0f}B / {a:.0f}B · {role} · bf16 权重≈{bf16_weight_gb(t):,.0f} GB",
                va="center", fontsize=8, color=LINE)
    ax.set_xscale("log")
    ax.set_xlim(2, 6e4)
    ax.set_yticks(y)
    ax.set_yticklabels(names, fontsize=9)
    ax.set_xlabel("参数量（十亿，对数轴）")
    ax.set_title("公开配方里的教师与学生：总参数 vs 激活参数（官方标称值；显存为示意）", fontsize=11)
    ax.legend(loc="lower right", fontsize=9)
    ax.grid(axis="y", visible=False)
    save(fig, "train-infer-accel/assets/moe-to-dense-distillation-params.svg")


if __name__ == "__main__":
    main()
