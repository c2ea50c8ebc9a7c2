"""Memory-attention cost of a SAM 2 style tracker against the number of memory frames, and the
size of the memory bank against the number of tracked objects (示意), for the post
《视频图像分割模型技术洞察与训练加速》(series/train-infer-accel/video-segmentation.md, §五).

Formulas (stated in the post, §5.1; FLOPs count 2 per multiply-add):

    N_q = (S / 16)^2                       tokens of the current frame (stride-16 features)
    N_m = M * N_q + 4 * P                  memory tokens: M spatial memories + P object pointers,
                                           each 256-d pointer split into 4 tokens of 64-d
    per layer:
      self-attention   8 * N_q * d^2  +  4 * N_q^2 * d
      cross-attention  4 * N_q * d^2  +  4 * N_m * d_kv * d  +  4 * N_q * N_m * d
      FFN              4 * N_q * d * d_ff
    F_mem(M) = L * (sum of the three)      per frame, per tracked object
    B_bank(O) = O * M * N_q * d_kv * b     bytes of spatial memory features for O objects

Architecture constants come from the public SAM 2.1 configs (configs/sam2.1/*.yaml in
facebookresearch/sam2): d = 256, d_kv = 64, d_ff = 2048, L = 4 memory-attention layers,
num_maskmem = 7, max 16 object pointers. Everything else (resolutions, dtype, object counts)
is an illustrative choice; the curves are an operation count, not a measured latency (示意).

Run from the repository root:
    .venv/bin/python scripts/figures/video_segmentation_memory_cost.py
"""
from __future__ import annotations

from _figstyle import LINE, PALETTE, TEXT, plt, save

D_MODEL = 256  # memory-attention width
D_KV = 64  # memory feature width (memory encoder out_dim)
D_FF = 2048  # FFN width
LAYERS = 4  # memory-attention layers
MAX_PTRS = 16  # max object pointers in the encoder
DEFAULT_M = 7  # num_maskmem: 1 prompted frame + 6 recent frames
BYTES_BF16 = 2


def tokens_per_frame(side: int) -> int:
    """N_q for a square input of `side` pixels, stride-16 features."""
    return (side // 16) ** 2


def mem_attn_flops(side: int, m: int) -> float:
    """F_mem(M): memory-attention FLOPs per frame per object (formula in the post, §5.1)."""
    n_q = tokens_per_frame(side)
    p = min(m, MAX_PTRS)  # one pointer per remembered frame, capped
    n_m = m * n_q + 4 * p
    d = D_MODEL
    self_attn = 8 * n_q * d * d + 4 * n_q * n_q * d
    cross_attn = 4 * n_q * d * d + 4 * n_m * D_KV * d + 4 * n_q * n_m * d
    ffn = 4 * n_q * d * D_FF
    return LAYERS * (self_attn + cross_attn + ffn)


def bank_bytes(side: int, m: int, objects: int) -> float:
    """B_bank(O): spatial memory features kept for O objects (pointers are negligible)."""
    return objects * m * tokens_per_frame(side) * D_KV * BYTES_BF16


def main() -> None:
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10.6, 4.3))

    ms = list(range(1, 17))
    series = (
        (1024, PALETTE["blue"]["stroke"], "S=1024（64×64=4096 token/帧）"),
        (768, PALETTE["pink"]["stroke"], "S=768（48×48=2304 token/帧）"),
        (512, PALETTE["green"]["stroke"], "S=512（32×32=1024 token/帧）"),
    )
    for side, color, label in series:
        ys = [mem_attn_flops(side, m) / 1e9 for m in ms]
        ax1.plot(ms, ys, marker="o", ms=3.5, color=color, label=label)
    ax1.axvline(DEFAULT_M, color=PALETTE["yellow"]["stroke"], lw=1.5, ls="--")
    ax1.text(DEFAULT_M + 0.3, mem_attn_flops(1024, 16) / 1e9 * 0.30,
             "SAM 2 默认\nnum_maskmem=7", color=TEXT, fontsize=9)
    ax1.set_xlabel("参与注意力的记忆帧数 M")
    ax1.set_ylabel("记忆注意力 GFLOPs / 帧 / 目标")
    ax1.set_title("记忆注意力随记忆帧数线性增长", color=TEXT)
    ax1.legend(loc="upper left", fontsize=8.5)

    objs = [1, 2, 4, 8, 16, 32, 64, 128]
    for m, color in ((DEFAULT_M, PALETTE["blue"]["stroke"]), (16, PALETTE["pink"]["stroke"])):
        ys = [bank_bytes(1024, m, o) / 2**20 for o in objs]
        ax2.plot(objs, ys, marker="o", ms=3.5, color=color, label=f"M={m}，S=1024，bf16")
    ax2.set_xscale("log", base=2)
    ax2.set_xticks(objs)
    ax2.set_xticklabels([str(o) for o in objs])
    ax2.set_yscale("log")
    ax2.set_xlabel("同时跟踪的目标数 O")
    ax2.set_ylabel("记忆库空间特征（MiB）")
    ax2.set_title("逐目标独立记忆：显存随目标数线性增长", color=TEXT)
    ax2.legend(loc="upper left", fontsize=8.5)
    ax2.tick_params(axis="y", colors=LINE)

    fig.suptitle("SAM 2 式记忆注意力的计算量与记忆库大小（按公式计数，示意，非实测）", color=TEXT)
    fig.tight_layout()
    save(fig, "train-infer-accel/assets/video-segmentation-memory-cost.svg")

    for side, _, _ in series:
        print(f"S={side}: F_mem(M=7) = {mem_attn_flops(side, 7) / 1e9:.0f} GFLOPs, "
              f"F_mem(M=1) = {mem_attn_flops(side, 1) / 1e9:.0f} GFLOPs")
    for o in (1, 16, 128):
        print(f"O={o}: bank(M=7,S=1024) = {bank_bytes(1024, 7, o) / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
