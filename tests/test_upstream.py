"""The two private upstream internals the adapter relies on, each pinned here so that an upgrade that
changes them fails loudly instead of silently (the reasons are at the code that uses them):

1. `mkdocs.livereload.LiveReloadServer._inject_js_into_html(content, epoch)` (hooks/series.py
   `on_serve`): the only place where the live-reload script `mkdocs serve` adds inline can be allowed
   by the page's Content-Security-Policy.
2. `mermaid2`'s `on_post_page` in `config.plugins.events["post_page"]` (hooks/series.py
   `_patch_mermaid2`): removed there, because it re-parses every page with a diagram (3x slower
   builds) to add a script the site does not use.

And the public-but-versioned facts the policy is built from: the Material partials of
hooks/csp.py THEME_SCRIPTS exist and each holds one inline script.
"""
from __future__ import annotations

import inspect
import sys

from mkdocs.livereload import LiveReloadServer

from sitebuild import ROOT

sys.path.insert(0, str(ROOT / "hooks"))
import csp  # noqa: E402


def test_livereload_injects_one_inline_script_through_the_wrapped_method():
    method = LiveReloadServer._inject_js_into_html
    assert list(inspect.signature(method).parameters) == ["self", "content", "epoch"]
    server = LiveReloadServer.__new__(LiveReloadServer)
    page = b"<html><head></head><body><p>x</p></body></html>"
    out = method(server, page, 1).decode()
    added = csp.served_additions(page.decode(), out)
    assert len(added) == 1 and "livereload(" in added[0], out


def test_mermaid2_still_has_the_page_pass_the_adapter_removes():
    from mermaid2.plugin import MarkdownMermaidPlugin
    assert "on_post_page" in MarkdownMermaidPlugin.__dict__


def test_the_themes_inline_script_partials_are_where_the_policy_reads_them():
    import material
    from pathlib import Path
    templates = Path(material.__file__).parent / "templates"
    for name in csp.THEME_SCRIPTS:
        text = (templates / name).read_text(encoding="utf-8")
        assert text.count("<script>") == text.count("</script>") >= 1, name
