"""`series-new-post` / `python scripts/new_post.py`: scaffold a post of a series that passes the linter.

Frontmatter with the next `order` and today's date, the timeliness banner (for timely series), a
sister line with the series index link, the skeleton table and numbered sections. It never
overwrites a file: the post is created with O_EXCL.
"""
from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import sys
from pathlib import Path

from . import report
from .cli import find_root
from serieskit.conventions import CONVENTIONS_FILE, ConfigError, load_conventions
from .engine import lint
from serieskit.model.loader import load_site, today_from_env
from serieskit.model.site import SERIES_DIR, SLUG_RE, nfkc
from serieskit.model.schema import FRONTMATTER
from serieskit.analysis.sections import to_chinese

PLANNED_LINE = re.compile(r"^\s*-\s*\{.*\btitle:\s*(?P<title>[^,}]+?)\s*[,}].*$")


class NewPostError(Exception):
    pass


def scaffold(site, series, slug: str, title: str, date: dt.date, sections: int, tags: list[str],
             order: int) -> str:
    conv = site.conv
    example = series.standing_examples[0] if series.standing_examples else ""
    lead_example = f"（以 {example} 为例）" if example else ""
    values = {"title": f'"{title}"', "slug": slug, "date": date.isoformat(), "author": series.author or None,
              "series": series.slug, "order": order, "status": "draft", "tags": "[" + ", ".join(tags) + "]",
              "summary": "一句话说明本文讲什么（显示在系列导航和首页）。"}
    fm = ["---", *(f"{k.name}: {values[k.name]}" for k in FRONTMATTER if values.get(k.name) is not None), "---", ""]
    body = [f"在这里写导语：本文要回答的问题、读者读完能得到什么{lead_example}。", "",
            f"{conv.sister_prefix}[{series.index_title}](index.md)", ""]
    if series.timely:
        body += [f"> {conv.banner(date.isoformat())}：说明哪些内容会随版本变化。", ""]
    body += [f"## {conv.skeleton_heading}", "", "| " + " | ".join(conv.skeleton_columns) + " |",
             "|" + "---|" * len(conv.skeleton_columns)]
    for i in range(1, sections + 1):
        body.append(f"| §{to_chinese(i)} | 第 {i} 节的主题 | 读者得到什么 |")
    body.append("")
    for i in range(1, sections + 1):
        body += [f"## {to_chinese(i)}、第 {i} 节", "", "正文。", ""]
    body += ["## 参考资料", "", "- 在这里列出引用的论文、文档与代码仓库（附链接）。", ""]
    return "\n".join(fm + body)


def _remove_planned(manifest: Path, title: str) -> bool:
    """Drop a one-line `- {title: ...}` planned entry of `title` from the manifest; True if done."""
    lines = manifest.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines):
        m = PLANNED_LINE.match(line)
        if m and nfkc(m.group("title").strip("\"'")) == nfkc(title):
            del lines[i]
            from .fix import write_atomic
            write_atomic(manifest, "\n".join(lines).encode("utf-8"))
            return True
    return False


def create(root: Path, series_slug: str, slug: str, title: str, date: dt.date | None = None,
           sections: int = 3, tags: list[str] | None = None) -> tuple[Path, list]:
    conv = load_conventions(root / CONVENTIONS_FILE)
    site = load_site(root, conv, today=date)
    series = site.series.get(series_slug)
    if series is None:
        raise NewPostError(f"no series `{series_slug}` (known: {', '.join(sorted(site.series)) or 'none'})")
    if not SLUG_RE.match(slug):
        raise NewPostError(f"slug `{slug}` must use only a-z, 0-9 and '-'")
    if site.by_slug.get(slug):
        raise NewPostError(f"slug `{slug}` is already used by {site.by_slug[slug][0].rel}")
    if not title.strip() or '"' in title or "\n" in title:
        raise NewPostError("the title must be one line without double quotes")
    date = date or today_from_env()
    planned = next((p for p in series.planned if nfkc(p.title) == nfkc(title)), None)
    orders = [p.order for p in site.series_posts(series_slug) if p.order is not None]
    orders += [p.order for p in series.planned if p.order is not None and p is not planned]
    order = planned.order if planned is not None and planned.order is not None else max(orders, default=0) + 1
    path = root / SERIES_DIR / series_slug / f"{slug}.md"
    text = scaffold(site, series, slug, title.strip(), date, sections, tags or [], order)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        raise NewPostError(f"{path.relative_to(root)} already exists; it was not touched")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    if planned is not None:
        _remove_planned(root / series.manifest_rel, planned.title)
    site = load_site(root, conv, today=date)
    rel = path.relative_to(root).as_posix()
    return path, lint(site, {rel})


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="series-new-post", description="Scaffold a new post of a series.")
    p.add_argument("--series", required=True, help="series slug, e.g. train-infer-accel")
    p.add_argument("--slug", required=True, help="the post's slug (file name and URL), e.g. cuda-graph")
    p.add_argument("--title", required=True, help="the post's title")
    p.add_argument("--sections", type=int, default=3, help="number of numbered sections (default 3)")
    p.add_argument("--tags", default="", help="comma-separated tags")
    p.add_argument("--date", type=dt.date.fromisoformat, help="date (default: SOURCE_DATE_EPOCH or today)")
    p.add_argument("--root", type=Path, help="project root (default: nearest folder with conventions.yml)")
    args = p.parse_args(argv)
    root = (args.root or find_root(Path.cwd())).resolve()
    try:
        if not 1 <= args.sections <= 30:
            raise NewPostError("--sections must be between 1 and 30")
        tags = [t.strip() for t in args.tags.split(",") if t.strip()]
        path, findings = create(root, args.series, args.slug, args.title, args.date, args.sections, tags)
    except (NewPostError, ConfigError) as exc:
        print(f"series-new-post: error: {exc}", file=sys.stderr)
        sys.exit(2)
    print(f"created {path.relative_to(root)} (status: draft — shown by `mkdocs serve`, left out of `mkdocs build`)")
    sys.stdout.write(report.text(findings))
    sys.exit(1 if any(f.severity == "error" for f in findings) else 0)
