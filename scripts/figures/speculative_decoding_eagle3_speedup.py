"""Speculative decoding: expected tokens per target step and wall-clock speed-up (示意).

Formulas (stated in series/train-infer-accel/speculative-decoding-eagle3.md, §二):

    E[tokens / step](alpha, gamma) = (1 - alpha**(gamma + 1)) / (1 - alpha)         (Leviathan et al. 2023)
    S(alpha, gamma, c, v)          = E[tokens / step] / (1 + gamma * c + gamma * v)

alpha = per-token acceptance rate (i.i.d. assumption), gamma = draft length (num_speculative_tokens),
c = cost of one draft step relative to one target decode step, v = extra verification cost per
draft token relative to one target decode step (≈ 0 while decode is memory-bound, grows with batch).
With v = 0 the second line is Leviathan et al.'s improvement factor (Theorem 3.8).
The c and v values below are illustrative assumptions, not measurements.

Run from the repository root:
    .venv/bin/python scripts/figures/speculative_decoding_eagle3_speedup.py
"""
from __future__ import annotations

import numpy as np

from _figstyle import LINE, PALETTE, SERIES_COLORS, plt, save

C_DRAFT = 0.05  # 示意: one EAGLE-style draft step ≈ 5% of one target decode step
V_LARGE_BATCH = 0.10  # 示意: verification cost grows ~10% of a step per extra token at large batch


def expected_tokens(alpha: np.ndarray | float, gamma: int) -> np.ndarray | float:
    """Leviathan et al. (2023): expected tokens emitted per target forward pass."""
    alpha = np.asarray(alpha, dtype=float)
    if np.any(alpha >= 1.0):
        raise ValueError("alpha must be < 1 (at alpha = 1 every draft is accepted: gamma + 1 tokens)")
    return (1.0 - alpha ** (gamma + 1)) / (1.0 - alpha)


def speedup(alpha, gamma: int, c: float = C_DRAFT, v: float = 0.0):
    """Wall-clock speed-up over plain decoding under the cost model above."""
    return expected_tokens(alpha, gamma) / (1.0 + gamma * c + gamma * v)


def main() -> None:
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11.5, 4.4))

    # Left: speed-up against acceptance rate for several draft lengths.
    alphas = np.linspace(0.0, 0.95, 96)
    for color, gamma in zip(SERIES_COLORS + [LINE], (1, 2, 3, 5, 8)):
        ax1.plot(alphas, speedup(alphas, gamma), color=color, lw=2, label=f"γ = {gamma}")
    ax1.axhline(1.0, color=LINE, lw=1, ls=":")
    ax1.set_xlabel("单 token 接受率 α")
    ax1.set_ylabel("理论加速比 S（倍）")
    ax1.set_title(f"(a) S 随 α 变化（c = {C_DRAFT}，v = 0）", fontsize=11)
    ax1.set_xlim(0, 0.95)
    ax1.set_ylim(0.8, 6.4)
    ax1.legend(loc="upper left", fontsize=9)

    # Right: speed-up against draft length for several acceptance rates; the optimum shifts left
    # when verification is no longer free (large batch).
    gammas = np.arange(1, 13)
    for color, alpha in zip(SERIES_COLORS, (0.6, 0.7, 0.8, 0.9)):
        s_small = np.array([speedup(alpha, int(g)) for g in gammas])
        s_large = np.array([speedup(alpha, int(g), v=V_LARGE_BATCH) for g in gammas])
        ax2.plot(gammas, s_small, color=color, lw=2, marker="o", ms=3.5, label=f"α = {alpha}")
        ax2.plot(gammas, s_large, color=color, lw=1.4, ls="--")
        best = int(gammas[np.argmax(s_small)])
        ax2.annotate(f"γ*={best}", xy=(best, s_small.max()), xytext=(0, 6), textcoords="offset points",
                     ha="center", fontsize=8, color=color)
    ax2.plot([], [], color=LINE, lw=1.4, ls="--", label=f"虚线：大 batch（v = {V_LARGE_BATCH}）")
    ax2.axhline(1.0, color=LINE, lw=1, ls=":")
    ax2.set_xlabel("草稿长度 γ（num_speculative_tokens）")
    ax2.set_ylabel("理论加速比 S（倍）")
    ax2.set_title("(b) S 随 γ 变化：存在最优草稿长度", fontsize=11)
    ax2.set_xticks(gammas)
    ax2.set_ylim(0.8, 6.4)
    ax2.set_xlim(0.5, 12.8)
    ax2.legend(loc="upper left", fontsize=8.5, ncol=2)
    ax2.fill_between(gammas, 0.8, 1.0, color=PALETTE["pink"]["fill"], zorder=0)

    fig.suptitle("投机解码理论加速比（示意，公式见正文 §二）", fontsize=12)
    fig.tight_layout()
    save(fig, "train-infer-accel/assets/speculative-decoding-eagle3-speedup.svg")

    # Print the numbers the post quotes, so they can be checked against the text.
    for alpha in (0.6, 0.7, 0.8, 0.9):
        row = ", ".join(f"γ={g}: E={float(expected_tokens(alpha, g)):.2f} S={float(speedup(alpha, g)):.2f}"
                        for g in (1, 3, 5, 8))
        best = max(range(1, 13), key=lambda g: float(speedup(alpha, g)))
        best_l = max(range(1, 13), key=lambda g: float(speedup(alpha, g, v=V_LARGE_BATCH)))
        print(f"alpha={alpha}: {row}; best gamma={best} (large batch: {best_l}, "
              f"S={float(speedup(alpha, best_l, v=V_LARGE_BATCH)):.2f})")


if __name__ == "__main__":
    main()
