"""MoE 训练加速实战（moe-training）图：每个 MoE 层前向的 EP 通信时间 vs 专家 GEMM 计算时间（示意）。

公式见正文 §九，逐条实现如下（每张卡、每个 MoE 层、前向一次；反向大致再乘 2，比例不变）：

- 计算：FLOPs = T * k * 6 * H * I（SwiGLU 专家三个矩阵，每个 2*H*I FLOPs/token）
        t_comp = FLOPs / (eta(T_e) * P),  eta(T_e) = eta_max * T_e / (T_e + T_half),
        T_e = T * k * EP / E 为每个本地专家分到的 token 数（负载均衡假设）
- 通信字节（dispatch 用 b_d 字节/元素，combine 用 b_c）：
  朴素 all-to-all：每个 token 复制 k 份，目的地在 EP 个 rank 上均匀分布
        B_rdma = T * k * H * (b_d + b_c) * max(EP - 8, 0) / EP
        B_nvl  = T * k * H * (b_d + b_c) * (min(EP, 8) - 1) / EP
  DeepEP 式（节点去重 + node-limited，每个 token 最多去 M 个节点，每个远端节点只走一次 RDMA）：
        n = EP / 8,  D = min(M, n * (1 - (1 - 1/n)^k)),  D_remote = D * (n - 1) / n
        B_rdma = T * D_remote * H * (b_d + b_c)
        B_nvl  = T * k * H * (b_d + b_c) * 7 / 8     （落地后按专家所在卡做 NVLink 转发）
  t_comm = 2 * t_0 + max(B_nvl / BW_nvl, B_rdma / BW_rdma)   （NVLink 与 RDMA 两条通道并行）
- 比值 t_comm / t_comp 中 H 约掉，且在 t_0 可忽略时与 T 无关，只和 I、EP、带宽有关。
"""
from __future__ import annotations

from _figstyle import LINE, PALETTE, plt, save

# ---- 形状：DeepSeek-V3 公开配置（config_671B.json）----------------------------------------
H = 7168          # hidden
I_DSV3 = 2048     # moe_inter_dim
K = 8             # 每个 token 激活的路由专家数
E = 256           # 路由专家数
M = 4             # node-limited routing：每个 token 最多去的节点数
GPN = 8           # 每节点卡数

# ---- 硬件：取 DeepEP V1 文档（docs/legacy.md）中 H800 实测瓶颈带宽的量级；其余为示意 -------
BW_NVL = 155e9    # B/s
BW_RDMA = 45e9    # B/s
T0 = 30e-6        # 每次 dispatch/combine 的固定开销 t_0（秒，示意）
P = 989e12        # BF16 稠密峰值 FLOPS（H800 / H100 SXM 量级）
ETA_MAX = 0.6     # 专家 GEMM 能达到的峰值利用率上限（示意）
T_HALF = 64       # 每专家 token 数到 T_HALF 时效率减半（示意）

BF16, FP8 = 2, 1


def t_comp(T: float, ep: int, inter: int = I_DSV3) -> float:
    t_e = T * K * ep / E
    eta = ETA_MAX * t_e / (t_e + T_HALF)
    return T * K * 6 * H * inter / (eta * P)


def t_comm_naive(T: float, ep: int, b_d: int = BF16, b_c: int = BF16) -> float:
    b = T * K * H * (b_d + b_c)
    b_rdma = b * max(ep - GPN, 0) / ep
    b_nvl = b * (min(ep, GPN) - 1) / ep
    return 2 * T0 + max(b_nvl / BW_NVL, b_rdma / BW_RDMA)


def t_comm_deepep(T: float, ep: int, b_d: int = FP8, b_c: int = BF16) -> float:
    if ep <= GPN:
        return t_comm_naive(T, ep, b_d, b_c)
    n = ep / GPN
    d = min(M, n * (1 - (1 - 1 / n) ** K))
    d_remote = d * (n - 1) / n
    b_rdma = T * d_remote * H * (b_d + b_c)
    b_nvl = T * K * H * (b_d + b_c) * (GPN - 1) / GPN
    return 2 * T0 + max(b_nvl / BW_NVL, b_rdma / BW_RDMA)


EP_LIST = [8, 16, 32, 64, 128]
T_FIX = 8192
T_LIST = [256, 512, 1024, 2048, 4096, 8192, 16384, 32768]
EP_B = 64
INTER_LIST = [(768, "I=768（同 Qwen3-30B-A3B 专家宽度）"), (1536, "I=1536（同 Qwen3-235B-A22B 专家宽度）"),
              (2048, "I=2048（DeepSeek-V3 专家宽度）")]


def report() -> None:
    for ep in EP_LIST:
        c = t_comp(T_FIX, ep) * 1e3
        nv = t_comm_naive(T_FIX, ep) * 1e3
        dp = t_comm_deepep(T_FIX, ep) * 1e3
        print(f"EP={ep:4d} T={T_FIX}: comp={c:6.2f}ms naive-bf16={nv:6.2f}ms deepep-style={dp:6.2f}ms "
              f"ratio naive={nv / c:.2f} deepep={dp / c:.2f}")
    for inter, _ in INTER_LIST:
        r = [t_comm_deepep(t, EP_B) / t_comp(t, EP_B, inter) for t in (T_LIST[0], T_FIX, T_LIST[-1])]
        print(f"I={inter}: ratio at T=256/8192/32768 = " + " / ".join(f"{x:.2f}" for x in r))


def draw() -> None:
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12.5, 4.6))

    comp = [t_comp(T_FIX, ep) * 1e3 for ep in EP_LIST]
    naive = [t_comm_naive(T_FIX, ep) * 1e3 for ep in EP_LIST]
    naive_fp8 = [t_comm_naive(T_FIX, ep, FP8, BF16) * 1e3 for ep in EP_LIST]
    deepep = [t_comm_deepep(T_FIX, ep) * 1e3 for ep in EP_LIST]
    ax1.plot(EP_LIST, comp, color=PALETTE["green"]["stroke"], lw=2.2, marker="o", ms=4, label="专家 GEMM 计算")
    ax1.plot(EP_LIST, naive, color=PALETTE["pink"]["stroke"], lw=1.8, marker="s", ms=4,
             label="朴素 all-to-all（BF16 dispatch + combine）")
    ax1.plot(EP_LIST, naive_fp8, color=PALETTE["yellow"]["stroke"], lw=1.8, marker="^", ms=4,
             label="朴素 all-to-all（FP8 dispatch）")
    ax1.plot(EP_LIST, deepep, color=PALETTE["blue"]["stroke"], lw=2.2, marker="D", ms=4,
             label="DeepEP 式（FP8 dispatch + 节点去重，M=4）")
    ax1.set_xscale("log", base=2)
    ax1.set_xticks(EP_LIST)
    ax1.set_xticklabels([str(e) for e in EP_LIST])
    ax1.set_xlabel("EP 规模（8 卡 / 节点，EP>8 即跨节点）")
    ax1.set_ylabel("每层前向耗时（ms，示意）")
    ax1.set_title(f"(a) 固定每卡 {T_FIX} token：通信随 EP 跨节点迅速超过计算", fontsize=11)
    ax1.legend(fontsize=8.3, loc="upper left")
    ax1.set_ylim(0, max(naive) * 1.15)

    colors = [PALETTE["pink"]["stroke"], PALETTE["yellow"]["stroke"], PALETTE["blue"]["stroke"]]
    for (inter, label), color in zip(INTER_LIST, colors):
        ratio = [t_comm_deepep(t, EP_B) / t_comp(t, EP_B, inter) for t in T_LIST]
        ax2.plot(T_LIST, ratio, color=color, lw=2.0, marker="o", ms=3.5, label=label)
    ax2.axhline(1.0, color=LINE, lw=1.0, ls="--")
    ax2.text(T_LIST[0], 1.04, "通信 = 计算：必须完全重叠才不拖慢", fontsize=8.5, color=LINE, va="bottom")
    ax2.set_xscale("log", base=2)
    ax2.set_xticks(T_LIST)
    ax2.set_xticklabels([f"{t // 1024}k" if t >= 1024 else str(t) for t in T_LIST])
    ax2.set_xlabel("每卡 token 数 T")
    ax2.set_ylabel("t_comm / t_comp（示意）")
    ax2.set_ylim(0, 4.8)
    ax2.set_title(f"(b) EP={EP_B}、DeepEP 式通信：比值几乎不随 T 变，随专家变细而升", fontsize=11)
    ax2.legend(fontsize=8.3, loc="center right", ncol=1, bbox_to_anchor=(1.0, 0.6), title="专家宽度（其余形状同左）", title_fontsize=8.3)

    fig.suptitle("MoE 层通信 vs 计算（示意：H=7168、top-8、256 专家；NVLink 155 GB/s、RDMA 45 GB/s；BF16 峰值 989 TFLOPS × 60%）",
                 fontsize=11.5, y=1.02)
    fig.tight_layout()
    save(fig, "train-infer-accel/assets/moe-training-comm-compute.svg")


if __name__ == "__main__":
    report()
    draw()
