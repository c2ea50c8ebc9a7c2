#!/usr/bin/env python3
"""Build the series site with Zensical, the successor of Material for MkDocs, into `site-zensical/`:

    python zensical_adapter/build.py [--strict] [-d DIR]        (make zensical)

Zensical reads mkdocs.yml and runs its Python-Markdown extensions (serieskit.publish.mdext among them), but no
MkDocs hooks. This is the second thin adapter over the engine, beside hooks/ for MkDocs:

1. the convention gate: the same findings as `mkdocs build`, and under --strict the same exit status
   (1 on a convention error, before anything is built);
2. the sources: the engine writes the files of its page plan (serieskit/publish/plan.py: the posts,
   generated pages, images and vendored libraries, each page's metadata as its frontmatter), as the
   MkDocs adapter hands them to MkDocs, into `.zensical/docs/` (serieskit/publish/sources.py), and a
   copy of mkdocs.yml with the series' navigation in place of its "@series" entry, the hooks left out;
3. `zensical build` (with its own cache, `.zensical/.cache/`: a page whose source did not change is
   not rendered again; `make clean` empties it);
4. the output gate and the drawings: the Markdown extension sanitizes every page and draws its
   diagrams and formulas with the engine's drawer (serieskit/publish/draw/, given the project's `root`) in
   Zensical's process, and appends each page's report to `.zensical/draw-report.jsonl`; this script
   turns the reports into the same SEC003 / MER004 / MAT001 findings as the MkDocs build (under
   --strict an error stops it);
5. what the MkDocs adapter does after the pages: the Content-Security-Policy of every page
   (serieskit/publish/csp.py, the theme's inline scripts hashed from Zensical's own partials), `_headers`,
   the plan's Atom feeds (serieskit/publish/feed.py) and the Pagefind index (serieskit/publish/searchindex.py).

What this relies on beyond Zensical's and Material's documented interfaces is listed, with the code
that relies on it and the tests that pin it, in zensical_adapter/upstream.py.

Zensical is optional: `pip install -e '.[zensical]'` (make zensical does). Without it this says so
and the MkDocs path is untouched.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
import types
from pathlib import Path

import jinja2
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from serieskit.publish import csp, outputgate, searchindex  # noqa: E402
from serieskit.render import pages  # noqa: E402
from serieskit.lint.report import Message, aborted, build_messages, page_messages, policy_error  # noqa: E402
from serieskit.publish.draw import Drawer, Unavailable, mode_from_env  # noqa: E402
from serieskit.publish.mdext import page_digest  # noqa: E402
from serieskit.conventions import ConfigError  # noqa: E402
from serieskit.model.pagetable import SERIES_NAV  # noqa: E402
from serieskit.model.urls import page_file  # noqa: E402
from serieskit.pipeline.project import Project  # noqa: E402
from serieskit.publish.plan import BROWSER_SCRIPTS, Host, theme_settings  # noqa: E402
from serieskit.publish.sources import write_sources  # noqa: E402
from serieskit.publish.vendor import VendorMissing  # noqa: E402
from serieskit.parse.yamlblocks import top_level_blocks  # noqa: E402
from zensical_adapter import Failed  # noqa: E402
from zensical_adapter.upstream import search_box_css, theme_templates, zensical_log  # noqa: E402

STAGE = ".zensical"
# Top-level settings of mkdocs.yml that the staged copy drops: MkDocs hooks (Zensical runs none) and
# the watch list (paths of the project, not of the staged sources).
DROPPED = ("hooks", "watch")
REPORT = "draw-report.jsonl"     # each converted page's report (serieskit/publish/mdext.py), one JSON line each
FRONTMATTER = re.compile(r"---\r?\n.*?\r?\n---\r?\n", re.S)


# Zensical's stylesheet has no styles for Material's search box, which the site's search uses
# (overrides/partials/series-search.html): they are taken from Material's own stylesheet.
SEARCH_CSS = "assets/stylesheets/material-search.css"
# The few rules this build adds for Zensical's look (contrast), served after series.css.
HOST_CSS = "assets/stylesheets/zensical.css"


def staged_config(text: str, nav: list, root: Path = ROOT, report_file: Path | None = None,
                  browser: bool = False) -> str:
    out = []
    for key, block in top_level_blocks(text):
        if key in DROPPED:
            continue
        if key == "nav":
            block = yaml.safe_dump({"nav": nav}, allow_unicode=True, sort_keys=False)
        elif key == "extra":
            # what the MkDocs adapter adds in on_config (the search box's settings, the drawing's place)
            setting = theme_settings(serving=False, browser=browser)
            block = block.rstrip("\n") + "\n" + "".join(
                f"  {line}\n" for line in yaml.safe_dump(setting, sort_keys=False).splitlines())
        elif key == "extra_css":
            # Material's search-box rules first, so the site's own (series.css) win over them, as in MkDocs
            block = re.sub(r"(?m)^(extra_css:[^\n]*\n)", lambda m: m.group(1) + f"  - {SEARCH_CSS}\n", block, count=1)
            block = block.rstrip("\n") + f"\n  - {HOST_CSS}\n"
        elif key == "markdown_extensions":
            # the extension draws with its own drawer and writes its reports where this script reads them
            options = yaml.safe_dump({"root": str(root), "report": str(report_file or "")}, default_flow_style=True).strip()
            block = re.sub(r"(?m)^(\s*- serieskit\.publish\.mdext)\s*$", lambda m, o=options: f"{m.group(1)}: {o}", block, count=1)
        elif key == "extra_javascript" and browser:
            block = block.rstrip("\n") + "\n" + "".join(f"  - {s}\n" for s in BROWSER_SCRIPTS)
        elif key == "theme":
            block = re.sub(r"(?m)^(\s+custom_dir:\s*)(\S+)", lambda m: m.group(1) + str(ROOT / m.group(2)), block)
        out.append(block)
    return "".join(out) + "\nsite_dir: site\n"     # Zensical writes only inside its project


def say(found: list[Message]) -> int:
    """The build's report (serieskit/lint/report.py, as the MkDocs build logs it) in MkDocs' log format;
    returns the count of errors."""
    for m in found:
        if m.level != "debug":
            print(f"{'WARNING' if m.level == 'error' else 'INFO   '} -  {m.text}", file=sys.stderr)
    return sum(m.level == "error" for m in found)


def gate(root: Path, strict: bool):
    """The conventions, as `mkdocs build` reports them; under --strict an error stops the build."""
    b = Project().build(root, include_drafts=False)
    errors = say(build_messages(b.findings, b.site.conv, strict))
    if strict and errors:
        raise Failed(aborted(errors))
    return b


def drawn_findings(b, stage: Path, report_file: Path) -> list:
    """The pages' reports (the last line of each page wins: Zensical skips unchanged pages, whose last
    report still holds) as findings of the files the authors edit."""
    import json

    latest: dict[str, dict] = {}
    try:
        lines = report_file.read_text(encoding="utf-8").splitlines()
    except OSError:
        lines = []
    for line in lines:
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("digest"), str):
            latest[data["digest"]] = data
    try:     # the file keeps one line per page, across builds
        report_file.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in latest.values()),
                               encoding="utf-8")
    except OSError:
        pass
    posts = {p.site_path: p for p in b.site.posts}
    out = []
    docs = stage / "docs"
    for page in sorted(docs.rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        meta = FRONTMATTER.match(text)       # Zensical converts the page without its metadata
        data = latest.get(page_digest(text[meta.end():] if meta else text))
        if not data or not (data.get("removed") or data.get("draw_errors")):
            continue
        rel = page.relative_to(docs).as_posix()
        post = posts.get(rel)
        path, raw = (post.rel, "\n".join(post.lines)) if post is not None else (rel, text)
        out += outputgate.from_json(path, raw, data)
    return out


def policy_of_theme(config: dict) -> tuple[set[str], str]:
    """The hashes of the theme's own inline scripts (Zensical's partials, rendered with this site's
    settings) and of the site's own (overrides/, found first as `custom_dir` is), and the policy they
    make: nothing is learnt from the built pages."""
    theme = config.get("theme", {})
    overrides = ROOT / theme.get("custom_dir", "overrides")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader([str(overrides), str(theme_templates())]))
    settings = types.SimpleNamespace(theme=theme, extra=config.get("extra", {}))
    try:
        allowed = set(csp.theme_scripts(env, settings).values())
    except RuntimeError as exc:
        raise Failed(str(exc)) from None
    return allowed, csp.policy(allowed)


def with_policy(site_dir: Path, allowed: set[str], site_policy: str) -> list[Message]:
    """Fill every page's CSP meta tag; the SEC001 errors of the pages with scripts the policy does not know."""
    errors = []
    for page in sorted(site_dir.rglob("*.html")):
        if page.is_relative_to(site_dir / searchindex.BUNDLE):
            continue
        text, unknown = csp.fill(page.read_text(encoding="utf-8"), allowed, site_policy)
        page.write_text(text, encoding="utf-8")
        rel = page.relative_to(site_dir).as_posix()
        errors += [policy_error(rel, start) for start in unknown]
    (site_dir / "_headers").write_text(csp.headers(site_policy), encoding="utf-8")
    return errors


# A post's page as Zensical writes it (serieskit/publish/sources.py writes the header and the previous /
# next links into the page's source): the post header, the text, then the first of what may follow the
# text (the series' previous / next links; Zensical's tag strip, partials/content.html; the end of
# the article, after the search body's closing </div> when the page is indexed).
ARTICLE = re.compile(r'<header class="series-post-header">.*?</header>\s*(.*?)\s*'
                     r'(<nav class="series-nav"|<nav class="md-tags"|</article>)', re.S)
SEARCH_BODY = '<div class="series-search-body"'     # overrides/main.html: opened before the text


def post_contents(b, site_dir: Path) -> dict[str, str]:
    """Each post's HTML as the feeds carry it: its page's text between the post header and the
    previous / next links (what the MkDocs adapter takes from `page.content`)."""
    out = {}
    for post in b.published():
        page = site_dir / page_file(post.url_dir)
        html = page.read_text(encoding="utf-8") if page.is_file() else ""
        m = ARTICLE.search(html)
        if m is None:
            raise Failed(f"{post.rel}: Zensical wrote no page at {post.url_dir} with the post's header")
        text = m.group(1)
        if m.group(2) == "</article>" and SEARCH_BODY in html[:m.start()] and text.endswith("</div>"):
            text = text[:-len("</div>")].rstrip()      # the search body's end, not the post's
        out[post.rel] = text
    return out


def load_config(path: Path) -> dict:
    """mkdocs.yml's plain settings (its YAML tags read as nothing: only names and lists are needed here)."""
    class Loader(yaml.SafeLoader):
        pass
    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    return yaml.load(path.read_text(encoding="utf-8"), Loader=Loader) or {}


def nav_titles(nav: list) -> dict[str, str]:
    out = {}
    for item in nav:
        if isinstance(item, dict):
            for title, target in item.items():
                if isinstance(target, str):
                    out[target] = title
    return out


def build(root: Path, site_dir: Path, strict: bool, verbose: bool = False) -> int:
    t0 = time.perf_counter()
    config_file = root / "mkdocs.yml"
    config = load_config(config_file)
    strict = strict or config.get("strict") is True     # `strict: true` in mkdocs.yml, as MkDocs reads it
    b = gate(root, strict)
    stage = root / STAGE
    try:
        drawer = Drawer(root, (config.get("extra") or {}).get("mermaid_args"), mode_from_env("build"))
    except Unavailable as exc:
        raise Failed(str(exc)) from None
    browser = not drawer.drawing
    nav = pages.navigation(b.site, False, config.get("nav") or [SERIES_NAV])
    host = Host(site_url=os.environ.get("SITE_URL") or "", site_name=config.get("site_name", ""),
                site_author=config.get("site_author") or "", site_description=config.get("site_description") or "",
                nav_titles=nav_titles(config.get("nav") or []), draw_in_browser=browser)
    try:
        plan = write_sources(b, root, stage / "docs", host)
    except VendorMissing as exc:
        raise Failed(str(exc)) from None
    (stage / "docs" / SEARCH_CSS).write_text(search_box_css(), encoding="utf-8")
    shutil.copyfile(Path(__file__).with_name("zensical.css"), stage / "docs" / HOST_CSS)
    staged = stage / "mkdocs.yml"
    report_file = stage / REPORT
    staged.write_text(staged_config(config_file.read_text(encoding="utf-8"), nav, root, report_file, browser),
                      encoding="utf-8")
    theme_templates()
    r = subprocess.run([sys.executable, "-m", "zensical", "build", "-f", str(staged)], cwd=stage,
                       capture_output=True, text=True, encoding="utf-8", errors="replace", env={**os.environ, "NO_COLOR": "1"})
    zensical_log(r.stdout + r.stderr, verbose or r.returncode != 0)
    if r.returncode != 0:
        raise Failed(f"zensical build failed (exit {r.returncode})")
    if site_dir.exists():
        shutil.rmtree(site_dir)
    shutil.move(stage / "site", site_dir)
    allowed, site_policy = policy_of_theme(config)
    errors = say(with_policy(site_dir, allowed, site_policy)
                 + page_messages(outputgate.switched(drawn_findings(b, stage, report_file), b.site.conv)))
    if errors and strict:
        raise Failed(aborted(errors))
    plan.write_feeds(site_dir, post_contents(b, site_dir))
    (site_dir / "search.json").unlink(missing_ok=True)     # Zensical's own index: the site searches with Pagefind
    try:
        indexed = searchindex.write_index(site_dir)
    except searchindex.SearchIndexError as exc:
        raise Failed(str(exc)) from None
    print(f"INFO    -  Zensical: {len(b.published())} posts, {indexed} pages indexed, {site_dir} "
          f"in {time.perf_counter() - t0:.2f} s", file=sys.stderr)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--strict", action="store_true", help="a convention error stops the build (as mkdocs build --strict)")
    ap.add_argument("-d", "--site-dir", default="site-zensical", help="where the site goes (default site-zensical/)")
    ap.add_argument("--root", default=str(ROOT), help="the project (default: this one)")
    ap.add_argument("-v", "--verbose", action="store_true", help="show Zensical's own report in full")
    a = ap.parse_args(argv)
    root = Path(a.root).resolve()
    site_dir = Path(a.site_dir)
    site_dir = site_dir if site_dir.is_absolute() else (Path.cwd() / site_dir).resolve()
    try:
        return build(root, site_dir, a.strict, a.verbose)
    except (Failed, ConfigError) as exc:
        print(f"ERROR   -  {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
