"""Latency budget of one spoken turn for three voice-dialogue architectures (示意).

Formula (stated in series/train-infer-accel/audio-acceleration.md, §七 7.2):

    T_response = sum of the serial stages on the critical path until the first audio sample plays

Only two numbers come from a primary source: Moshi's theoretical latency of 160 ms = 80 ms (one Mimi
frame at 12.5 Hz) + 80 ms (acoustic delay), as stated in the kyutai-labs/moshi README and the Moshi
paper. Everything else is an illustrative assumption (示意) for one GPU serving one user; replace it
with your own measurements (see the post, §七 and §八).

Run from the repository root:
    .venv/bin/python scripts/figures/audio_acceleration_latency_budget.py
"""
from __future__ import annotations

from matplotlib.patches import Patch

from _figstyle import LINE, PALETTE, plt, save

MIMI_FRAME_MS = 1000 / 12.5  # 80 ms, from Mimi's 12.5 Hz frame rate
ACOUSTIC_DELAY_MS = MIMI_FRAME_MS  # Moshi: 1 frame of delay between semantic and acoustic tokens

NETWORK_PLAYOUT_MS = 100  # 示意: uplink + downlink + jitter buffer

PIPELINES = {
    "级联：VAD → ASR → LLM → TTS": [
        ("端点检测（尾部静音等待）", 400, "pink"),
        ("ASR 收尾", 100, "yellow"),
        ("LLM 首 token（prefill）", 200, "blue"),
        ("TTS 首包（声学模型 + 声码器）", 150, "green"),
        ("网络 + 播放缓冲", NETWORK_PLAYOUT_MS, None),
    ],
    "流式 Thinker–Talker（半双工）": [
        ("轮次判定（语义端点）", 200, "pink"),
        ("音频编码 + prefill", 80, "yellow"),
        ("Thinker 首 token", 60, "blue"),
        ("Talker 首帧 + 残差码本 + Code2Wav 首包", 60, "green"),
        ("网络 + 播放缓冲", NETWORK_PLAYOUT_MS, None),
    ],
    "全双工（Moshi 式多流）": [
        ("帧累积（1 个 Mimi 帧）", MIMI_FRAME_MS, "yellow"),
        ("声学延迟（1 帧）", ACOUSTIC_DELAY_MS, "green"),
        ("单步计算余量", 40, "blue"),
        ("网络 + 播放缓冲", NETWORK_PLAYOUT_MS, None),
    ],
}


CATEGORIES = [
    ("pink", "轮次 / 端点判定"),
    ("yellow", "音频编码 / ASR / 帧累积"),
    ("blue", "LLM 主干（prefill、首 token、单步计算）"),
    ("green", "语音生成（TTS、Talker、声码器、声学延迟）"),
    (None, "网络 + 播放缓冲"),
]


def main() -> None:
    fig, ax = plt.subplots(figsize=(11, 4.2))
    names = list(PIPELINES)
    for row, name in enumerate(reversed(names)):
        left = 0.0
        for label, ms, color in PIPELINES[name]:
            fill = PALETTE[color]["fill"] if color else "#FFFFFF"
            edge = PALETTE[color]["stroke"] if color else LINE
            ax.barh(row, ms, left=left, height=0.55, color=fill, edgecolor=edge, hatch=None if color else "//")
            ax.text(left + ms / 2, row, f"{ms:.0f}", ha="center", va="center", fontsize=8.5)
            left += ms
        ax.text(left + 12, row, f"合计 ≈ {left:.0f} ms", va="center", fontsize=9.5, color=LINE)
    handles = [Patch(facecolor=PALETTE[c]["fill"] if c else "#FFFFFF", edgecolor=PALETTE[c]["stroke"] if c else LINE,
                     hatch=None if c else "//", label=label) for c, label in CATEGORIES]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=3, fontsize=8.5)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(list(reversed(names)), fontsize=9.5)
    ax.set_xlim(0, 1150)
    ax.set_ylim(-0.5, len(names) - 0.2)
    ax.set_xlabel("从用户说完到听到第一个回复音频的时间（ms，示意）")
    ax.set_title("一轮语音对话的延迟预算（示意；仅 Moshi 的 80 + 80 ms 来自论文）", fontsize=12)
    ax.grid(axis="y", visible=False)
    fig.tight_layout()
    save(fig, "train-infer-accel/assets/audio-acceleration-latency-budget.svg")

    for name, stages in PIPELINES.items():
        print(f"{name}: {sum(ms for _, ms, _ in stages):.0f} ms")


if __name__ == "__main__":
    main()
