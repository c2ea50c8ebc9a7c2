"""Roofline of Qwen3-8B prefill and decode on one H100 SXM (BF16), for the post
《训推加速效率指标全景》(series/train-infer-accel/metrics-panorama.md, §六).

Every plotted number is computed from the formulas stated in the post (illustrative, 示意):

  N_body = L * (2*d*n_q*d_h + 2*d*n_kv*d_h + 3*d*d_ff)     # matmul weights of the 36 blocks
  N_head = d * V                                           # LM head (untied in Qwen3-8B)
  s_kv   = 2 * L * n_kv * d_h * b                          # KV-cache bytes per token

  prefill, one prompt of S tokens (causal attention, logits only for the last token):
    F = 2*N_body*S + 2*N_head + 2*L*n_q*d_h*S^2
    M = b*(N_body + N_head) + S*s_kv                        # weights read once + KV written
  decode, one step for a batch of B sequences, each with context c:
    F = B * (2*(N_body + N_head) + 4*L*n_q*d_h*c)
    M = b*(N_body + N_head) + B*c*s_kv                      # weights once + every KV read
  arithmetic intensity I = F / M;  attainable = min(P_peak, I * W_hbm)   (Williams et al. 2009)
  step time lower bound  t = max(F / P_peak, M / W_hbm)

Activations, norms, RoPE, softmax and kernel overheads are ignored on purpose: the chart is a
lower bound, not a benchmark. Run `python scripts/figures/metrics_panorama_roofline.py --numbers`
to print the worked numbers quoted in the post.

Model: Qwen/Qwen3-8B config.json (36 layers, hidden 4096, 32 Q heads, 8 KV heads, head_dim 128,
intermediate 12288, vocab 151936, tie_word_embeddings false).
Hardware: H100 SXM, BF16 dense Tensor Core peak ~989 TFLOPS, HBM3 3.35 TB/s, 80 GB.
"""
from __future__ import annotations

import sys

from _figstyle import LINE, PALETTE, TEXT, plt, save

# ---- Qwen3-8B (config.json) -------------------------------------------------------------
L, D, NQ, NKV, DH, DFF, V = 36, 4096, 32, 8, 128, 12288, 151_936
B_BYTES = 2  # BF16

N_BODY = L * (2 * D * NQ * DH + 2 * D * NKV * DH + 3 * D * DFF)
N_HEAD = D * V
N_EMBED = D * V  # input embedding: a lookup, no matmul FLOPs, but it occupies memory
N_MM = N_BODY + N_HEAD
N_TOTAL = N_BODY + N_HEAD + N_EMBED + L * (2 * D + 2 * DH) + D  # + RMSNorm weights
S_KV = 2 * L * NKV * DH * B_BYTES  # bytes of K and V per token

# ---- H100 SXM ---------------------------------------------------------------------------
P_PEAK = 989e12  # FLOP/s, BF16 dense
W_HBM = 3.35e12  # byte/s
HBM_BYTES = 80e9
RIDGE = P_PEAK / W_HBM


def prefill(S: int) -> tuple[float, float]:
    """FLOPs and HBM bytes of one prefill of S tokens."""
    flops = 2 * N_BODY * S + 2 * N_HEAD + 2 * L * NQ * DH * S**2
    bytes_ = B_BYTES * N_MM + S * S_KV
    return flops, bytes_


def decode(B: int, c: int) -> tuple[float, float]:
    """FLOPs and HBM bytes of one decode step: B sequences, each attending to c tokens."""
    flops = B * (2 * N_MM + 4 * L * NQ * DH * c)
    bytes_ = B_BYTES * N_MM + B * c * S_KV
    return flops, bytes_


def step_time(flops: float, bytes_: float) -> float:
    """Roofline lower bound of the time of one kernel-free step."""
    return max(flops / P_PEAK, bytes_ / W_HBM)


def attainable(intensity: float) -> float:
    return min(P_PEAK, intensity * W_HBM)


def max_batch(c: int, reserve: float = 0.9) -> int:
    """Largest batch whose KV cache fits next to the weights (keep 10% for activations etc.)."""
    free = reserve * HBM_BYTES - B_BYTES * N_TOTAL
    return int(free // (c * S_KV))


def train_flops_per_token(T: int, recompute: bool = False) -> float:
    """PaLM Appendix B: 6N + 12LHQT per token (model FLOPs); 8N + 16LHQT with full recompute."""
    lhq = L * NQ * DH
    return (8 * N_MM + 16 * lhq * T) if recompute else (6 * N_MM + 12 * lhq * T)


def worked_numbers() -> None:
    """Print the numbers quoted in the post."""
    print(f"N_body={N_BODY:,}  N_head={N_HEAD:,}  N_mm={N_MM:,}  N_total={N_TOTAL:,}")
    print(f"KV bytes/token={S_KV:,}  ridge={RIDGE:.0f} FLOP/B")
    for S in (512, 2048, 8192):
        f, q = prefill(S)
        print(f"prefill S={S}: F={f/1e12:.2f} TFLOP  Q={q/1e9:.2f} GB  I={f/q:.0f}"
              f"  t_min={step_time(f, q)*1e3:.1f} ms")
    for c in (2048, 8192):
        print(f"c={c}: max batch={max_batch(c)}")
        for B in (1, 8, 32, 64, 128, max_batch(c)):
            f, q = decode(B, c)
            t = step_time(f, q)
            print(f"  decode B={B}: I={f/q:.1f}  TPOT_min={t*1e3:.2f} ms"
                  f"  tput={B/t:,.0f} tok/s  MFU={f/t/P_PEAK*100:.1f}%")
    for T in (4096,):
        fm, fh = train_flops_per_token(T), train_flops_per_token(T, recompute=True)
        f_total = 6 * N_TOTAL + 12 * L * NQ * DH * T
        for tgs in (8000,):
            print(f"train T={T}: 6N+12LHQT={fm/1e9:.2f} GFLOP/token, 8N+16LHQT={fh/1e9:.2f}"
                  f"  TGS={tgs}: MFU={tgs*fm/P_PEAK*100:.1f}%  HFU(full recompute)="
                  f"{tgs*fh/P_PEAK*100:.1f}%  MFU(total params)={tgs*f_total/P_PEAK*100:.1f}%")


def main() -> None:
    fig, ax = plt.subplots(figsize=(8.2, 5.0))
    xs = [0.3 * 1.15**k for k in range(0, 75)]
    ax.plot(xs, [attainable(x) / 1e12 for x in xs], color=LINE, lw=2, label="H100 SXM roofline（BF16 稠密）")
    ax.axvline(RIDGE, color=LINE, ls=":", lw=1)
    ax.text(RIDGE * 1.08, 14, f"拐点 ≈ {RIDGE:.0f} FLOP/B", color=TEXT, fontsize=9)

    c = 2048
    dec = [(B, *decode(B, c)) for B in (1, 8, 32, 128)]
    ax.scatter([f / q for _, f, q in dec], [f / step_time(f, q) / 1e12 for _, f, q in dec],
               s=46, color=PALETTE["pink"]["stroke"], zorder=3, label=f"decode（上下文 c={c}）")
    for B, f, q in dec:
        ax.annotate(f"B={B}", (f / q, f / step_time(f, q) / 1e12), textcoords="offset points",
                    xytext=(6, -12), fontsize=9, color=TEXT)

    pre = [(S, *prefill(S)) for S in (512, 2048, 8192)]
    ax.scatter([f / q for _, f, q in pre], [f / step_time(f, q) / 1e12 for _, f, q in pre],
               s=46, marker="s", color=PALETTE["blue"]["stroke"], zorder=3, label="prefill（单条提示）")
    for S, f, q in pre:
        ax.annotate(f"S={S}", (f / q, f / step_time(f, q) / 1e12), textcoords="offset points",
                    xytext=(-16, 8), fontsize=9, color=TEXT)

    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(0.3, 3e4)
    ax.set_ylim(1, 2000)
    ax.set_xlabel("算术强度 I（FLOP / 字节 HBM 流量）")
    ax.set_ylabel("可达算力上限（TFLOPS）")
    ax.set_title("Qwen3-8B 在 H100 上的 roofline 位置（理论下界，示意）")
    ax.legend(loc="lower right", fontsize=9)
    save(fig, "train-infer-accel/assets/metrics-panorama-roofline.svg")


if __name__ == "__main__":
    if "--numbers" in sys.argv:
        worked_numbers()
    else:
        main()
