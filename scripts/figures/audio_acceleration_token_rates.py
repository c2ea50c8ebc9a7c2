"""Token rates of audio tokenizers / codecs, computed from their published configurations.

Formulas (stated in series/train-infer-accel/audio-acceleration.md, §二):

    frame_rate  f = sample_rate / hop            (hop = product of the encoder strides)
    n_q           = bitrate / (f * log2(codebook_size))   (when a codec is quoted by bitrate)
    tokens/s      = f * n_q
    AR budget     = 1000 / f  ms per autoregressive step (one frame per step, the other codebooks
                    handled inside the step, e.g. by a depth transformer / MTP module / delay pattern)

Inputs (public configs / papers, see the post's 参考资料):
  EnCodec 24 kHz: strides 8*5*4*2 = 320, codebook 1024, 6 kbps setting.
  DAC 44.1 kHz:   strides 2*4*8*8 = 512, 9 codebooks of 1024.
  SpeechTokenizer: 50 Hz, 4 kbps (as quoted by the Moshi README), codebook 1024 (SpeechTokenizer paper).
  Mimi:           12.5 Hz, 1.1 kbps, codebook 2048.
  WavTokenizer:   24 kHz, a single quantizer at 75 or 40 tokens/s.
  CosyVoice 2 speech tokenizer: 25 Hz, a single FSQ token stream.
  Qwen3-Omni AuT (input-side encoder, continuous features, not a codec): 12.5 Hz (Qwen3-Omni report, §2.2).

Run from the repository root:
    .venv/bin/python scripts/figures/audio_acceleration_token_rates.py
"""
from __future__ import annotations

import math

from _figstyle import LINE, PALETTE, plt, save


def n_codebooks(bitrate_bps: float, frame_rate: float, codebook_size: int) -> int:
    return round(bitrate_bps / (frame_rate * math.log2(codebook_size)))


ROWS = []  # (label, frame_rate, n_q, kind)


def add(label: str, frame_rate: float, n_q: int, kind: str = "codec") -> None:
    ROWS.append((label, frame_rate, n_q, kind))


add("EnCodec 24 kHz @6 kbps", 24000 / (8 * 5 * 4 * 2), n_codebooks(6000, 24000 / 320, 1024))
add("DAC 44.1 kHz", 44100 / (2 * 4 * 8 * 8), 9)
add("SpeechTokenizer", 50.0, n_codebooks(4000, 50.0, 1024))
add("Mimi @1.1 kbps", 12.5, n_codebooks(1100, 12.5, 2048))
add("WavTokenizer (75/s)", 75.0, 1)
add("WavTokenizer (40/s)", 40.0, 1)
add("CosyVoice 2 语音 token", 25.0, 1)
add("Qwen3-Omni AuT（输入侧编码器）", 12.5, 1, kind="encoder")


def fmt(x: float) -> str:
    return f"{x:.0f}" if abs(x - round(x)) < 1e-9 or x >= 100 else f"{x:.1f}"


def main() -> None:
    rows = sorted(ROWS, key=lambda r: r[1] * r[2])
    labels = [r[0] for r in rows]
    frames = [r[1] for r in rows]
    tokens = [r[1] * r[2] for r in rows]
    y = list(range(len(rows)))

    fig, ax = plt.subplots(figsize=(10.5, 4.8))
    h = 0.38
    ax.barh([i + h / 2 for i in y], tokens, height=h, color=PALETTE["blue"]["fill"],
            edgecolor=PALETTE["blue"]["stroke"], label="每秒 token 总数 = f × n_q")
    ax.barh([i - h / 2 for i in y], frames, height=h, color=PALETTE["yellow"]["fill"],
            edgecolor=PALETTE["yellow"]["stroke"], label="每秒帧数 f（= 每秒自回归步数）")
    for i, (lab, f, nq, kind) in enumerate(rows):
        note = "连续特征，非码本" if kind == "encoder" else f"n_q={nq}"
        ax.text(f * nq * 1.08, i + h / 2, f"{fmt(f * nq)}/s（{note}）", va="center", fontsize=8.5, color=LINE)
        ax.text(f * 1.08, i - h / 2, f"{fmt(f)} Hz → 单步预算 {1000 / f:.0f} ms", va="center", fontsize=8.5, color=LINE)
    ax.axvspan(3, 4, color=PALETTE["green"]["fill"], zorder=0)
    ax.text(3.5, -0.75, "文本 token ≈3–4 Hz", ha="center", va="center", fontsize=8.5, color=PALETTE["green"]["stroke"])
    ax.set_xscale("log")
    ax.set_xlim(2, 4000)
    ax.set_ylim(-1.05, len(rows) - 0.4)
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=9.5)
    ax.set_xlabel("每秒 token 数 / 帧数（对数轴）")
    ax.set_title("音频 tokenizer / codec 的 token 率：由公开配置计算", fontsize=12)
    ax.legend(loc="lower right", fontsize=9)
    ax.grid(axis="y", visible=False)
    fig.tight_layout()
    save(fig, "train-infer-accel/assets/audio-acceleration-token-rates.svg")

    for lab, f, nq, kind in ROWS:
        print(f"{lab}: f={f:.2f} Hz, n_q={nq}, tokens/s={f * nq:g}, 10 s audio -> {10 * f * nq:.0f} tokens, "
              f"AR step budget {1000 / f:.1f} ms")


if __name__ == "__main__":
    main()
