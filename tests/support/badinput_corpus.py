"""The bad-input corpus (tests/badinput/<case>/): load a case, lay it over a copy of the site fixture,
repair it. Shared by the lint, build and serve tests.

A case is a folder:
  case.yml      what it is and what must happen (see tests/badinput/README.md)
  files/        laid over the project root (the broken input)
  fixed/        laid over the project root to repair it (serve must recover)
Inputs that would be awkward in git (a 5 MB post, 10,000 nested list items, a symlink loop, a FIFO) are made
by a generator named in case.yml, so the corpus stays small and the case still lives in its folder.
"""
from __future__ import annotations

import os
import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

CORPUS = Path(__file__).resolve().parents[1] / "badinput"


@dataclass
class Case:
    name: str
    dir: Path
    about: str
    valid: bool
    lint_exit: int
    errors: Counter                            # (path, line, code) of every error finding, with repeats
    warnings: Counter                          # warnings that must be there (others are allowed)
    page: str | None                           # URL path (from the site root) that shows the problem
    render: dict[str, list[str]] = field(default_factory=dict)   # valid cases: page -> text it shows
    serve: bool = True
    serve_skip_reason: str = ""
    generate: str | None = None
    symlinks: dict[str, str] = field(default_factory=dict)
    fix_remove: list[str] = field(default_factory=list)
    fixed_shows: list[str] = field(default_factory=list)       # text the repaired page shows
    build_errors: Counter = field(default_factory=Counter)     # errors only the build finds (drawings, output gate)

    def __repr__(self):
        return self.name


def _finding(spec: str) -> tuple[str, int, str]:
    where, code = spec.split()
    path, line = where.rsplit(":", 1)
    return path, int(line), code


def load(name: str) -> Case:
    d = CORPUS / name
    data = yaml.safe_load((d / "case.yml").read_text(encoding="utf-8"))
    lint = data.get("lint") or {}
    serve = data.get("serve", True)
    return Case(
        name=name, dir=d, about=data["about"], valid=bool(data.get("valid", False)),
        lint_exit=int(lint.get("exit", 0 if data.get("valid") else 1)),
        errors=Counter(_finding(s) for s in lint.get("errors") or []),
        build_errors=Counter(_finding(s) for s in (data.get("build") or {}).get("errors") or []),
        warnings=Counter(_finding(s) for s in lint.get("warnings") or []),
        page=data.get("page"), render=data.get("render") or {},
        serve=serve is not False and not isinstance(serve, str),
        serve_skip_reason=serve if isinstance(serve, str) else "",
        generate=data.get("generate"), symlinks=data.get("symlinks") or {},
        fix_remove=data.get("fix_remove") or [], fixed_shows=data.get("fixed_shows") or [])


def names() -> list[str]:
    return sorted(p.name for p in CORPUS.iterdir() if (p / "case.yml").is_file())


def cases() -> list[Case]:
    return [load(n) for n in names()]


def _overlay(src: Path, root: Path) -> list[str]:
    """Copy the files of `src` over `root`; return their paths relative to root."""
    out = []
    for p in sorted(src.rglob("*")):
        if p.is_file():
            rel = p.relative_to(src).as_posix()
            dest = root / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            tmp = dest.with_name(f".{dest.name}.case")
            shutil.copyfile(p, tmp)
            os.replace(tmp, dest)     # one event for a watcher, never a half-written file
            out.append(rel)
    return out


def apply(case: Case, root: Path) -> list[str]:
    """Lay the broken input over `root`; return every path it created (for `restore`)."""
    made = []
    if (case.dir / "files").is_dir():
        made += _overlay(case.dir / "files", root)
    if case.generate:
        made += GENERATORS[case.generate](root)
    for link, target in case.symlinks.items():
        p = root / link
        p.parent.mkdir(parents=True, exist_ok=True)
        p.symlink_to(target)
        made.append(link)
    return made


def fix(case: Case, root: Path) -> list[str]:
    """Repair the case in place; return the paths the repaired state consists of."""
    for rel in case.fix_remove:
        p = root / rel
        if p.is_symlink() or (p.exists() and not p.is_dir()):
            p.unlink()
    made = []
    if (case.dir / "fixed").is_dir():
        made += _overlay(case.dir / "fixed", root)
    return made


def original_files(base: Path) -> dict[str, bytes]:
    return {p.relative_to(base).as_posix(): p.read_bytes() for p in base.rglob("*") if p.is_file()}


def restore(root: Path, made: list[str], base: dict[str, bytes]) -> None:
    """Undo a case: delete what it added, put back what it overwrote (base: rel -> bytes)."""
    for rel in made:
        p = root / rel
        if rel in base:
            tmp = p.with_name(f".{p.name}.case")
            tmp.write_bytes(base[rel])
            os.replace(tmp, p)
        elif p.is_symlink() or (p.exists() and not p.is_dir()):
            p.unlink()


# --- generated inputs ------------------------------------------------------------------------------
HEAD = """---
title: "{title}"
slug: {slug}
date: 2026-05-08
author: Qian, Cheng
tags: [测试]
summary: {summary}
---

"""

BIG_PARAGRAPH = ("训练与推理加速的第 {i} 段：吞吐、延迟和显存三者之间的取舍，投机解码与 KV cache 都会出现，"
                 "`code {i}` 也会出现，详见 [独立文章](solo.md)。这一段还有 **加粗**、*斜体* 和公式 $a_{i} = b + c$。\n\n")
BIG_SIZE = 5 * 1024 * 1024


def big_post_text(size: int = BIG_SIZE) -> str:
    """A valid standalone post of `size` bytes: paragraphs, a heading every 100 paragraphs, code, lists."""
    parts = [HEAD.format(title="超长文章：五兆字节", slug="big", summary="一篇 5 MB 的文章。"), "超长文章的导语。\n\n"]
    n = sum(len(p.encode()) for p in parts)
    i = 0
    while n < size:
        b = BIG_PARAGRAPH.format(i=i)
        if i % 100 == 0:
            b = f"## 第 {i // 100 + 1} 组\n\n" + b
        if i % 50 == 25:
            b += f"```python\ndef f_{i}(x):\n    return x * {i}\n```\n\n"
        if i % 50 == 10:
            b += f"- 列表项 {i}\n- 列表项二\n    - 嵌套项\n\n"
        parts.append(b)
        n += len(b.encode())
        i += 1
    parts.append("## 结尾\n\n最后一段：五兆字节到此为止。\n")
    return "".join(parts)


def _write(root: Path, rel: str, text: str) -> list[str]:
    p = root / rel
    tmp = p.with_name(f".{p.name}.case")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, p)
    return [rel]


def gen_big_post(root: Path) -> list[str]:
    return _write(root, "series/notes/big.md", big_post_text())


NESTED_ITEMS = 10_000


def gen_nested_list_one_line(root: Path) -> list[str]:
    """10,000 list items, each nested in the one before (`- - - … 最深处`)."""
    head = HEAD.format(title="一万层嵌套列表", slug="nested", summary="嵌套一万层的列表。")
    return _write(root, "series/notes/nested.md", head + "一万层嵌套的列表：\n\n" + "- " * NESTED_ITEMS + "最深处\n\n结尾。\n")


def gen_nested_list_indented(root: Path) -> list[str]:
    """300 list items, each indented one level (4 spaces) deeper than the one before."""
    head = HEAD.format(title="三百层缩进列表", slug="indented", summary="逐层缩进的列表。")
    body = "".join("    " * i + f"- 第 {i + 1} 层\n" for i in range(300))
    return _write(root, "series/notes/indented.md", head + "逐层缩进的列表：\n\n" + body + "\n结尾。\n")


def gen_many_list_items(root: Path) -> list[str]:
    """10,000 list items nested up to ten levels deep (a long, legitimately nested list)."""
    head = HEAD.format(title="一万个列表项", slug="many-items", summary="一万个嵌套列表项。")
    body = "".join("    " * (i % 10) + f"- 第 {i + 1} 项\n" for i in range(NESTED_ITEMS))
    return _write(root, "series/notes/many-items.md", head + "很长的嵌套列表：\n\n" + body + "\n结尾：第一万项之后。\n")


def gen_fifo_post(root: Path) -> list[str]:
    """A named pipe called `x.md` among the posts (opening it would wait for a writer for ever)."""
    os.mkfifo(root / "series" / "demo" / "x.md")
    return ["series/demo/x.md"]


GENERATORS = {
    "fifo_post": gen_fifo_post,
    "big_post": gen_big_post,
    "nested_list_one_line": gen_nested_list_one_line,
    "nested_list_indented": gen_nested_list_indented,
    "many_list_items": gen_many_list_items,
}


# --- a page Python-Markdown itself cannot render (no rule foresees it): the build and serve tests -----------
EMPHASIS_POST = ("---\ntitle: \"强调嵌套三千层\"\nslug: emphasis\ndate: 2026-05-08\n---\n\n正文。\n\n"
                 + "*" * 3000 + "深" + "*" * 3000 + "\n\n结尾。\n")
