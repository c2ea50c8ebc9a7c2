"""RL 训练加速实战（rl-fully-async）图：colocated 同步 vs fully-async 的时间线与单步耗时（示意）。

模型与公式见正文 §七，这里逐条实现，所有数字都是示意参数算出来的，不是实测：

- 一个 step 要消费 N 条轨迹，长度 L_i 取截断对数正态分布的确定性分位点：
  L_i = min(L_cap, L_med * exp(sigma * z_i)),  z_i = Phi^{-1}((i - 0.5) / N)
- 解码受访存限制，每个 decode step 的时延 t_d 视为常数；一个推理实例（TP 张卡）同时跑 S 条序列，
  总槽位 slots(R) = (R / TP) * S。
- 训练吞吐 theta（token/s/卡，含 old log-prob 重算 + 前反向 + 优化器）为常数：
  T_train(G_t) = sum(L) / (G_t * theta)
- colocated 同步：全部 G 卡先推理、再切换、再训练，推理被最长样本卡住：
  T_gen_sync = max(L_max * t_d, sum(L) * t_d / slots(G));  T_step = T_gen_sync + T_switch + T_train(G)
- 分离但仍同步（先推完再训）：T_step = T_gen_nopartial(R) + T_ws + T_train(G - R)
- one-step-off（分离 + 重叠，但一个 batch 内的长尾仍要等完）：
  T_step = max(T_gen_nopartial(R), T_train(G - R)) + T_ws,
  T_gen_nopartial(R) = max(L_max * t_d, sum(L) * t_d / slots(R))
- fully-async + partial rollout（流式，长尾被切到后续 step，槽位一直满）：
  T_step = max(sum(L) * t_d / slots(R), T_train(G - R)) + T_ws
"""
from __future__ import annotations

from statistics import NormalDist

from _figstyle import LINE, PALETTE, plt, save

# ---- 示意参数 -------------------------------------------------------------------------------
G = 64            # 总卡数
N = 512           # 每个 step 消费的轨迹数（32 prompt x 16 samples）
L_MED = 3000      # 响应长度中位数（token）
SIGMA = 0.9       # 对数正态的 sigma，越大长尾越重
L_CAP = 16384     # max_response_length
T_D = 0.015       # 每个 decode step 的时延（秒）
TP = 2            # 每个推理实例的张量并行度
S = 32            # 每个推理实例的并发序列数
THETA = 300.0     # 训练吞吐，token/s/卡
T_SWITCH = 15.0   # colocated 每步训推切换（offload/onload、reshard、重建 KV）开销，秒
T_WS = 5.0        # 分离架构每次权重同步（NCCL broadcast）开销，秒


def lengths() -> list[int]:
    nd = NormalDist()
    out = []
    for i in range(1, N + 1):
        z = nd.inv_cdf((i - 0.5) / N)
        out.append(min(L_CAP, round(L_MED * 2.718281828459045 ** (SIGMA * z))))
    return out


L = lengths()
SUM_L = sum(L)
L_MAX = max(L)
MEAN_L = SUM_L / N


def slots(gpus: int) -> int:
    return (gpus // TP) * S


def t_train(gpus: int) -> float:
    return SUM_L / (gpus * THETA)


def t_gen_stream(gpus: int) -> float:
    return SUM_L * T_D / slots(gpus)


def t_gen_nopartial(gpus: int) -> float:
    return max(L_MAX * T_D, t_gen_stream(gpus))


# colocated 同步
T_GEN_SYNC = t_gen_nopartial(G)
T_TRAIN_SYNC = t_train(G)
T_STEP_SYNC = T_GEN_SYNC + T_SWITCH + T_TRAIN_SYNC
UTIL_GEN_SYNC = MEAN_L / L_MAX  # 推理阶段槽位平均占用率（长尾造成的空转）

# 扫描 rollout 卡数 R
R_LIST = list(range(TP * 2, G - 4 + 1, TP))
sep_sync = [t_gen_nopartial(r) + T_WS + t_train(G - r) for r in R_LIST]
one_off = [max(t_gen_nopartial(r), t_train(G - r)) + T_WS for r in R_LIST]
full_async = [max(t_gen_stream(r), t_train(G - r)) + T_WS for r in R_LIST]
best_i = min(range(len(R_LIST)), key=lambda i: full_async[i])
R_BEST = R_LIST[best_i]
T_STEP_ASYNC = full_async[best_i]
T_GEN_ASYNC = t_gen_stream(R_BEST)
T_TRAIN_ASYNC = t_train(G - R_BEST)


def report() -> None:
    print(f"N={N} sum(L)={SUM_L} mean(L)={MEAN_L:.0f} L_max={L_MAX}")
    print(f"colocated: gen={T_GEN_SYNC:.1f}s switch={T_SWITCH}s train={T_TRAIN_SYNC:.1f}s "
          f"step={T_STEP_SYNC:.1f}s gen-util={UTIL_GEN_SYNC:.0%}")
    print(f"fully-async best R={R_BEST}: gen={T_GEN_ASYNC:.1f}s train={T_TRAIN_ASYNC:.1f}s "
          f"step={T_STEP_ASYNC:.1f}s speedup={T_STEP_SYNC / T_STEP_ASYNC:.2f}x")
    i_one = min(range(len(R_LIST)), key=lambda i: one_off[i])
    i_sep = min(range(len(R_LIST)), key=lambda i: sep_sync[i])
    print(f"one-step-off best R={R_LIST[i_one]} step={one_off[i_one]:.1f}s; "
          f"separated-sync best R={R_LIST[i_sep]} step={sep_sync[i_sep]:.1f}s")


def draw() -> None:
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12.5, 4.6), gridspec_kw={"width_ratios": [1.35, 1]})

    blue, green, yellow = PALETTE["blue"], PALETTE["green"], PALETTE["yellow"]
    horizon = 2 * T_STEP_SYNC
    h = 0.6

    # 左：时间线
    y_sync, y_roll, y_train = 2.0, 1.0, 0.0
    t = 0.0
    for _ in range(2):
        ax1.broken_barh([(t, T_GEN_SYNC)], (y_sync - h / 2, h), facecolors=blue["fill"], edgecolors=blue["stroke"])
        ax1.broken_barh([(t + T_GEN_SYNC, T_SWITCH)], (y_sync - h / 2, h),
                        facecolors=yellow["fill"], edgecolors=yellow["stroke"])
        ax1.broken_barh([(t + T_GEN_SYNC + T_SWITCH, T_TRAIN_SYNC)], (y_sync - h / 2, h),
                        facecolors=green["fill"], edgecolors=green["stroke"])
        t += T_STEP_SYNC
    ax1.text(T_GEN_SYNC / 2, y_sync + h / 2 + 0.08,
             f"推理被长尾卡住：槽位平均占用 {UTIL_GEN_SYNC:.0%}", ha="center", va="bottom", fontsize=9)

    # fully-async：Rollouter 连续生成，仅在权重同步时暂停；Trainer 先等第一个 mini-batch 再连续训练
    warm = T_GEN_ASYNC / 4  # 等第一个 mini-batch（require_batches 的 1/4）
    t_tr = warm
    k = 0
    while t_tr < horizon:
        seg = min(T_TRAIN_ASYNC, horizon - t_tr)
        ax1.broken_barh([(t_tr, seg)], (y_train - h / 2, h), facecolors=green["fill"], edgecolors=green["stroke"])
        t_tr += T_TRAIN_ASYNC
        if t_tr < horizon:
            ax1.broken_barh([(t_tr, T_WS)], (y_train - h / 2, h),
                            facecolors=yellow["fill"], edgecolors=yellow["stroke"])
            ax1.broken_barh([(t_tr, T_WS)], (y_roll - h / 2, h),
                            facecolors=yellow["fill"], edgecolors=yellow["stroke"])
        t_tr += T_WS
        k += 1
    # Rollouter 的生成段：两次同步之间连续
    sync_starts = [warm + (j + 1) * T_TRAIN_ASYNC + j * T_WS for j in range(k)]
    prev = 0.0
    for s0 in sync_starts + [horizon]:
        end = min(s0, horizon)
        if end > prev:
            ax1.broken_barh([(prev, end - prev)], (y_roll - h / 2, h),
                            facecolors=blue["fill"], edgecolors=blue["stroke"])
        prev = s0 + T_WS
    ax1.axvline(horizon / 2, color=LINE, lw=0.8, ls=":")
    ax1.set_yticks([y_train, y_roll, y_sync])
    ax1.set_yticklabels([f"fully-async\nTrainer {G - R_BEST} 卡", f"fully-async\nRollouter {R_BEST} 卡",
                         f"colocated 同步\n全部 {G} 卡"])
    ax1.set_xlim(0, horizon)
    ax1.set_ylim(-0.6, 2.75)
    ax1.set_xlabel("时间（秒，示意）")
    ax1.set_title("(a) 两个 colocated step 的时间窗内发生了什么", fontsize=11)
    ax1.grid(axis="y", visible=False)
    handles = [
        plt.Rectangle((0, 0), 1, 1, facecolor=blue["fill"], edgecolor=blue["stroke"], label="rollout 生成"),
        plt.Rectangle((0, 0), 1, 1, facecolor=green["fill"], edgecolor=green["stroke"], label="训练（logprob + 前反向）"),
        plt.Rectangle((0, 0), 1, 1, facecolor=yellow["fill"], edgecolor=yellow["stroke"], label="切换 / 权重同步"),
    ]
    ax1.legend(handles=handles, loc="upper right", fontsize=8.5, ncol=3, bbox_to_anchor=(1.0, -0.16))

    # 右：单步耗时 vs rollout 卡占比
    x = [r / G for r in R_LIST]
    ax2.axhline(T_STEP_SYNC, color=PALETTE["pink"]["stroke"], lw=1.6, ls="--", label="colocated 同步（基线）")
    ax2.plot(x, sep_sync, color=LINE, lw=1.4, label="分离但同步（不重叠）")
    ax2.plot(x, one_off, color=PALETTE["yellow"]["stroke"], lw=1.8, label="one-step-off（重叠，无 partial）")
    ax2.plot(x, full_async, color=PALETTE["blue"]["stroke"], lw=2.2, label="fully-async + partial rollout")
    ax2.scatter([R_BEST / G], [T_STEP_ASYNC], color=PALETTE["blue"]["stroke"], zorder=5, s=28)
    ax2.annotate(f"R={R_BEST}：{T_STEP_ASYNC:.0f} s/step\n≈{T_STEP_SYNC / T_STEP_ASYNC:.1f}× 基线",
                 (R_BEST / G, T_STEP_ASYNC), xytext=(R_BEST / G + 0.16, T_STEP_ASYNC + 330),
                 fontsize=9, arrowprops={"arrowstyle": "->", "color": LINE, "lw": 0.8})
    ax2.set_xlabel("rollout 卡占比 R / G")
    ax2.set_ylabel("单步耗时（秒，示意）")
    ax2.set_ylim(0, T_STEP_SYNC * 2.4)  # 截掉 R 很大时训练卡太少导致的发散段
    ax2.set_title("(b) 资源切分决定 fully-async 的收益", fontsize=11)
    ax2.legend(fontsize=8.5, loc="upper right")

    fig.suptitle(f"colocated vs fully-async 单步时间模型（示意：G={G}，N={N}，长度对数正态 中位数 {L_MED}、截断 {L_CAP}）",
                 fontsize=11.5, y=1.02)
    fig.tight_layout()
    save(fig, "train-infer-accel/assets/rl-fully-async-timeline.svg")


if __name__ == "__main__":
    report()
    draw()
