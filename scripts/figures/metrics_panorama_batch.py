"""Decode TPOT lower bound and output throughput against batch size, Qwen3-8B on one H100 SXM,
for the post 《训推加速效率指标全景》(series/train-infer-accel/metrics-panorama.md, §六).

Uses the formulas of metrics_panorama_roofline.py (stated in the post, M = HBM bytes per step):
  t_step(B, c) = max(F_dec / P_peak, M_dec / W_hbm)   -> TPOT lower bound
  throughput   = B / t_step                            -> output tokens/s upper bound
  B_max(c)     = floor((0.9 * 80 GB - 2 * N_total) / (c * s_kv))   -> KV cache capacity
The TPOT SLO line (20 ms) is an illustrative target, not a measured number (示意).
"""
from __future__ import annotations

from _figstyle import LINE, PALETTE, TEXT, plt, save
from metrics_panorama_roofline import decode, max_batch, step_time

TPOT_SLO_MS = 20.0
CONTEXTS = ((2048, PALETTE["blue"]["stroke"]), (8192, PALETTE["pink"]["stroke"]))


def main() -> None:
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10.0, 4.2))
    batches = [2**k for k in range(0, 9)]  # 1 .. 256
    for c, color in CONTEXTS:
        bmax = max_batch(c)
        ok = [B for B in batches if B <= bmax]
        over = [B for B in batches if B >= ok[-1]]
        tpot = {B: step_time(*decode(B, c)) * 1e3 for B in batches}
        tput = {B: B / step_time(*decode(B, c)) for B in batches}
        ax1.plot(ok, [tpot[B] for B in ok], marker="o", color=color, label=f"c={c}")
        ax1.plot(over, [tpot[B] for B in over], ls="--", color=color, alpha=0.5)
        ax2.plot(ok, [tput[B] for B in ok], marker="o", color=color, label=f"c={c}")
        ax2.plot(over, [tput[B] for B in over], ls="--", color=color, alpha=0.5)
        for ax in (ax1, ax2):
            ax.axvline(bmax, color=color, ls=":", lw=1)
        ax1.text(bmax * 0.93, 2.2 if c == 2048 else 1.4, f"KV 显存上限 B≈{bmax}", color=color, fontsize=9, ha="right")

    ax1.axhline(TPOT_SLO_MS, color=PALETTE["yellow"]["stroke"], lw=1.5)
    ax1.text(1.1, TPOT_SLO_MS * 1.08, f"TPOT SLO {TPOT_SLO_MS:.0f} ms（示意）", color=TEXT, fontsize=9)
    for ax in (ax1, ax2):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("decode batch B（并发序列数）")
        ax.legend(loc="upper left", fontsize=9)
    ax1.set_yscale("log")
    ax1.set_ylim(1, 200)
    ax1.set_ylabel("TPOT 下界（ms / token）")
    ax1.set_title("单 token 延迟随 batch 上升", color=TEXT)
    ax2.set_ylabel("输出吞吐上界（tokens / s）")
    ax2.set_title("吞吐随 batch 上升但趋于饱和", color=TEXT)
    ax2.tick_params(axis="y", colors=LINE)
    fig.suptitle("Qwen3-8B decode：延迟—吞吐权衡（H100 SXM，roofline 下界，示意）", color=TEXT)
    fig.tight_layout()
    save(fig, "train-infer-accel/assets/metrics-panorama-batch.svg")


if __name__ == "__main__":
    main()
