"""Achievable control frequency against policy inference latency for several execution horizons,
and the reaction-time cost of a longer horizon (示意), for the post
《机器人 VLA 训推加速》(series/train-infer-accel/robot-vla.md, §三).

Formulas (stated in the post, §3.2 and §3.3):

    async execution, replanning every s steps of a chunk of H >= s actions:
        the next chunk must arrive before the s executed steps run out
        T_inf <= s / f_ctrl          =>   f_max(T_inf, s) = s / T_inf
        (s = H is the usual "policy must return within H / f_ctrl", post §3.2)
    reaction time to an event that happens at a random moment:
        R = U + T_inf,  U ~ Uniform[0, s / f_ctrl]
        E[R] = T_inf + s / (2 f_ctrl),   R_max = T_inf + s / f_ctrl
    an execution horizon is feasible only if s >= ceil(T_inf * f_ctrl)

The 20~50 Hz band is the control-rate target named in the post. The only measured number on the
chart is the 27.3 ms reported by Ma et al. 2025 (arXiv 2510.26742) for a two-view pi0 on one
RTX 4090; it is drawn as a reference line. Everything else is an illustrative grid (示意).

Run from the repository root:
    .venv/bin/python scripts/figures/robot_vla_control_frequency.py
"""
from __future__ import annotations

import math

from _figstyle import LINE, PALETTE, SERIES_COLORS, TEXT, plt, save

TARGET_LO_HZ, TARGET_HI_HZ = 20.0, 50.0
REF_LATENCY_MS = 27.3  # Ma et al. 2025, pi0 with two views on RTX 4090 (arXiv 2510.26742)
HORIZONS = (1, 5, 10, 25, 50)
F_CTRL_HZ = 50.0  # control rate of panel (b)
LATENCIES_MS = (30.0, 100.0)  # illustrative T_inf values of panel (b)


def f_max(t_inf_ms: float, s: int) -> float:
    """Highest control rate an async pipeline sustains: s / T_inf (Hz)."""
    return s / (t_inf_ms / 1e3)


def reaction_ms(t_inf_ms: float, s: int, f_ctrl: float) -> tuple[float, float]:
    """Mean and worst reaction time (ms): T_inf + s/(2f), T_inf + s/f."""
    step_ms = 1e3 / f_ctrl
    return t_inf_ms + s * step_ms / 2, t_inf_ms + s * step_ms


def min_horizon(t_inf_ms: float, f_ctrl: float) -> int:
    """Smallest feasible execution horizon: ceil(T_inf * f_ctrl)."""
    return math.ceil(t_inf_ms / 1e3 * f_ctrl)


def main() -> None:
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11.0, 4.5))

    lat = [5 * 1.06**k for k in range(0, 80)]  # 5 ms .. ~500 ms
    lat = [t for t in lat if t <= 500]
    for s, color in zip(HORIZONS, SERIES_COLORS + [LINE]):
        ax1.plot(lat, [f_max(t, s) for t in lat], color=color, lw=1.8, label=f"s = {s} 步")
    ax1.axhspan(TARGET_LO_HZ, TARGET_HI_HZ, color=PALETTE["yellow"]["fill"], zorder=0)
    ax1.text(5.6, 31, "目标控制频率 20~50 Hz", color=TEXT, fontsize=9)
    ax1.axvline(REF_LATENCY_MS, color=TEXT, lw=1, ls=":")
    ax1.text(REF_LATENCY_MS * 1.05, 2.2e3, "27.3 ms：π0 双视角\nRTX 4090（公开报告）", color=TEXT, fontsize=8.5)
    ax1.set_xscale("log")
    ax1.set_yscale("log")
    ax1.set_xlim(5, 500)
    ax1.set_ylim(1, 1.2e4)
    ax1.set_xlabel("单次推理延迟 T_inf（ms）")
    ax1.set_ylabel("可维持的最高控制频率 f_max = s / T_inf（Hz）")
    ax1.set_title("(a) 执行步数 s 越长，允许的推理越慢", color=TEXT)
    ax1.legend(loc="lower left", fontsize=8.5)

    ss = list(range(1, 51))
    for t_inf, color in zip(LATENCIES_MS, (PALETTE["blue"]["stroke"], PALETTE["pink"]["stroke"])):
        s_min = min_horizon(t_inf, F_CTRL_HZ)
        ok = [s for s in ss if s >= s_min]
        bad = [s for s in ss if s <= s_min]
        ax2.plot(ok, [reaction_ms(t_inf, s, F_CTRL_HZ)[0] for s in ok], color=color, lw=1.8,
                 label=f"T_inf = {t_inf:.0f} ms：平均反应时间")
        ax2.plot(ok, [reaction_ms(t_inf, s, F_CTRL_HZ)[1] for s in ok], color=color, lw=1.2, ls="--",
                 label=f"T_inf = {t_inf:.0f} ms：最坏反应时间")
        ax2.plot(bad, [reaction_ms(t_inf, s, F_CTRL_HZ)[0] for s in bad], color=color, lw=1, ls=":", alpha=0.6)
        ax2.axvline(s_min, color=color, lw=1, ls=":")
        ax2.text(s_min + 0.6, 1000 if t_inf < 50 else 880, f"T_inf = {t_inf:.0f} ms：s ≥ {s_min} 才跟得上",
                 color=color, fontsize=8.5)
    ax2.set_xlabel(f"执行步数 s（f_ctrl = {F_CTRL_HZ:.0f} Hz）")
    ax2.set_ylabel("对突发事件的反应时间（ms）")
    ax2.set_ylim(0, 1250)
    ax2.set_title("(b) 但 s 越长，反应越慢", color=TEXT)
    ax2.legend(loc="lower right", fontsize=8)

    fig.suptitle("动作分块下的控制频率与反应时间（按公式计算，示意；仅 27.3 ms 为公开报告值）", color=TEXT)
    fig.tight_layout()
    save(fig, "train-infer-accel/assets/robot-vla-control-frequency.svg")

    for t in (27.3, 100.0, 300.0):
        print(f"T_inf={t:.1f} ms: " + ", ".join(f"s={s}: {f_max(t, s):.0f} Hz" for s in HORIZONS))
    for t in LATENCIES_MS:
        s_min = min_horizon(t, F_CTRL_HZ)
        mean, worst = reaction_ms(t, s_min, F_CTRL_HZ)
        print(f"T_inf={t:.0f} ms @ {F_CTRL_HZ:.0f} Hz: s_min={s_min}, E[R]={mean:.0f} ms, R_max={worst:.0f} ms")


if __name__ == "__main__":
    main()
