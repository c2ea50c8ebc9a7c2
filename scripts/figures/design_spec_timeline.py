"""Where the nine deep dives sit in the series: every order 1..21 on one chart.

Stated in series/train-infer-accel/design-spec.md, §二: the series has global posts (metrics panorama,
tech map, this design spec), eight deep dives published together on 2026-05-08, a ninth deep dive
that is still planned (在做), and the planned foundation posts. Published posts are placed at their
frontmatter date; planned posts (read from series.yml `planned:`) sit in the right-hand "在做" column.

Inputs:
  - PUBLISHED below: order, slug, short label, date — the series' fixed order plan
    (the same values as each post's frontmatter `order` / `date`).
  - series/train-infer-accel/series.yml: the planned posts (title, order), read at run time.

Run from the repository root:
    .venv/bin/python scripts/figures/design_spec_timeline.py
"""
from __future__ import annotations

import datetime as dt

import yaml

from _figstyle import LINE, PALETTE, ROOT, TEXT, plt, save

PUBLISHED = [  # (order, slug, short label, date, kind)
    (9, "metrics-panorama", "效率指标全景", "2026-03-20", "global"),
    (11, "tech-map", "训推加速技术地图", "2026-04-18", "global"),
    (12, "design-spec", "Design Spec（本文）", "2026-05-08", "global"),
    (13, "audio-acceleration", "语音 / 音频加速", "2026-05-08", "deep"),
    (14, "speculative-decoding-eagle3", "Speculative Decoding · EAGLE-3", "2026-05-08", "deep"),
    (15, "video-segmentation", "视频图像分割 · SAM 2 / SAM 3", "2026-05-08", "deep"),
    (16, "robot-vla", "机器人 VLA", "2026-05-08", "deep"),
    (17, "rl-fully-async", "RL fully-async", "2026-05-08", "deep"),
    (18, "music-generation", "音乐生成加速", "2026-05-08", "deep"),
    (19, "moe-training", "MoE 训练加速", "2026-05-08", "deep"),
    (20, "moe-to-dense-distillation", "MoE → Dense 蒸馏", "2026-05-08", "deep"),
]
NINTH_ORDER = 21  # the ninth deep dive of the design spec; still planned

KIND_STYLE = {  # kind -> (palette class, legend label)
    "global": ("yellow", "全局篇（指标 / 地图 / 设计规范）"),
    "deep": ("blue", "深化篇（已发布，8 篇）"),
    "ninth": ("pink", "第九篇深化（在做）"),
    "planned": ("green", "基础篇（在做）"),
}


def short(title: str, limit: int = 22) -> str:
    return title if len(title) <= limit else title[: limit - 1] + "…"


def main() -> None:
    manifest = yaml.safe_load((ROOT / "series" / "train-infer-accel" / "series.yml").read_text(encoding="utf-8"))
    planned = sorted(manifest.get("planned", []), key=lambda p: p["order"])

    d0 = dt.date(2026, 3, 1)
    def x_of(date: str) -> float:
        return (dt.date.fromisoformat(date) - d0).days
    x_planned = x_of("2026-06-20")

    fig, ax = plt.subplots(figsize=(11, 7.2))
    seen = set()
    for order, slug, label, date, kind in PUBLISHED:
        cls, leg = KIND_STYLE[kind]
        ax.scatter([x_of(date)], [order], s=120, color=PALETTE[cls]["fill"], edgecolor=PALETTE[cls]["stroke"],
                   linewidth=1.8, zorder=3, label=None if kind in seen else leg)
        seen.add(kind)
        ax.text(x_of(date) + 2.2, order, label, va="center", fontsize=9.5, color=TEXT)
    for p in planned:
        kind = "ninth" if p["order"] == NINTH_ORDER else "planned"
        cls, leg = KIND_STYLE[kind]
        ax.scatter([x_planned], [p["order"]], s=120, color=PALETTE[cls]["fill"], edgecolor=PALETTE[cls]["stroke"],
                   linewidth=1.8, linestyle="--", zorder=3, label=None if kind in seen else leg)
        seen.add(kind)
        ax.text(x_planned + 2.2, p["order"], short(p["title"]) + "（在做）", va="center", fontsize=9, color=LINE)

    ax.axvline(x_of("2026-05-08"), color=PALETTE["blue"]["stroke"], linewidth=1, linestyle=":", zorder=1)
    ax.text(x_of("2026-05-08"), 0.2, "2026-05-08：八篇深化同日发布", ha="center", fontsize=9,
            color=PALETTE["blue"]["stroke"])
    ax.axvspan(x_planned - 6, x_planned + 48, color="#F9FAFB", zorder=0)
    ax.text(x_planned + 20, 0.2, "未发布（series.yml planned）", ha="center", fontsize=9, color=LINE)

    ticks = ["2026-03-01", "2026-03-20", "2026-04-18", "2026-05-08"]
    ax.set_xticks([x_of(t) for t in ticks] + [x_planned])
    ax.set_xticklabels([t[5:] for t in ticks] + ["在做"])
    ax.set_xlim(-4, x_planned + 50)
    ax.set_ylim(22, -0.6)
    ax.set_yticks(range(1, 22))
    ax.set_ylabel("order（系列内顺序）")
    ax.set_xlabel("发布日期（2026 年）")
    ax.grid(axis="x", visible=False)
    ax.legend(loc="lower left", fontsize=9, frameon=False)
    ax.set_title("训推加速系列 21 个位置：全局篇、八篇深化、第九篇（在做）与基础篇", fontsize=12)
    fig.tight_layout()
    save(fig, "train-infer-accel/assets/design-spec-timeline.svg")
    print(f"published={len(PUBLISHED)} planned={len(planned)}")


if __name__ == "__main__":
    main()
