"""Sequence length and serial steps of music generators, computed from published configurations.

Formulas (stated in series/train-infer-accel/music-generation.md, §二 and §五):

    frame rate      f = sample_rate / hop            (hop = product of encoder strides)
    tokens/s        r = f * K                         (K = codebooks / tracks modelled per frame)
    sequence length L(T) = r * T                      (T = seconds of audio)
    AR serial steps:
        flattened tokens        S = r * T
        delay pattern (MusicGen) S = f * T + (K - 1)
        multi-scale (UniAudio)  S = f * T global steps (+ K small local steps inside each)
    diffusion serial steps:     S = N (sampler steps), each step sees the whole latent sequence

Inputs (public papers / configs, see the post's 参考资料):
  Jukebox top level VQ-VAE: 44.1 kHz, 128x downsampling, one code per step.
  MusicLM: w2v-BERT semantic tokens 25 Hz; SoundStream 24 kHz / stride 480 = 50 Hz, 12 RVQ levels
           (coarse stage = first 4 levels, fine stage = remaining 8).
  MusicGen: EnCodec 32 kHz, 50 Hz, 4 codebooks of 2048, delay pattern.
  UniAudio: codec 16 kHz, strides 8*5*4*2 = 320 -> 50 Hz, 3 codebooks (1.5 kbps setting).
  YuE stage 1: xcodec 50 Hz, codebook 0 of the vocal and of the accompaniment track, interleaved
               (YuE-v1 branch, inference/infer.py).
  DAC 44.1 kHz: strides 2*4*8*8 = 512, 9 codebooks (a codec, shown for reference).
  Stable Audio Open: Oobleck VAE, strides 2*4*4*8*8 = 2048 at 44.1 kHz, 64-dim continuous latent.
  ACE-Step 1.5: DiT on 25 Hz stereo latents; its LM planner emits 5 Hz audio codes.
  Stable Audio 3: SAME autoencoder, 4096x downsampling at 44.1 kHz, 256-dim continuous latent
                  (44100 / 4096 per channel; the repo docs also quote 216 frames per 10 s, see the post, §四).
Sampler steps in panel (b) are illustrative (示意): 100 for a latent DiT without distillation
(the diffusers example of Stable Audio Open uses 200), 8 for ACE-Step 1.5 turbo (its diffusers default).

Run from the repository root:
    .venv/bin/python scripts/figures/music_generation_seqlen.py
"""
from __future__ import annotations

import math

from _figstyle import LINE, PALETTE, TEXT, plt, save

SONG_SECONDS = 240  # a 4-minute song
YUE_STAGE1_CONTEXT = 16384  # max context of YuE (v1) stage 1: inference/infer.py on the YuE-v1 branch

# (label, frame rate f in Hz, K per frame, kind) ; kind: ar | diff | hybrid | codec
RATES = [
    ("DAC 44.1 kHz（codec 参考）", 44100 / (2 * 4 * 8 * 8), 9, "codec"),
    ("Jukebox 顶层 VQ-VAE", 44100 / 128, 1, "ar"),
    ("MusicGen（EnCodec 32 kHz × 4 码本）", 32000 / 640, 4, "ar"),
    ("UniAudio（16 kHz × 3 码本）", 16000 / 320, 3, "ar"),
    ("YuE stage-1（人声 + 伴奏 各 1 码本）", 50.0, 2, "ar"),
    ("MusicLM 语义 token（w2v-BERT）", 25.0, 1, "ar"),
    ("ACE-Step 1.5 DiT 潜变量", 25.0, 1, "diff"),
    ("Stable Audio Open 潜变量", 44100 / 2048, 1, "diff"),
    ("Stable Audio 3 SAME 潜变量", 44100 / 4096, 1, "diff"),
    ("ACE-Step 1.5 LM 规划码", 5.0, 1, "hybrid"),
]

KIND_COLOR = {"ar": "blue", "diff": "green", "hybrid": "pink", "codec": "yellow"}
KIND_LABEL = {"ar": "AR 离散 token", "diff": "扩散连续潜变量", "hybrid": "混合式规划 LM", "codec": "仅 codec（参考）"}


def serial_steps() -> list[tuple[str, float, str]]:
    T = SONG_SECONDS
    mg_f, mg_k = 32000 / 640, 4
    ua_f = 16000 / 320
    rows = [
        ("MusicLM 三级 AR（语义 + 粗 + 细，逐 token）", 25 * T + 50 * 4 * T + 50 * 8 * T, "ar"),
        ("Jukebox 顶层先验（逐 code）", 44100 / 128 * T, "ar"),
        ("MusicGen 若展平 4 码本", mg_f * mg_k * T, "ar"),
        ("YuE stage-1（双轨交错，逐 token）", 50 * 2 * T, "ar"),
        ("MusicGen delay pattern", mg_f * T + (mg_k - 1), "ar"),
        ("UniAudio 多尺度（全局步）", ua_f * T, "ar"),
        ("ACE-Step 1.5：LM 5 Hz + DiT 8 步", 5 * T + 8, "hybrid"),
        ("潜空间 DiT，100 步采样（示意）", 100, "diff"),
        ("潜空间 DiT，8 步蒸馏（示意）", 8, "diff"),
    ]
    return rows


def main() -> None:
    fig = plt.figure(figsize=(16, 6.0))
    ax1 = fig.add_axes([0.055, 0.11, 0.36, 0.80])
    ax2 = fig.add_axes([0.715, 0.11, 0.27, 0.80])

    # (a) sequence length vs minutes
    minutes = [0.5 + 0.05 * i for i in range(91)]  # 0.5 .. 5.0 min
    ends = []
    for label, f, k, kind in RATES:
        r = f * k
        c = PALETTE[KIND_COLOR[kind]]["stroke"]
        ys = [r * m * 60 for m in minutes]
        style = "--" if kind == "codec" else ((0, (5, 2)) if label.startswith("MusicLM") else "-")
        ax1.plot(minutes, ys, color=c, linewidth=1.8, linestyle=style, zorder=3 if kind == "ar" else 2)
        ends.append([math.log10(ys[-1]), f"{label}  {r:.4g}/s", c])
    # spread the end labels so that they do not overlap (min gap in decades)
    ends.sort(key=lambda e: e[0])
    gap = 0.12
    for i in range(1, len(ends)):
        if ends[i][0] - ends[i - 1][0] < gap:
            ends[i][0] = ends[i - 1][0] + gap
    for ylog, text, c in ends:
        ax1.text(5.06, 10 ** ylog, text, va="center", fontsize=8, color=c)
    ax1.axhline(YUE_STAGE1_CONTEXT, color=LINE, linewidth=1, linestyle=":")
    ax1.text(2.6, YUE_STAGE1_CONTEXT * 0.78, "16,384：YuE stage-1 的上下文上限", fontsize=8.5, color=LINE)
    ax1.axvline(4, color=LINE, linewidth=0.8, linestyle=":")
    ax1.set_yscale("log")
    ax1.set_xlim(0.5, 5.0)
    ax1.set_ylim(80, 4e5)
    ax1.set_xlabel("音频时长（分钟）")
    ax1.set_ylabel("主模型处理的序列长度 L = f × K × T（对数轴）")
    ax1.set_title("(a) 序列长度随时长线性增长（由公开帧率与码本数计算）", fontsize=11)
    for kind in ("ar", "diff", "hybrid", "codec"):
        ax1.plot([], [], color=PALETTE[KIND_COLOR[kind]]["stroke"], linewidth=2, label=KIND_LABEL[kind],
                 linestyle="--" if kind == "codec" else "-")
    ax1.legend(loc="upper left", fontsize=8.5)

    # (b) serial steps for a 4-minute song
    rows = serial_steps()
    y = list(range(len(rows)))
    for i, (label, s, kind) in enumerate(rows):
        cls = KIND_COLOR[kind]
        ax2.barh(i, s, color=PALETTE[cls]["fill"], edgecolor=PALETTE[cls]["stroke"], height=0.6)
        ax2.text(s * 1.12, i, f"{s:,.0f}", va="center", fontsize=8.5, color=TEXT)
    ax2.set_xscale("log")
    ax2.set_xlim(3, 2e6)
    ax2.set_yticks(y)
    ax2.set_yticklabels([r[0] for r in rows], fontsize=8.5)
    ax2.invert_yaxis()
    ax2.grid(axis="y", visible=False)
    ax2.set_xlabel("生成 4 分钟音频的串行前向次数（对数轴）")
    ax2.set_title("(b) 串行步数：AR 随时长增长，扩散只随采样步数（示意）", fontsize=11)
    ax2.text(3.3, len(rows) - 0.35, "注：扩散每一步都处理整段潜变量，步数少 ≠ 总算力少", fontsize=8, color=LINE)

    save(fig, "train-infer-accel/assets/music-generation-seqlen.svg")

    for label, f, k, kind in RATES:
        print(f"{label}: f={f:.3f} Hz, K={k}, r={f * k:.2f}/s, 4 min -> {f * k * SONG_SECONDS:,.0f}")
    for label, s, kind in rows:
        print(f"steps {label}: {s:,.0f}")


if __name__ == "__main__":
    main()
