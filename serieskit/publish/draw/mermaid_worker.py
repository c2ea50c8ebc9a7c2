"""Diagrams for the build: one headless Chromium (Debian's, through Playwright) with the site's pinned
mermaid loaded once, rendering every diagram of a build (serieskit/publish/draw/diagrams.py starts it).

Run as `python -m serieskit.publish.draw.mermaid_worker MERMAID_JS CHROMIUM`. Protocol: one JSON object
`{"config": {...}, "items": [{"id": ..., "source": ...}]}` per input line, one JSON array of
`{"svg": ...}` or `{"error": ...}` per output line, in order. The page has no network: mermaid is read
from the given file, and every request the page makes is refused.
"""
from __future__ import annotations

import json
import sys

RENDER = """async ([config, items]) => {
  mermaid.initialize(config);
  const out = [];
  for (const item of items) {
    try {
      const { svg } = await mermaid.render(item.id, item.source);
      out.push({ svg });
    } catch (e) {
      out.push({ error: String((e && e.message) || e) });
    }
    document.querySelectorAll("[id^='d" + item.id + "'], #" + CSS.escape(item.id)).forEach((n) => n.remove());
  }
  return out;
}"""


def main() -> int:
    mermaid_js, chromium = sys.argv[1], sys.argv[2]
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        page = browser.new_page()
        page.route("**/*", lambda route: route.abort())
        page.set_content("<!doctype html><html><head><meta charset='utf-8'></head><body></body></html>")
        page.add_script_tag(path=mermaid_js)
        print(json.dumps({"ready": True}), flush=True)
        for line in sys.stdin:
            try:
                req = json.loads(line)
                out = page.evaluate(RENDER, [req["config"], req["items"]])
            except Exception as exc:   # a broken request or a crashed page: every item fails, the worker goes on
                out = [{"error": f"renderer: {exc}"} for _ in (req.get("items", []) if isinstance(req, dict) else [])]
            sys.stdout.write(json.dumps(out) + "\n")
            sys.stdout.flush()
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
