"""Codebook interleaving patterns: at which serial step each (codebook k, frame t) token is produced.

Stated in series/train-infer-accel/music-generation.md, §三. For K codebooks and T frames
(0-based k, t), the step that produces token (k, t) is

    flatten (one token per step, frame-major):  step = t * K + k            -> K*T steps
    delay pattern (MusicGen):                   step = t + k                -> T + K - 1 steps
    parallel (all codebooks at once):           step = t                    -> T steps
    multi-scale (UniAudio / depth transformer): global step = t, local step = k inside it
                                                -> T global steps, each with K small local steps

K = 4 and T = 8 below, the sizes of MusicGen's EnCodec (4 codebooks) on 8 frames (0.16 s at 50 Hz).

Run from the repository root:
    .venv/bin/python scripts/figures/music_generation_patterns.py
"""
from __future__ import annotations

import matplotlib.patches as mpatches

from _figstyle import LINE, PALETTE, TEXT, plt, save

K, T = 4, 8

PATTERNS = [
    ("展平（逐 token）", lambda k, t: t * K + k, K * T, "blue", "步数 = K·T"),
    ("delay pattern（MusicGen）", lambda k, t: t + k, T + K - 1, "green", "步数 = T + K − 1"),
    ("全并行（每帧一次出 K 个）", lambda k, t: t, T, "yellow", "步数 = T，码本间无条件依赖"),
    ("多尺度（全局 t / 局部 k）", lambda k, t: t, T, "pink", "格内 = 全局步.局部步：全局 T 步，每步内 K 个局部小步"),
]


def main() -> None:
    fig, axes = plt.subplots(1, 4, figsize=(15, 3.6))
    for ax, (title, step_of, n_steps, cls, note) in zip(axes, PATTERNS):
        fill, stroke = PALETTE[cls]["fill"], PALETTE[cls]["stroke"]
        for k in range(K):
            for t in range(T):
                s = step_of(k, t)
                shade = 0.25 + 0.75 * (s / max(n_steps - 1, 1))
                ax.add_patch(mpatches.Rectangle((t, K - 1 - k), 0.94, 0.9, facecolor=fill, edgecolor=stroke,
                                                linewidth=0.8 + 1.2 * shade))
                label = f"{t}.{k}" if title.startswith("多尺度") else str(s)
                ax.text(t + 0.47, K - 1 - k + 0.45, label, ha="center", va="center", fontsize=8, color=TEXT)
        ax.set_xlim(-0.1, T + 0.1)
        ax.set_ylim(-0.9, K + 0.1)
        ax.set_aspect("equal")
        ax.set_xticks([t + 0.47 for t in range(T)])
        ax.set_xticklabels([str(t) for t in range(T)], fontsize=8)
        ax.set_yticks([K - 1 - k + 0.45 for k in range(K)])
        ax.set_yticklabels([f"q{k + 1}" for k in range(K)], fontsize=8)
        ax.tick_params(length=0)
        ax.grid(False)
        for sp in ax.spines.values():
            sp.set_visible(False)
        ax.set_title(f"{title}\n串行步数 = {n_steps}", fontsize=10.5)
        ax.text(T / 2, -0.6, note, ha="center", va="center", fontsize=8.5, color=LINE)
        ax.set_xlabel("帧 t", fontsize=8.5, color=LINE)
    fig.suptitle(f"K = {K} 个码本、T = {T} 帧时，每个 token 在第几步生成（格内数字 = 串行步序号）", fontsize=12, y=1.02)
    fig.tight_layout()
    save(fig, "train-infer-accel/assets/music-generation-patterns.svg")
    for title, _, n, _, _ in PATTERNS:
        print(f"{title}: {n} steps")


if __name__ == "__main__":
    main()
