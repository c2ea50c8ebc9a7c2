"""Camera-to-joint-command latency budget of one VLA control step for three deployment places
(示意), for the post 《机器人 VLA 训推加速》(series/train-infer-accel/robot-vla.md, §五).

Formula (stated in the post, §5.1):

    T_c2j = T_cam + T_io + T_pre + T_net + T_vis + T_prefix + K * t_step + T_post + T_ctrl

i.e. the sum of the serial stages on the path from the photons hitting the sensor to the first
joint command of the new chunk. Every stage duration below is an illustrative assumption for a
two-camera, pi0-like flow-matching policy (K = 10 integration steps) on one GPU; replace them with
your own timestamps (see the post, §5.3). None of them is a measurement (示意).

Run from the repository root:
    .venv/bin/python scripts/figures/robot_vla_latency_budget.py
"""
from __future__ import annotations

from matplotlib.patches import Patch

from _figstyle import LINE, PALETTE, TEXT, plt, save

K_STEPS = 10  # flow-matching integration steps of the action head
T_HEAD_MS = 1.0  # t_step: one action-expert integration step, illustrative

# (stage, ms, colour category)
COMMON_HEAD = [
    ("相机曝光 + 读出", 12.0, "yellow"),
    ("USB / 以太网传输 + 解码", 5.0, "yellow"),
    ("预处理（缩放 / 归一化）", 2.0, "yellow"),
]
MODEL = [
    ("视觉编码（2 视角）", 8.0, "blue"),
    ("VLM 前缀（写 KV cache）", 9.0, "blue"),
    (f"动作头 {K_STEPS} 步积分", K_STEPS * T_HEAD_MS, "green"),
]
COMMON_TAIL = [
    ("反归一化 + 下发", 1.0, "pink"),
    ("控制器插值 / 伺服周期", 2.0, "pink"),
]

PIPELINES = {
    "机载 GPU（本机推理）": COMMON_HEAD + MODEL + COMMON_TAIL,
    "边缘服务器（局域网 websocket）": COMMON_HEAD
    + [("JPEG 编码 + 序列化", 4.0, None), ("局域网往返", 6.0, None)]
    + MODEL + COMMON_TAIL,
    "云端推理（公网）": COMMON_HEAD
    + [("JPEG 编码 + 序列化", 4.0, None), ("公网往返 + 抖动余量", 60.0, None)]
    + MODEL + COMMON_TAIL,
}

CATEGORIES = [
    ("yellow", "感知：相机与图像通路"),
    ("blue", "VLM 主干（视觉编码 + 前缀）"),
    ("green", "动作头（扩散 / flow 积分）"),
    ("pink", "执行：反归一化与底层控制"),
    (None, "网络与序列化"),
]

CONTROL_PERIOD_MS = {20: 50.0, 50: 20.0}


def total_ms(stages) -> float:
    """T_c2j: sum of the serial stages."""
    return sum(ms for _, ms, _ in stages)


def main() -> None:
    fig, ax = plt.subplots(figsize=(11.2, 4.4))
    names = list(PIPELINES)
    for row, name in enumerate(reversed(names)):
        left = 0.0
        for _label, ms, color in PIPELINES[name]:
            fill = PALETTE[color]["fill"] if color else "#FFFFFF"
            edge = PALETTE[color]["stroke"] if color else LINE
            ax.barh(row, ms, left=left, height=0.55, color=fill, edgecolor=edge, hatch=None if color else "//")
            if ms >= 4:
                ax.text(left + ms / 2, row, f"{ms:.0f}", ha="center", va="center", fontsize=8.5, color=TEXT)
            left += ms
        ax.text(left + 2, row, f"合计 ≈ {left:.0f} ms", va="center", fontsize=9.5, color=TEXT)
    for hz, period in CONTROL_PERIOD_MS.items():
        ax.axvline(period, color=PALETTE["yellow"]["stroke"], lw=1.2, ls="--")
        ax.text(period + 1, len(names) - 0.35, f"{hz} Hz 控制周期 {period:.0f} ms", fontsize=8.5, color=TEXT)
    handles = [Patch(facecolor=PALETTE[c]["fill"] if c else "#FFFFFF", edgecolor=PALETTE[c]["stroke"] if c else LINE,
                     hatch=None if c else "//", label=label) for c, label in CATEGORIES]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=3, fontsize=8.5)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(list(reversed(names)), fontsize=9.5)
    ax.set_xlim(0, 160)
    ax.set_ylim(-0.5, len(names) - 0.1)
    ax.set_xlabel("从光子到第一条新关节指令的时间 T_c2j（ms，示意）")
    ax.set_title("VLA 单次决策的相机→关节延迟预算（各段数值均为示意假设，非实测）", fontsize=12, color=TEXT)
    ax.grid(axis="y", visible=False)
    fig.tight_layout()
    save(fig, "train-infer-accel/assets/robot-vla-latency-budget.svg")

    for name, stages in PIPELINES.items():
        model = sum(ms for label, ms, c in stages if c in ("blue", "green"))
        print(f"{name}: T_c2j = {total_ms(stages):.0f} ms (model part {model:.0f} ms)")


if __name__ == "__main__":
    main()
