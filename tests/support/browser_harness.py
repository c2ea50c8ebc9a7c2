"""What the browser suite and the page-weight benchmark share: build the real site, serve it on
127.0.0.1, start Debian's Chromium (never a browser downloaded by Playwright), and read a page the
way a reader sees it (the diagrams and formulas the build drew into the page, figures, colours), and
what axe-core (from node_modules, pinned in package.json) finds on it.
"""
from __future__ import annotations

import datetime as dt
import email.utils
import functools
import gzip
import io
import os
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from support.project import ROOT, epoch_of

CHROMIUM = os.environ.get("SERIES_CHROMIUM", "/usr/bin/chromium")
# The browser suite's build date (SOURCE_DATE_EPOCH): the calendar's, not support.project.TODAY. It reads
# the repository's own site as readers get it today (its posts are dated up to today; their staleness
# banners as of today), where the other tests build throw-away projects on the one test date.
TODAY = dt.datetime.now(tz=dt.UTC).date()
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-quic", "--no-first-run"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


# --- the site ----------------------------------------------------------------------------------------
from support.drawings import DRAWING_SCRIPTS  # noqa: E402  (what a page drawn by the build never loads)


def build_site(out: Path, project: Path = ROOT, today: dt.date | None = None, site_url: str | None = None,
               strict: bool = False, timeout: int = 300, host: str = "mkdocs") -> subprocess.CompletedProcess:
    """`mkdocs build` (or `make zensical`'s build, host="zensical") of the project into `out`, as an
    author runs it. `today` pins the staleness date; `site_url` is the address the site is served at
    (instant navigation only takes over links that the sitemap lists, and it compares their port too)."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(ROOT))
    if site_url:
        env["SITE_URL"] = site_url
    if today is not None:
        env["SOURCE_DATE_EPOCH"] = epoch_of(today)
    if host == "zensical":
        args = [sys.executable, str(ROOT / "zensical_adapter" / "build.py"), "--root", str(project), "-d", str(out)]
    else:
        args = [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(out)]
    args += ["--strict"] if strict else []
    return subprocess.run(args, cwd=project, env=env, capture_output=True, text=True, timeout=timeout)


def site_pages(site_dir: Path) -> list[str]:
    """Every HTML page of a built site as a URL path ("" for the home page, "x/" for x/index.html)."""
    out = []
    for p in sorted(site_dir.rglob("*.html")):
        rel = p.relative_to(site_dir).as_posix()
        if rel.startswith("assets/"):
            continue
        out.append(rel[:-len("index.html")] if rel.endswith("index.html") else rel)
    return out


def has_math(post) -> bool:
    """The post writes TeX (`$...$` or `$$` outside code)."""
    return any("$" in post.prose(n) for n in range(post.body_start, post.nlines + 1))


def showcase_post(site):
    """The post of the screenshots and the page-weight benchmark: the published post with formulas and the
    most diagrams (ties: the last by path)."""
    from serieskit.analysis.mermaid import mermaid_fences
    posts = [p for p in site.posts if not p.is_draft]
    cands = [p for p in posts if mermaid_fences(p) and has_math(p)]
    return max(cands, key=lambda p: (len(mermaid_fences(p)), p.rel)) if cands else posts[0]


# --- the server ----------------------------------------------------------------------------------------
COMPRESSIBLE = (".html", ".css", ".js", ".mjs", ".json", ".svg", ".xml", ".txt")


class _Handler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                      ".js": "text/javascript", ".svg": "image/svg+xml", ".woff2": "font/woff2",
                      ".json": "application/json", ".xml": "application/xml"}
    cache = False
    gzip = False
    site_headers = False
    _gz: dict = {}

    def log_message(self, *args):
        pass

    def end_headers(self):
        if self.cache:
            # HTML is revalidated on every visit (Last-Modified, 304 when unchanged); every other file
            # is fresh for a day. One policy for every variant the benchmark compares.
            path = self.path.split("?", 1)[0]
            if path.endswith("/") or path.endswith(".html"):
                self.send_header("Cache-Control", "no-cache")
            else:
                self.send_header("Cache-Control", "public, max-age=86400")
        else:
            self.send_header("Cache-Control", "no-store")
        if self.site_headers:
            for name, value in headers_of(Path(self.directory)):
                self.send_header(name, value)
        super().end_headers()

    def send_head(self):
        """As the parent, plus gzip (level 6, as static hosts do) for text files when asked for."""
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.split("?", 1)[0].endswith("/"):
            path = os.path.join(path, "index.html")
        if not (self.gzip and "gzip" in self.headers.get("Accept-Encoding", "")
                and path.endswith(COMPRESSIBLE) and os.path.isfile(path)):
            return super().send_head()
        st = os.stat(path)
        modified = email.utils.formatdate(int(st.st_mtime), usegmt=True)
        if self.headers.get("If-Modified-Since") == modified:
            self.send_response(304)
            self.end_headers()
            return None
        key = (path, st.st_mtime_ns)
        body = self._gz.get(key)
        if body is None:
            with open(path, "rb") as f:
                body = self._gz[key] = gzip.compress(f.read(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", modified)
        self.end_headers()
        return io.BytesIO(body)


def headers_of(site: Path) -> list[tuple[str, str]]:
    """The headers the site's `_headers` file gives every path (`/*`, the Netlify / Cloudflare Pages
    format: the Content-Security-Policy and its companions); none before the site is built."""
    f = site / "_headers"
    if not f.is_file():
        return []
    return [tuple(part.strip() for part in line.strip().split(":", 1))
            for line in f.read_text(encoding="utf-8").splitlines() if line.startswith("  ") and ":" in line]


class SiteServer:
    """A static server for a built site on 127.0.0.1 (a free port), in a thread of this process;
    `headers=True` sends the site's `_headers` with every response, as a static host does."""

    def __init__(self, directory: Path, cache: bool = False, gzip: bool = False, headers: bool = False):
        handler = type("Handler", (_Handler,), {"cache": cache, "gzip": gzip, "site_headers": headers, "_gz": {}})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        self.base = self.origin + "/"
        self._thread = threading.Thread(target=self.httpd.serve_forever, name=f"site-{self.port}", daemon=True)

    def __enter__(self) -> SiteServer:
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


# --- the browser ----------------------------------------------------------------------------------------
def chromium_problem() -> str | None:
    """None when Debian's Chromium is there; otherwise what to install (the suite fails, never skips)."""
    if not (Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)):
        return (f"the browser tests need Debian's Chromium at {CHROMIUM} (and fonts-noto-cjk): "
                f"`make browser` or `sudo apt-get install chromium fonts-noto-cjk`; never `playwright install`")
    return None


def launch(playwright):
    problem = chromium_problem()
    if problem:
        raise RuntimeError(problem)
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


# Note when each diagram appears (the benchmark's "last diagram drawn" time): the build's SVG as the
# page is parsed (`div.mermaid > svg`), or, in the fallback that leaves the drawing to the browser
# (SERIES_DRAW=browser), Material's drawing in a closed shadow root, opened here so it can be seen.
# The suite's checks read only the SVG in the page itself: a diagram drawn by a script fails them.
INIT_SCRIPT = r"""
(() => {
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    return attach.call(this, Object.assign({}, init, { mode: "open" }));
  };
  window.__seriesDrawn = [];
  const seen = new WeakSet();
  const note = (host) => {
    if (seen.has(host)) return;
    if (host.querySelector(":scope > svg") || (host.shadowRoot && host.shadowRoot.querySelector("svg"))) {
      seen.add(host);
      window.__seriesDrawn.push(performance.now());
    }
  };
  new MutationObserver((records) => {
    for (const r of records)
      for (const n of r.addedNodes) {
        if (n.nodeType !== 1) continue;
        if (n.matches("div.mermaid")) note(n);
        else if (n.parentElement && n.parentElement.matches("div.mermaid")) note(n.parentElement);
      }
  }).observe(document, { childList: true, subtree: true });
})();
"""


def drawing_requests(urls) -> list[str]:
    """The requests of a visit that belong to a drawing library's runtime (none, when the build draws)."""
    return [u for u in urls if any(s in u.split("?", 1)[0] for s in DRAWING_SCRIPTS)]


# True once every diagram, formula and image of the page is done (or can no longer change): the
# diagrams are the build's SVG in the page, the formulas KaTeX's markup.
READY_JS = r"""
(expected) => {
  const hosts = document.querySelectorAll("div.mermaid");
  if (document.querySelector("pre.mermaid") || hosts.length < expected) return false;
  for (const h of hosts) if (!h.querySelector(":scope > svg")) return false;
  for (const a of document.querySelectorAll(".arithmatex")) if (!a.querySelector(".katex, .katex-error")) return false;
  for (const i of document.images) if (!i.complete) return false;
  return document.readyState === "complete";
}
"""

# Everything a reader sees that the suite checks, read in one pass.
READ_JS = r"""
(conf) => {
  const rgb = (s) => {
    const m = s && s.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const hex = (c) => c ? "#" + [c.r, c.g, c.b].map((v) => Math.round(v).toString(16).padStart(2, "0")).join("") : null;
  const over = (c, bg) => (c && c.a < 1 && bg) ? { r: c.r * c.a + bg.r * (1 - c.a), g: c.g * c.a + bg.g * (1 - c.a),
                                                     b: c.b * c.a + bg.b * (1 - c.a), a: 1 } : c;
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  const contrast = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const text = (el) => (el ? (el.textContent || "").replace(/\s+/g, " ").trim() : "");
  const visible = (el) => {
    if (!el) return false;
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none" && Number(s.opacity) > 0;
  };
  const out = { url: location.href, title: document.title, scheme: document.body.getAttribute("data-md-color-scheme") };

  // what a page drawn by the build must not have: a drawing library's runtime, or a diagram left to it
  out.drawingRuntime = [];
  if (typeof window.mermaid !== "undefined" && !(window.mermaid instanceof Element)) out.drawingRuntime.push("window.mermaid");
  if (typeof window.katex !== "undefined") out.drawingRuntime.push("window.katex");
  if (typeof window.renderMathInElement !== "undefined") out.drawingRuntime.push("window.renderMathInElement");
  for (const s of document.querySelectorAll("script[src], link[rel=modulepreload]"))
    if (/mermaid|katex|auto-render|math\.js/.test(s.getAttribute("src") || s.getAttribute("href") || ""))
      out.drawingRuntime.push(s.getAttribute("src") || s.getAttribute("href"));
  out.shadowDiagrams = [...document.querySelectorAll("div.mermaid")].filter((h) => h.shadowRoot).length;

  // diagrams: the build's inline SVG (`div.mermaid > svg`)
  out.pendingDiagrams = document.querySelectorAll("pre.mermaid").length;
  out.drawErrors = [...document.querySelectorAll(".series-draw-error")].map((e) => e.tagName.toLowerCase() + ": " + text(e).slice(0, 600));
  out.mermaidErrors = [...document.querySelectorAll('[aria-roledescription="error"], .error-icon')].map((e) => text(e).slice(0, 80));
  out.diagrams = [...document.querySelectorAll("div.mermaid")].map((host) => {
    const svg = host.querySelector(":scope > svg"), root = svg;
    const d = { hasSvg: !!svg, errors: [], nodes: [], texts: [] };
    if (!svg) return d;
    d.id = svg.id;
    d.visible = visible(svg) && svg.getBoundingClientRect().height > 0;
    const paper = over(rgb(getComputedStyle(host).backgroundColor), { r: 255, g: 255, b: 255 }) || { r: 255, g: 255, b: 255 };
    if (rgb(getComputedStyle(host).backgroundColor).a === 0) Object.assign(paper, { r: 255, g: 255, b: 255 });
    d.type = svg.getAttribute("aria-roledescription") || "";
    d.width = svg.getBoundingClientRect().width;
    const vb = svg.viewBox && svg.viewBox.baseVal;
    d.naturalWidth = vb ? vb.width : 0;
    for (const e of root.querySelectorAll(".error-icon, .error-text")) d.errors.push(e.getAttribute("class"));
    const raw = [...root.querySelectorAll("text, foreignObject, title, desc")].map((e) => e.textContent).join(" ");
    for (const w of ["Syntax error", "Parse error", "error in text", "Lexical error"]) if (raw.includes(w)) d.errors.push(w);
    const fillOf = (el) => over(rgb(getComputedStyle(el).fill), paper);
    const check = (kind, label, fg, bg, el) => {
      if (!fg || !bg || !label) return;
      d.texts.push({ kind, label: label.slice(0, 40), fg: hex(fg), bg: hex(bg), ratio: contrast(fg, bg),
                     visible: el ? el.getBoundingClientRect().width > 0 : true });
    };
    // flowchart / state / class nodes
    for (const g of svg.querySelectorAll("g.node")) {
      const shape = [...g.querySelectorAll("rect, polygon, path, circle, ellipse")]
        .find((s) => !s.closest(".label") && !s.closest("foreignObject"));
      if (!shape) continue;
      const classes = [...g.classList].filter((c) => conf.palette.includes(c));
      const inline = (shape.getAttribute("style") || "") + (g.getAttribute("style") || "");
      const fill = fillOf(shape);
      const labelEl = g.querySelector(".nodeLabel") || g.querySelector("text");
      const label = text(labelEl);
      const fg = labelEl ? (labelEl.tagName.toLowerCase() === "text" || labelEl.closest("text")
        ? rgb(getComputedStyle(labelEl).fill) : rgb(getComputedStyle(labelEl).color)) : null;
      d.nodes.push({ id: g.id, label: label.slice(0, 40), classes, styled: /fill\s*:/.test(inline), fill: hex(fill) });
      check("node", label, over(fg, fill), fill, labelEl);
    }
    // sequence diagrams: actors (unstyled nodes) and notes
    for (const rect of svg.querySelectorAll("rect.actor")) {
      const fill = fillOf(rect);
      const t = rect.parentNode.querySelector("text.actor");
      d.nodes.push({ id: "actor:" + text(t), label: text(t).slice(0, 40), classes: [], styled: false, fill: hex(fill) });
      if (t) check("actor", text(t), rgb(getComputedStyle(t.querySelector("tspan") || t).fill), fill, t);
    }
    for (const rect of svg.querySelectorAll("rect.note")) {
      const t = rect.parentNode.querySelector("text.noteText");
      if (t) check("note", text(t), rgb(getComputedStyle(t.querySelector("tspan") || t).fill), fillOf(rect), t);
    }
    for (const t of svg.querySelectorAll("text.messageText, text.loopText, text.labelText"))
      check("message", text(t), rgb(getComputedStyle(t).fill), paper, t);
    // edge labels (HTML labels on the label background) and cluster titles
    for (const e of svg.querySelectorAll(".edgeLabel")) {
      const t = e.querySelector("p, span") || e;
      if (!text(t)) continue;
      let bg = rgb(getComputedStyle(t).backgroundColor);
      if (!bg || bg.a === 0) bg = rgb(getComputedStyle(e).backgroundColor);
      check("edge", text(t), rgb(getComputedStyle(t).color), over(bg, paper) || paper, t);
    }
    for (const c of svg.querySelectorAll("g.cluster")) {
      const rect = c.querySelector("rect"), t = c.querySelector(".nodeLabel, text");
      if (rect && t) check("cluster", text(t), t.tagName.toLowerCase() === "text" ? rgb(getComputedStyle(t).fill)
        : rgb(getComputedStyle(t).color), fillOf(rect), t);
    }
    return d;
  });

  // formulas
  const maths = [...document.querySelectorAll(".arithmatex")];
  out.math = { count: maths.length, rendered: maths.filter((m) => m.querySelector(".katex")).length,
               visible: maths.filter((m) => visible(m.querySelector(".katex-html"))).length,
               errors: [...document.querySelectorAll(".katex-error")].map((e) => e.getAttribute("title") || text(e)).slice(0, 5),
               raw: [] };
  const content = document.querySelector(".md-content") || document.body;
  const walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => n.parentElement.closest("code, pre, script, style, .katex, .katex-mathml, annotation, textarea")
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT });
  for (let n; (n = walker.nextNode());) {
    const m = n.nodeValue.match(/\$\$|\\\(|\\\)|\\\[|\\\]|\\frac|\\text\{/);
    if (m) out.math.raw.push(n.nodeValue.trim().slice(0, 80));
  }

  // figures and images
  out.figures = [...content.querySelectorAll("figure")].map((f) => {
    const img = f.querySelector("img"), cap = f.querySelector("figcaption");
    return { src: img ? img.getAttribute("src") : null, naturalWidth: img ? img.naturalWidth : 0,
             visible: visible(img), caption: text(cap), captionVisible: visible(cap) };
  });
  out.looseImages = [...content.querySelectorAll("img")].filter((i) => !i.closest("figure")).map((i) => ({
    src: i.getAttribute("src"), naturalWidth: i.naturalWidth }));

  // the series blocks of a post
  const one = (sel) => document.querySelector(sel);
  const banner = one(".md-content .series-banner");
  out.banner = banner && { visible: visible(banner), text: text(banner), stale: banner.classList.contains("series-banner--stale") };
  const sister = one(".md-content .series-sister");
  out.sister = sister && { visible: visible(sister), items: [...sister.querySelectorAll(":scope > a, :scope > .series-planned")].map((e) => ({
    kind: e.tagName.toLowerCase() === "a" ? "link" : "planned", text: text(e).replace(/在做$/, "").trim(),
    href: e.tagName.toLowerCase() === "a" ? new URL(e.getAttribute("href"), location.href).pathname : null,
    badge: !!e.querySelector(".series-badge"), badgeVisible: visible(e.querySelector(".series-badge")),
    visible: visible(e) })) };
  const pos = one(".md-content .series-position");
  out.position = pos && { visible: visible(pos), text: text(pos),
                          href: pos.querySelector("a") && new URL(pos.querySelector("a").getAttribute("href"), location.href).pathname };
  const link = (sel) => { const a = one(sel); return a && { visible: visible(a), text: text(a),
                          href: new URL(a.getAttribute("href"), location.href).pathname }; };
  out.prev = link(".md-content .series-nav__prev");
  out.next = link(".md-content .series-nav__next");
  out.index = [...document.querySelectorAll(".md-content li.series-index__item")].map((li) => {
    const a = li.querySelector(".series-index__body > a");
    const planned = li.querySelector(".series-planned");
    return { planned: li.classList.contains("series-index__item--planned"), visible: visible(li),
             title: a ? text(a) : text(planned).replace(/在做$/, "").trim(),
             href: a ? new URL(a.getAttribute("href"), location.href).pathname : null,
             badge: !!li.querySelector(".series-badge"), badgeVisible: visible(li.querySelector(".series-badge")) };
  });
  return out;
}
"""

# Horizontal overflow as a phone reader meets it: the page itself, and the boxes that scroll.
LAYOUT_JS = r"""
() => {
  const doc = document.documentElement, vw = doc.clientWidth;
  const out = { viewport: vw, pageScrollWidth: Math.max(doc.scrollWidth, document.body.scrollWidth), sticking: [], boxes: [] };
  const scrolls = (el) => { const s = getComputedStyle(el).overflowX; return s === "auto" || s === "scroll"; };
  const clipped = (el) => { for (let p = el.parentElement; p && p !== document.body; p = p.parentElement)
                              if (getComputedStyle(p).overflowX !== "visible" && p.getBoundingClientRect().right <= vw + 1) return true;
                            return false; };
  // elements that stick out of the screen, where no box clips or scrolls them
  for (const el of document.querySelectorAll(".md-main *, .md-header *, .md-footer *")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= vw + 1) continue;
    if (clipped(el) || el.closest(".md-sidebar, .md-search, .md-tooltip2, .katex-mathml")) continue;
    const s = getComputedStyle(el);
    if (s.position === "fixed" || s.visibility === "hidden") continue;
    out.sticking.push({ tag: el.tagName.toLowerCase(), cls: (el.getAttribute("class") || "").slice(0, 60),
                        right: Math.round(r.right), text: (el.textContent || "").trim().slice(0, 40) });
    if (out.sticking.length > 8) break;
  }
  // wide tables, diagrams and formulas: they must scroll inside their own box
  const boxOf = (el) => { for (let p = el; p && p !== document.body; p = p.parentElement) if (scrolls(p)) return p; return el; };
  const add = (kind, el, box, contentWidth, extra) => {
    const r = box.getBoundingClientRect();
    out.boxes.push(Object.assign({ kind, contentWidth: Math.round(contentWidth), boxWidth: Math.round(box.clientWidth),
      boxScrollWidth: Math.round(box.scrollWidth), scrolls: scrolls(box), boxRight: Math.round(r.right) }, extra || {}));
  };
  for (const t of document.querySelectorAll(".md-content table")) add("table", t, boxOf(t), t.scrollWidth);
  for (const h of document.querySelectorAll("div.mermaid")) {
    const svg = h.querySelector(":scope > svg");
    if (!svg) continue;
    const shown = svg.getBoundingClientRect().width, vb = svg.viewBox && svg.viewBox.baseVal;
    const natural = vb && vb.width ? vb.width : shown;
    const label = svg.querySelector(".nodeLabel, text");
    const font = label ? parseFloat(getComputedStyle(label).fontSize) : 16;
    add("diagram", svg, h, shown, { natural: Math.round(natural), shown: Math.round(shown), textPx: font * shown / natural });
  }
  for (const m of document.querySelectorAll(".md-content div.arithmatex")) add("formula", m, boxOf(m), m.scrollWidth);
  return out;
}
"""


# --- axe-core ------------------------------------------------------------------------------------------
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice")


@functools.lru_cache(maxsize=1)
def axe_source() -> str:
    """axe-core's own file from node_modules. It is evaluated in the page, not added as a <script>:
    the site's policy refuses a script it does not list, and evaluating needs no change to it."""
    if not AXE.is_file():
        raise RuntimeError(f"{AXE} is missing: run `npm ci` (axe-core is a devDependency in package.json)")
    return AXE.read_text(encoding="utf-8")


# a11y.js has measured every box that scrolls sideways, the blocks not yet drawn included
SCROLL_BOXES_MEASURED = "() => document.documentElement.getAttribute('data-series-scroll-boxes') !== 'measuring'"

# Every rule of the tags, on the whole document (open shadow roots included), once the page has had
# two frames to settle (a11y.js names the boxes that scroll when formulas and diagrams get their size).
AXE_RUN_JS = r"""
async ({ tags, rules }) => {
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const only = rules ? { type: "rule", values: rules } : { type: "tag", values: tags };
  const res = await axe.run(document, { runOnly: only, resultTypes: ["violations"] });
  return res.violations.map((v) => ({ rule: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(" "), html: n.html.slice(0, 160),
                                 why: (n.failureSummary || "").split("\n").slice(1, 3).join(" ").trim() })) }));
}
"""


def run_axe(page, rules: list[str] | None = None) -> list[dict]:
    """axe-core's violations on the page as it is now (every rule of AXE_TAGS, or only `rules`): rule,
    impact, and each element with the reason."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    try:   # a11y.js measures the boxes of the blocks not yet drawn when the browser is idle
        page.wait_for_function(SCROLL_BOXES_MEASURED, timeout=5_000)
    except PlaywrightTimeout:   # axe runs anyway, and reports what is still missing
        pass
    return page.evaluate(AXE_RUN_JS, {"tags": list(AXE_TAGS), "rules": rules})


def axe_report(found: dict[str, list[dict]], limit: int = 5) -> str:
    """What axe found, by the page and mode it was found in: rule, impact, then each element."""
    lines = []
    for where, violations in found.items():
        for v in violations:
            lines.append(f"{where}: {v['rule']} ({v['impact']}, {len(v['nodes'])} element(s)): {v['help']}")
            for n in v["nodes"][:limit]:
                lines.append(f"    {n['target']}  {n['html']!r}  {n['why']}")
    return "\n".join(lines)
