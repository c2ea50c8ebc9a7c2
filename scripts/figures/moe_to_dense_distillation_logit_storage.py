"""Storage cost of teacher logits per token: full vocabulary vs. a sparse top-k / sampled-k cache.

Post: series/train-infer-accel/moe-to-dense-distillation.md (§六).

Formulas (stated in the post):
    full vocabulary:   S_full(V) = V * b_val
    sparse k entries:  S_k       = k * (b_idx + b_val)
with b_val = 2 bytes (bf16 value) and b_idx = 4 bytes (int32 token id; every vocabulary below is
larger than 65,536, so a 16-bit id does not fit). Per 10^9 tokens the cost is S * 1e9 bytes.

Vocabulary sizes are the `vocab_size` of the public Hugging Face configs (the lm_head width, padded):
DeepSeek-V3 / V4 129,280; Qwen3 151,936; Qwen3.5 248,320 (model card: "Token Embedding: 248320
(Padded)"); Gemma 3 262,208. k = 256 is the number Gemma 3 reports ("We sample 256 logits per
token"); k = 16 and 64 are illustrative. All numbers are computed, not measured (示意).
"""
from __future__ import annotations

import numpy as np

from _figstyle import LINE, PALETTE, SERIES_COLORS, plt, save

B_VAL = 2  # bf16 logit / log-prob value
B_IDX = 4  # int32 token id

VOCABS = [
    ("DeepSeek-V3/V4\nV=129,280", 129_280),
    ("Qwen3\nV=151,936", 151_936),
    ("Qwen3.5\nV=248,320", 248_320),
    ("Gemma 3\nV=262,208", 262_208),
]
KS = [256, 64, 16]


def full_bytes(v: int) -> int:
    return v * B_VAL


def sparse_bytes(k: int) -> int:
    return k * (B_IDX + B_VAL)


def human(n: float) -> str:
    if n >= 10 * 1024:
        return f"{n / 1024:.0f} KiB"
    if n >= 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n:.0f} B"


def main() -> None:
    labels = [name for name, _ in VOCABS]
    full = np.array([full_bytes(v) for _, v in VOCABS], dtype=float)
    sparse = {k: np.full(len(VOCABS), sparse_bytes(k), dtype=float) for k in KS}

    fig, ax = plt.subplots(figsize=(8.6, 4.6))
    x = np.arange(len(VOCABS))
    width = 0.2
    series = [("全词表 bf16", full, SERIES_COLORS[0], PALETTE["blue"]["fill"])]
    fills = [PALETTE["pink"]["fill"], PALETTE["green"]["fill"], PALETTE["yellow"]["fill"]]
    for (k, fill), color in zip(zip(KS, fills), SERIES_COLORS[1:]):
        series.append((f"top-/采样 k={k}", sparse[k], color, fill))

    for i, (name, vals, stroke, fill) in enumerate(series):
        pos = x + (i - 1.5) * width
        ax.bar(pos, vals, width, label=name, color=fill, edgecolor=stroke, linewidth=1.2)
        for p, v in zip(pos, vals):
            ax.text(p, v * 1.15, human(v), ha="center", va="bottom", fontsize=8, color=LINE, rotation=90)

    ax.set_yscale("log")
    ax.set_ylim(50, 5e6)
    ax.set_xticks(x)
    ax.set_xticklabels(labels, fontsize=9)
    ax.set_ylabel("每 token 存储（字节，对数轴）")
    ax.set_title("教师 logits 缓存：全词表 vs 稀疏 k 项（示意，按公式计算）", fontsize=12)
    ax.legend(ncol=4, fontsize=9, loc="upper left")

    # Per 10^9 tokens, for the text under the chart: full Qwen3 vs k=256.
    tb_full = full_bytes(151_936) * 1e9 / 1e12
    tb_256 = sparse_bytes(256) * 1e9 / 1e12
    ax.set_xlabel(
        f"每 10 亿 token 的缓存量：Qwen3 全词表 ≈ {tb_full:.0f} TB，k=256 ≈ {tb_256:.2f} TB（b_idx=4 B，b_val=2 B）",
        fontsize=9, color=LINE,
    )
    ax.grid(axis="x", visible=False)
    save(fig, "train-infer-accel/assets/moe-to-dense-distillation-logit-storage.svg")


if __name__ == "__main__":
    main()
