"""Run MkDocs the way `mkdocs serve` does, without the HTTP server, and keep every build's output.

    python tests/support/serve_session.py PROJECT OUT EDIT [EDIT ...]   # one session: build, then edit + rebuild
    python tests/support/serve_session.py PROJECT OUT                   # a fresh serve build of PROJECT as it is

Like mkdocs.commands.serve: one process, the plugins' on_startup(command="serve") once, then for
each (re)build a fresh config from mkdocs.yml with the serve URL as site_url, built into one
temporary site directory. After each build the site directory is copied to OUT/<k>/site and the
project's state to OUT/<k>/project (so a fresh build of that state can be compared); the hits of
the serve cache (hooks/serieshooks/serve_cache.py, the hook's `process.serve_cache`) go to OUT/<k>/cache.json. The edits are in EDITS below.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _edit_body(p: Path) -> None:          # a paragraph and a caption join (FIG002: the findings box)
    _replace(p / "series/demo/first.md", "代码里的 `投机解码` 不会加提示。", "代码里的 `投机解码` 不会加提示。新增一句：KV cache 很重要。")
    _replace(p / "series/demo/first.md", "![示意图](assets/fig.svg)  \n", "![示意图](assets/fig.svg)\n")


def _retitle(p: Path) -> None:            # the navigation of every page, prev / next, the index, tags
    _replace(p / "series/demo/second.md", 'title: "第二篇：投机解码"', 'title: "第二篇：投机解码与 EAGLE"')


def _new_post(p: Path) -> None:           # a new page: every link target set changes
    text = (p / "series/demo/second.md").read_text(encoding="utf-8")
    text = text.replace("slug: second", "slug: third").replace("order: 3", "order: 6").replace("第二篇", "第五篇")
    (p / "series/demo/third.md").write_text(text, encoding="utf-8")


def _glossary(p: Path) -> None:           # tooltips and the glossary table
    with open(p / "series/demo/glossary.yml", "a", encoding="utf-8") as f:
        f.write("- term: 示意文章\n  en: Illustrative Post\n  desc: 只用于演示的文章。\n")


def _docs_page(p: Path) -> None:
    with open(p / "docs/about.md", "a", encoding="utf-8") as f:
        f.write("\n新增的一段说明。\n")


def _undo(p: Path) -> None:               # back to the start: the second build's inputs again
    (p / "series/demo/third.md").unlink()
    for rel in ("series/demo/first.md", "series/demo/second.md", "series/demo/glossary.yml", "docs/about.md"):
        shutil.copy(p / ".original" / rel, p / rel)


EDITS = {"body": _edit_body, "retitle": _retitle, "new-post": _new_post, "glossary": _glossary,
         "docs-page": _docs_page, "undo": _undo}


def main(project: str, out: str, *edits: str) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.livereload import _serve_url

    proj, out_dir = Path(project).resolve(), Path(out).resolve()
    os.chdir(proj)
    if edits:
        for rel in ("series/demo/first.md", "series/demo/second.md", "series/demo/glossary.yml", "docs/about.md"):
            (proj / ".original" / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(proj / rel, proj / ".original" / rel)
    site_dir = tempfile.mkdtemp(prefix="mkdocs_")

    def get_config():
        return load_config(config_file=str(proj / "mkdocs.yml"), site_dir=site_dir)

    config = get_config()
    config.plugins.on_startup(command="serve", dirty=False)
    host, port = config.dev_addr
    serve_url = _serve_url(host, port, "/")
    for k, name in enumerate([None, *edits]):
        if name is not None:
            EDITS[name](proj)
            config = get_config()
        config.site_url = serve_url
        build(config, serve_url=serve_url)
        snap = out_dir / str(k)
        shutil.copytree(site_dir, snap / "site")
        shutil.copytree(proj, snap / "project", symlinks=True,
                        ignore=shutil.ignore_patterns(".original", ".cache", "__pycache__"))
        hook = next((m for m in list(sys.modules.values())
                     if getattr(m, "__file__", None) and Path(m.__file__).resolve() == proj / "hooks" / "series.py"), None)
        cache = hook.process.serve_cache if hook is not None else None
        stats = {"MARKDOWN": list(cache.markdown.last)} if cache is not None else {}
        (snap / "cache.json").write_text(json.dumps({"edit": name, **stats}), encoding="utf-8")
    shutil.rmtree(site_dir, ignore_errors=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
