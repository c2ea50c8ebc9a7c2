#!/usr/bin/env python3
"""Generate a realistic synthetic series for the benchmarks: N posts that pass every convention.

    python scripts/gen_synthetic.py --n 1000 --out .bench/synthetic        # seed 9 by default

Each post is shaped like the real ones in series/train-infer-accel/: frontmatter (title, slug,
dates, series, order, tags, summary), a lead that names a standing example, a sister line with
links to other synthetic posts, the series index and planned posts (（在做）), the timeliness
banner, the `零、本文骨架` skeleton table, numbered `##` sections with `###` subsections, about
6,000 Chinese characters of prose with inline code, bold, links and inline math, display
formulas, three mermaid diagrams using the palette classes (a flowchart, a sequence diagram and a
state diagram), two captioned figures (SVG files under assets/), a comparison table, a code
block and a closing 参考资料 section. The series has its own series.yml (with planned posts) and
glossary.yml, so glossary tooltips and the jieba dictionary are exercised too.

Deterministic: the same seed gives byte-identical files, and post i does not depend on N except
for its "next post" sister link. Dates lie in 2026-01-01 .. 2026-05-31, so with the build date
2026-06-01 (SOURCE_DATE_EPOCH=1780272000, as the tests use) no post is stale.

The target directory receives `conventions.yml` (copied from the repository) and `series/`; it
is a project the linter can check (`load_site(out)`); scripts/bench_build.py adds the MkDocs
scaffolding around it.
"""
from __future__ import annotations

import argparse
import datetime as dt
import random
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from serieskit.conventions import load_conventions  # noqa: E402

CONV = load_conventions(ROOT / "conventions.yml")   # the banner's wording, as authors write it
SERIES = "synth"
BUILD_DATE = dt.date(2026, 6, 1)          # the date the benchmarks build and lint on
SOURCE_DATE_EPOCH = "1780272000"          # 2026-06-01T00:00:00Z
FIRST_DATE = dt.date(2026, 1, 1)
STANDING = ["Qwen3.5", "Qwen3.6", "DeepSeek-V4"]
NUMERALS = "零一二三四五六七八九"

# --- vocabulary ------------------------------------------------------------------------------------
# (term, English, abbreviation, one-line description): the glossary, and the topics posts are about.
TERMS = [
    ("投机解码", "Speculative Decoding", "", "先用小模型起草若干 token，再由目标模型一次并行验证的无损解码加速方法。"),
    ("连续批处理", "Continuous Batching", "", "按迭代粒度把新请求并入正在解码的 batch，避免整批等待最慢请求的调度方式。"),
    ("分页注意力", "PagedAttention", "", "把 KV cache 切成固定大小的页、用页表间接寻址，以消除显存碎片的注意力实现。"),
    ("前缀缓存", "Prefix Caching", "", "对共享前缀的请求复用已计算的 KV cache，省掉重复的 prefill 计算。"),
    ("张量并行", "Tensor Parallelism", "TP", "把单层内的矩阵乘按行或列切到多卡、层内用集合通信拼接结果的并行方式。"),
    ("流水线并行", "Pipeline Parallelism", "PP", "把模型按层切成若干段放在不同卡上、用微批次填满流水线的并行方式。"),
    ("专家并行", "Expert Parallelism", "EP", "把 MoE 的不同专家放在不同卡上、用 all-to-all 分发 token 的并行方式。"),
    ("上下文并行", "Context Parallelism", "CP", "沿序列维切分长序列、用环形通信交换 KV 的并行方式。"),
    ("激活重计算", "Activation Recomputation", "", "反向时重新计算部分前向激活，用算力换显存的训练技巧。"),
    ("梯度累积", "Gradient Accumulation", "", "多个微批次的梯度相加后再更新参数，以小显存模拟大 batch。"),
    ("混合精度", "Mixed Precision", "", "前向与反向用低精度、主权重与优化器状态用高精度的训练方式。"),
    ("算子融合", "Kernel Fusion", "", "把多个逐元素或归约算子合成一个 kernel，减少显存往返与启动开销。"),
    ("显存带宽", "Memory Bandwidth", "", "GPU 每秒能从 HBM 读写的字节数，决定访存受限 kernel 的速度上限。"),
    ("首字延迟", "Time To First Token", "TTFT", "从请求到达到返回第一个输出 token 的时间，主要由排队与 prefill 决定。"),
    ("每 token 延迟", "Time Per Output Token", "TPOT", "首 token 之后平均每个输出 token 的生成时间。"),
    ("模型算力利用率", "Model FLOPs Utilization", "MFU", "实际吞吐折算的模型 FLOPs/s 与硬件峰值之比。"),
    ("有效吞吐", "Goodput", "", "只统计满足延迟目标的那部分请求的吞吐。"),
    ("算术强度", "Arithmetic Intensity", "", "一个 kernel 的浮点运算量与访存字节数之比。"),
    ("负载均衡", "Load Balancing", "", "让各个专家或各张卡承担相近工作量，避免最慢者拖住全体。"),
    ("路由坍缩", "Routing Collapse", "", "MoE 路由集中到少数专家、其余专家学不到东西的现象。"),
    ("权重量化", "Weight Quantization", "", "把权重压到 INT4 / FP8 等低比特格式以减少显存与带宽的方法。"),
    ("知识蒸馏", "Knowledge Distillation", "", "用教师模型的输出分布训练更小学生模型的方法。"),
    ("异步 rollout", "Asynchronous Rollout", "", "生成与训练解耦、用略旧策略持续采样的 RL 训练方式。"),
    ("通信重叠", "Communication Overlap", "", "让集合通信与计算在不同 stream 上同时进行，把通信藏在计算后面。"),
    ("静态图捕获", "CUDA Graph Capture", "", "把一串 kernel 启动录成图一次性重放，消除小 batch 的启动开销。"),
    ("预填充", "Prefill", "", "一次性处理整个提示词、生成首个 token 与 KV cache 的推理阶段。"),
    ("自回归解码", "Autoregressive Decoding", "", "每步生成一个 token 并追加到输入的解码方式，通常访存受限。"),
    ("分离式部署", "Disaggregated Serving", "", "把 prefill 与 decode 放在不同实例上、各自扩缩容的部署方式。"),
    ("量化感知训练", "Quantization-Aware Training", "QAT", "训练时模拟量化误差，让模型适应低比特推理的方法。"),
    ("优化器状态切分", "Optimizer State Sharding", "", "把优化器状态按数据并行 rank 切分存放，以降低每卡显存。"),
]
METRICS = ["首字延迟", "每 token 延迟", "吞吐", "显存占用", "模型算力利用率", "有效吞吐", "尾延迟", "单卡 token 数",
           "通信时间", "kernel 启动开销", "显存带宽利用率", "端到端训练时间"]
FACTORS = ["显存带宽", "跨节点通信", "kernel 启动开销", "调度粒度", "KV cache 容量", "激活显存", "路由不均",
           "序列长度分布", "batch 大小", "流水线气泡", "主机侧 Python 开销", "数据加载", "权重加载", "同步点"]
ACTIONS = ["把 batch 按长度分桶", "开启静态图捕获", "预先分配显存池", "把通信放到独立 stream", "改用融合 kernel",
           "把 KV cache 换成 FP8", "调大微批次数量", "限制每个 token 访问的节点数", "引入前缀缓存",
           "把 prefill 与 decode 分开部署", "对长请求做分块预填充", "把路由计算保持在 FP32"]
SCENES = ["小 batch 解码", "长上下文预填充", "多机多卡训练", "在线服务高峰", "离线批量推理", "RL 采样阶段",
          "MoE 前向", "蒸馏数据生成", "多模态编码", "低延迟对话场景"]
FRAMEWORKS = ["vLLM", "SGLang", "Megatron-Core", "DeepSpeed", "TensorRT-LLM", "PyTorch", "NCCL", "FlashAttention"]
FLAGS = ["--max-num-seqs", "--enable-prefix-caching", "--tensor-parallel-size", "--kv-cache-dtype",
         "--num-scheduler-steps", "--recompute-granularity", "--overlap-grad-reduce", "--moe-router-dtype"]
FORMULAS_INLINE = [r"T \cdot k \cdot H", r"B / t_{\text{step}}", r"\frac{F}{P}", r"\eta \cdot P",
                   r"O(n^2)", r"2 N D", r"b_d + b_c", r"\max(t_c, t_m)", r"k / E", r"\sqrt{d}"]
FORMULAS_DISPLAY = [
    r"t_{\text{step}} = \max\left(\frac{F_{\text{dec}}}{P_{\text{peak}}}, \frac{M_{\text{dec}}}{W_{\text{hbm}}}\right)",
    r"\text{MFU} = \frac{6 N D}{t \cdot P \cdot n_{\text{gpu}}}",
    r"B_{\text{a2a}} = T \cdot k \cdot H \cdot (b_d + b_c)",
    r"\text{Goodput} = \frac{|\{r : \text{TTFT}_r \le s_1 \wedge \text{TPOT}_r \le s_2\}|}{t}",
    r"\mathbb{E}[L] = \frac{1 - \alpha^{\gamma + 1}}{1 - \alpha}",
    r"M_{\text{kv}} = 2 \cdot L \cdot H_{\text{kv}} \cdot d \cdot s \cdot b",
]
CONNECT = ["因此", "换句话说", "更具体地说", "反过来看", "在实践中", "需要注意的是", "从数字上看", "归根结底"]
PLANNED = ["合成系列：调度器源码导读", "合成系列：显存账本", "合成系列：通信拓扑实测", "合成系列：量化误差分析",
           "合成系列：训练稳定性手册"]
SECTION_TOPICS = ["问题与动机", "基本原理", "通信账", "显存账", "调度策略", "kernel 实现", "实测数据", "配方与陷阱",
                  "与其他方法的组合", "排障清单"]


def chinese(n: int) -> str:
    if n < 10:
        return NUMERALS[n]
    if n < 20:
        return "十" + (NUMERALS[n - 10] if n > 10 else "")
    t, u = divmod(n, 10)
    return NUMERALS[t] + "十" + (NUMERALS[u] if u else "")


def slug_of(i: int) -> str:
    return f"post-{i:04d}"


def title_of(i: int) -> str:
    rng = random.Random(f"title:{i}")
    term = TERMS[i % len(TERMS)][0]
    return f"合成 {i:04d}：{term}在{rng.choice(SCENES)}中的{rng.choice(['实战', '拆解', '账本', '取舍', '全景'])}"


def short_title(i: int) -> str:
    return f"合成 {i:04d}"



NOT_PROSE = re.compile(r"(`[^`]*`|\$[^$]*\$|\]\([^)]*\))")
TOUCH_A = re.compile(r"([\u4e00-\u9fff])([A-Za-z0-9])")
TOUCH_B = re.compile(r"([A-Za-z0-9%])([\u4e00-\u9fff])")


def spaced_lines(lines: list[str]) -> list[str]:
    """`spaced` on the lines of a post's prose: not its frontmatter, code fences or display math."""
    out, fence, math, front = [], False, False, bool(lines) and lines[0] == "---"
    for k, line in enumerate(lines):
        s = line.strip()
        if front:
            front = not (k > 0 and s == "---")
        elif s.startswith("```"):
            fence = not fence
        elif s.startswith("$$"):
            math = not math if s == "$$" else math
        elif not fence and not math:
            line = spaced(line)
        out.append(line)
    return out


def spaced(text: str) -> str:
    """A space wherever Chinese meets Latin text or a digit, outside code, math and link targets."""
    parts = NOT_PROSE.split(text)
    for k in range(0, len(parts), 2):
        parts[k] = TOUCH_B.sub(r"\1 \2", TOUCH_A.sub(r"\1 \2", parts[k]))
    return "".join(parts)

class Writer:
    """Prose for one post, from its own random stream."""

    def __init__(self, rng: random.Random, i: int, n: int):
        self.rng, self.i, self.n = rng, i, n
        self.cjk = 0
        self.linked = False

    def pick(self, seq):
        return self.rng.choice(seq)

    def sentence(self) -> str:
        """One sentence of prose, written as the series writes (TYP001: a space between Chinese and
        Latin text or digits)."""
        r = self.rng
        t = r.randrange(16)
        S, M, F, A, C = self.pick(TERMS)[0], self.pick(METRICS), self.pick(FACTORS), self.pick(ACTIONS), self.pick(SCENES)
        X, W = self.pick(STANDING), self.pick(FRAMEWORKS)
        if t == 0:
            s = f"在{C}里，{S}对{M}的影响主要来自{F}，{self.pick(CONNECT)}第一步通常是{A}。"
        elif t == 1:
            s = f"以 {X} 为例，{F}在{C}中占到总时间的 {r.randrange(12, 68)}% 左右，这部分开销与模型结构几乎无关。"
        elif t == 2:
            s = f"如果只看{M}，{S}似乎总是划算的；但把{F}一起算进来，收益会从 {r.randrange(20, 60)}% 缩到个位数。"
        elif t == 3:
            s = f"{W} 提供了 `{self.pick(FLAGS)}` 这个开关，它的作用是{A}，默认值在{C}下并不理想。"
        elif t == 4:
            s = f"用公式表达，瓶颈项是 ${self.pick(FORMULAS_INLINE)}$，它随{F}线性增长，而与{M}的关系是次线性的。"
        elif t == 5:
            s = f"**关键在于{F}**：{S}只是把问题从{M}转移到了{self.pick(METRICS)}，并没有让它消失。"
        elif t == 6:
            s = f"我们在 {r.randrange(2, 65)} 张卡上复现了这个现象，{M}的波动范围大约是 {r.randrange(3, 30)}%，与{F}的变化同步。"
        elif t == 7:
            s = f"{self.pick(CONNECT)}，{A}之后{M}下降得最明显，但{self.pick(FACTORS)}会变成新的瓶颈，需要重新测量。"
        elif t == 8:
            s = f"对 {X} 这一级别的模型，{S}与{self.pick(TERMS)[0]}可以叠加使用，两者分别作用在{F}和{self.pick(FACTORS)}上。"
        elif t == 9 and self.i > 0:
            j = self.rng.randrange(0, self.i)
            s = f"{F}的推导细节见[{short_title(j)}]({slug_of(j)}.md)，这里只给出结论：{A}。"
        elif t == 10:
            s = f"很多团队在{C}里忽略了{F}，结果{M}的 P99 比均值高出 {r.randrange(2, 9)} 倍，这通常不是模型本身的问题。"
        elif t == 11:
            s = f"从工程角度看，{A}的代价是多维护一套配置；在{C}下，这个代价值得付出。"
        elif t == 12:
            s = f"表面上{S}改变的是{M}，实际上它改变的是{F}与计算之间的比例，这一点在 {X} 上尤其明显。"
        elif t in (13, 14):
            b, L = 2 ** r.randrange(0, 9), 1024 * 2 ** r.randrange(0, 6)
            s = (f"在 batch={b}、seq_len={L} 的配置下，{W} 的 `{self.pick(FLAGS)}={r.randrange(1, 256)}` 配合 "
                 f"`{self.pick(FLAGS)}` 把 {M} 从 {r.randrange(20, 90)} ms 降到 {r.randrange(5, 19)} ms（A100 / H100 SXM，"
                 f"CUDA 12.{r.randrange(1, 9)}）。")
        else:
            s = f"一个简单的检查方法是对比{C}与{self.pick(SCENES)}下的{M}：两者差距越大，{F}越可能是瓶颈。"
        s = spaced(s)
        self.cjk += sum(1 for ch in s if "\u4e00" <= ch <= "\u9fff")
        return s

    def paragraph(self, k: int | None = None) -> str:
        return "".join(self.sentence() for _ in range(k or self.rng.randrange(3, 6)))


def mermaid_flowchart(rng: random.Random) -> list[str]:
    names = rng.sample([t[0] for t in TERMS], 6)
    return ["```mermaid", "flowchart LR",
            "  accTitle: 请求的处理路径",
            f"  accDescr: 请求到达后经 {names[0]} 分成两路，汇合后的统计反馈给 {names[4]}。",
            f'  A["请求到达"] --> B["{names[0]}"]',
            f'  B --> C["{names[1]}"]',
            f'  B --> D["{names[2]}"]',
            f'  C --> E["{names[3]}<br/>合并结果"]',
            "  D --> E",
            f'  E -.->|"反馈统计"| F["{names[4]}"]',
            "  F -.-> B",
            "  class A yellow",
            "  class B,E blue",
            "  class C,D green",
            "  F:::pink",
            "```"]


def mermaid_sequence(rng: random.Random) -> list[str]:
    w = rng.sample(FRAMEWORKS, 2)
    return ["```mermaid", "sequenceDiagram",
            "  accTitle: 一次请求的时序",
            "  accDescr: 客户端提交请求，调度器让 GPU 预填充并逐步解码，token 流式返回客户端。",
            "  participant C as 客户端",
            f"  participant S as {w[0]} 调度器",
            "  participant G as GPU 工作进程",
            "  C->>S: 提交请求（提示词）",
            "  S->>G: 预填充并写入 KV cache",
            "  G-->>S: 首个 token",
            "  S-->>C: 流式返回",
            "  loop 每个解码步",
            "    S->>G: 合并后的 batch",
            "    G-->>S: 下一个 token",
            "  end",
            f"  Note over S,G: {w[1]} 负责卡间通信",
            "```"]


def mermaid_state(rng: random.Random) -> list[str]:
    return ["```mermaid", "stateDiagram-v2",
            "  accTitle: 请求的状态",
            "  accDescr: 请求在排队、预填充、解码与换出几个状态之间转换。",
            '  state "排队" as Q',
            '  state "预填充" as P',
            '  state "解码" as D',
            '  state "换出" as S',
            "  [*] --> Q",
            "  Q --> P: 调度器选中",
            "  P --> D: 首个 token",
            "  D --> D: 下一个 token",
            "  D --> S: 显存不足",
            "  S --> Q: 显存释放",
            "  D --> [*]: 结束符",
            f"  class Q {rng.choice(['yellow', 'pink'])}",
            "  class P green",
            "  class D blue",
            "```"]


def figure_svg(rng: random.Random, title: str) -> str:
    """A small bar chart in the palette, text kept as text (like the real figure scripts)."""
    fills = ["#DBEAFE", "#DCFCE7", "#FEF3C7", "#FCE7F3"]
    strokes = ["#3B82F6", "#16A34A", "#F59E0B", "#EC4899"]
    bars = []
    for k in range(6):
        h = rng.randrange(30, 170)
        c = k % 4
        bars.append(f'<rect x="{40 + k * 55}" y="{200 - h}" width="40" height="{h}" fill="{fills[c]}" '
                    f'stroke="{strokes[c]}" stroke-width="1.5"/>'
                    f'<text x="{60 + k * 55}" y="218" text-anchor="middle" font-size="11" fill="#1F2937">B={2 ** k}</text>')
    return ("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"380\" height=\"240\" viewBox=\"0 0 380 240\">"
            f"<title>{title}</title><rect width=\"380\" height=\"240\" fill=\"#FFFFFF\"/>"
            "<line x1=\"30\" y1=\"200\" x2=\"370\" y2=\"200\" stroke=\"#6B7280\"/>"
            + "".join(bars) + f"<text x=\"190\" y=\"20\" text-anchor=\"middle\" font-size=\"13\" fill=\"#1F2937\">{title}</text></svg>\n")


def post(i: int, n: int, seed: int) -> tuple[str, dict[str, str]]:
    """The Markdown of post i (0-based) of n, and its asset files {name: svg}."""
    rng = random.Random(f"{seed}:{i}")
    w = Writer(rng, i, n)
    slug, title = slug_of(i), title_of(i)
    term = TERMS[i % len(TERMS)]
    date = FIRST_DATE + dt.timedelta(days=rng.randrange(0, 140))
    updated = date + dt.timedelta(days=rng.randrange(0, 11))
    tags = rng.sample(["推理", "训练", "显存", "通信", "调度", "量化", "MoE", "kernel", "长上下文", "RL"], 3)
    example = STANDING[i % len(STANDING)]
    nsec = 8
    topics = [SECTION_TOPICS[0]] + rng.sample(SECTION_TOPICS[1:-1], nsec - 2) + [SECTION_TOPICS[-1]]

    # sister line: the series index, neighbours, an earlier post, a planned post
    items = ["[合成系列导航](index.md)"]
    if i > 0:
        items.append(f"[{short_title(i - 1)}]({slug_of(i - 1)}.md)（上一篇）")
    if i + 1 < n:
        items.append(f"[{short_title(i + 1)}]({slug_of(i + 1)}.md)（下一篇）")
    if i > 2:
        j = rng.randrange(0, i - 1)
        items.append(f"[{short_title(j)}]({slug_of(j)}.md)")
    items.append(f"{PLANNED[i % len(PLANNED)]}（在做）")

    lines = ["---", f'title: "{title}"', f"slug: {slug}", f"date: {date.isoformat()}",
             f"updated: {updated.isoformat()}", "author: Bench Writer", f"series: {SERIES}", f"order: {i + 1}",
             "status: published", f"tags: [{', '.join(tags)}]",
             f"summary: 以 {example} 为例拆解{term[0]}在真实负载下的收益与代价：公式、示意图、实测表与配方清单。",
             "---", "",
             f"合成系列第 {i + 1} 篇。本篇以 {example} 为 standing example，讨论{term[0]}（{term[1]}）。"
             + w.paragraph(3), "",
             "姊妹篇：" + " · ".join(items), "",
             f"> {CONV.banner(updated.isoformat())}：框架参数名随版本变化，文中数字为合成数据，仅用于基准测试。", "",
             "## 零、本文骨架", "", "| 小节 | 主题 | 产出 |", "|---|---|---|"]
    for k, t in enumerate(topics, 1):
        lines.append(f"| §{chinese(k)} | {t} | {w.pick(METRICS)}的估算与{w.pick(ACTIONS)}的条件 |")
    lines.append("")

    # where the special blocks go: section -> blocks
    diagrams = [mermaid_flowchart(rng), mermaid_sequence(rng), mermaid_state(rng)]
    place = {2: ["diagram", "formula"], 3: ["figure", "code"], 4: ["diagram", "formula"], 5: ["table"],
             6: ["figure", "formula", "shell"], 7: ["diagram"]}
    assets: dict[str, str] = {}
    fig_no = 0
    target = 5400   # prose sentences; headings, tables and captions bring the post to about 6,000
    per_section = target // nsec
    for k, t in enumerate(topics, 1):
        lines += [f"## {chinese(k)}、{t}", ""]
        goal = per_section * k
        sub = 0
        while w.cjk < goal - 40 or sub == 0:
            sub += 1
            if sub > 1 or rng.random() < 0.6:
                lines += [f"### {k}.{sub} {w.pick(METRICS)}与{w.pick(FACTORS)}", ""]
            lines += [w.paragraph(), ""]
            if w.cjk < goal - 200:
                lines += [w.paragraph(), ""]
            if sub > 6:
                break
        for block in place.get(k, []):
            if block == "diagram":
                lines += diagrams.pop(0) + ["", w.paragraph(2), ""]
            elif block == "formula":
                lines += ["$$", w.pick(FORMULAS_DISPLAY), "$$", "", w.paragraph(2), ""]
            elif block == "figure":
                fig_no += 1
                name = f"{slug}-fig{fig_no}.svg"
                assets[name] = figure_svg(rng, f"{short_title(i)} 图 {fig_no}")
                lines += [f"![{w.pick(METRICS)}随 batch 的变化](assets/{name})  ",
                          f"图 {fig_no}：{w.pick(METRICS)}随 batch 大小的变化（合成数据，示意）", "", w.paragraph(2), ""]
            elif block == "code":
                lines += ["```python", "def step_time(flops, bytes_, peak, bw):",
                          '    """Roofline lower bound of one step, in seconds."""',
                          "    return max(flops / peak, bytes_ / bw)", "",
                          f"print(step_time({rng.randrange(1, 9)}e12, {rng.randrange(1, 9)}e9, 989e12, 3.35e12))",
                          "```", ""]
            elif block == "shell":
                lines += ["```bash", f"# {w.pick(SCENES)}: {w.pick(FRAMEWORKS)}",
                          f"python -m bench.serve --model {example} {w.pick(FLAGS)} {rng.randrange(1, 9)} \\",
                          f"    {w.pick(FLAGS)} {rng.randrange(1, 65)} --port 8{rng.randrange(100, 999)}",
                          "nvidia-smi dmon -s pucm -d 1 | tee gpu.log", "```", ""]
            elif block == "table":
                lines += ["| 方案 | " + " | ".join(rng.sample(METRICS, 3)) + " | 适用场景 |", "|---|---|---|---|---|"]
                for a in rng.sample(ACTIONS, 5):
                    lines.append(f"| {a} | {rng.randrange(5, 95)}% | {rng.randrange(1, 40)} ms | "
                                 f"{rng.randrange(1, 8)}.{rng.randrange(10)}x | {w.pick(SCENES)} |")
                lines += ["", w.paragraph(2), ""]
    lines += ["## 参考资料", "",
              f"- {w.pick(FRAMEWORKS)} 官方文档：<https://example.org/docs/{slug}>",
              f"- [{w.pick(FRAMEWORKS)} 设计笔记](https://example.org/notes/{rng.randrange(1000)})",
              "- 合成系列的其他文章见[系列导航](index.md)", ""]
    return "\n".join(spaced_lines(lines)), assets


def manifest(n: int) -> str:
    planned = "\n".join(f"  - {{title: {t}, order: {n + 1 + k}, summary: 合成系列的规划文章。}}"
                        for k, t in enumerate(PLANNED))
    return ("# Synthetic series for the benchmarks (scripts/gen_synthetic.py); do not edit by hand.\n"
            "title: 合成系列\nslug: synth\nindex_title: 合成系列导航\n"
            "description: 基准测试用的合成系列：结构与真实文章一致，内容由固定种子生成。\n"
            "author: Bench Writer\n"
            f"standing_examples: [{', '.join(STANDING)}]\nstale_after_days: 180\ntimely: true\n"
            "glossary: glossary.yml\nrules: {}\nplanned:\n" + planned + "\n")


def glossary(n: int) -> str:
    out = ["# Glossary of the synthetic series (scripts/gen_synthetic.py)."]
    for k, (term, en, abbr, desc) in enumerate(TERMS):
        out += [f"- term: {term}", f"  en: {en}"]
        if abbr:
            out.append(f"  abbr: {abbr}")
        out.append(f'  desc: "{desc}"')
        if k < n:
            out.append(f"  post: {slug_of(k)}")
    return "\n".join(out) + "\n"


def generate(out: str | Path, n: int, seed: int = 9, clean: bool = True) -> Path:
    """Write the synthetic project (conventions.yml + series/synth/) into `out`; return it."""
    out = Path(out)
    area = out / "series" / SERIES
    if clean and area.exists():
        shutil.rmtree(area)
    (area / "assets").mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "conventions.yml", out / "conventions.yml")
    (area / "series.yml").write_text(manifest(n), encoding="utf-8")
    (area / "glossary.yml").write_text(glossary(n), encoding="utf-8")
    for i in range(n):
        text, assets = post(i, n, seed)
        (area / f"{slug_of(i)}.md").write_text(text, encoding="utf-8")
        for name, svg in assets.items():
            (area / "assets" / name).write_text(svg, encoding="utf-8")
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=100, help="number of posts (default 100)")
    ap.add_argument("--seed", type=int, default=9, help="random seed (default 9)")
    ap.add_argument("--out", default=str(ROOT / ".bench" / "synthetic"), help="target project directory")
    a = ap.parse_args(argv)
    out = generate(a.out, a.n, a.seed)
    print(f"wrote {a.n} posts to {out / 'series' / SERIES}")


if __name__ == "__main__":
    sys.exit(main())
