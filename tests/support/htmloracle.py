"""A browser-grade answer to "does this post put active content on the page?": the post body is rendered
with the site's own Markdown configuration (mkdocs.yml's extensions) and the HTML is parsed by html5lib,
which implements the WHATWG parsing algorithm browsers use (comments like `<!-->`, attributes without
whitespace between them, character references without `;`, ...). Used to check SEC001 against reality.
"""
from __future__ import annotations

import re
from functools import lru_cache

import html5lib
import markdown

from support.sitebuild import ROOT

ACTIVE_TAGS = {"script", "iframe", "frame", "frameset", "object", "embed"}
URL_ATTRS = {"href", "src", "action", "formaction", "data", "poster", "background", "cite"}
SCRIPT_SCHEMES = ("javascript:", "vbscript:", "data:text/html")


@lru_cache(maxsize=1)
def _config():
    from mkdocs.config import load_config
    cfg = load_config(str(ROOT / "mkdocs.yml"))
    return cfg["markdown_extensions"], cfg["mdx_configs"]


def render(text: str) -> str:
    """The HTML Python-Markdown makes of a post body with the site's extensions, before the site's own
    extension (serieskit.publish.mdext: the series transforms and the output gate, which removes what this
    oracle looks for): what SEC001 must predict, and what the gate must catch."""
    ext, conf = _config()
    ext = [e for e in ext if not (isinstance(e, str) and e == "serieskit.publish.mdext")
           and type(e).__module__ != "serieskit.publish.mdext"]
    return markdown.Markdown(extensions=ext, extension_configs=conf).convert(text)


def gated(text: str) -> str:
    """The HTML the site publishes of a post body: the same, through the output gate."""
    from serieskit import sanitize
    return sanitize.clean(render(text)).html


def active(html: str) -> list[str]:
    """What in `html` would run in a browser: script-like elements, event handlers, script URLs."""
    found = []
    for el in html5lib.parseFragment(html, treebuilder="etree", namespaceHTMLElements=False).iter():
        if not isinstance(el.tag, str):
            continue   # comments
        tag = el.tag.rsplit("}", 1)[-1].lower()
        if tag in ACTIVE_TAGS:
            found.append(f"<{tag}>")
        for key, value in el.attrib.items():
            name = key.rsplit("}", 1)[-1].lower()
            if re.fullmatch(r"on[a-z]+", name) and value.strip():   # event handlers (onclick=…); empty ones do nothing
                found.append(f"{tag} {name}=")
            elif name in URL_ATTRS:
                # the URL parser drops leading/trailing C0 controls and spaces, and tabs/newlines anywhere
                url = re.sub(r"^[\x00-\x20]+|[\x00-\x20]+$", "", re.sub(r"[\t\n\r]", "", value)).lower()
                url = re.sub(r"^[\x00-\x20]+", "", url)
                if url.startswith(SCRIPT_SCHEMES):
                    found.append(f"{tag} {name}={value!r}")
    return found


def live(markdown_text: str) -> list[str]:
    return active(render(markdown_text))
