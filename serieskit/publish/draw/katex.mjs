// Formulas for the build: one Node process per build renders every formula with the site's pinned
// KaTeX (serieskit/publish/draw/formulas.py). Protocol: one JSON array of {tex, display} per input line, one
// JSON array of {html} or {error, position} per output line, in order. No trust (no \href, \htmlData,
// \includegraphics), errors thrown (never drawn in red into the page).
import { createRequire } from "node:module";
import { createInterface } from "node:readline";

const require = createRequire(process.cwd() + "/");
const katex = require(process.argv[2] || "katex");

function one(item) {
  try {
    return { html: katex.renderToString(String(item.tex), {
      displayMode: Boolean(item.display), throwOnError: true, trust: false, strict: "ignore",
      output: "htmlAndMathml", maxExpand: 1000, maxSize: 50 }) };
  } catch (e) {
    return { error: String(e && e.message || e), position: e && typeof e.position === "number" ? e.position : null };
  }
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  let items;
  try { items = JSON.parse(line); } catch (e) { items = []; }
  process.stdout.write(JSON.stringify(Array.isArray(items) ? items.map(one) : []) + "\n");
});
