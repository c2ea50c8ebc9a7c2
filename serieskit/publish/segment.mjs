// Marks the word boundaries of Chinese / Japanese text with zero-width spaces, as the reader's browser
// finds them (ICU, Intl.Segmenter), in the copies of the pages hooks/search.py gives the search
// indexer: Pagefind segments a query with Intl.Segmenter, so the index must split words the same way
// (its own Chinese segmentation indexes "全双工" where the browser asks for "全", "双", "工").
// Only text between tags and the values of data-pagefind-meta change; ids, links and markup stay.
// Usage: node hooks/segment.mjs < files.json   (a JSON array of paths, rewritten in place)
import { readFileSync, writeFileSync } from "node:fs";

const segmenter = new Intl.Segmenter("zh", { granularity: "word" });
const RUN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}/g;
const TAG_OR_RUN = /<[^>]*>|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}/g;
const META = /(data-pagefind-meta="[a-z_]+:)([^"]*)(")/g;
const cache = new Map();

function cut(run) {
  let out = cache.get(run);
  if (out === undefined) {
    out = Array.from(segmenter.segment(run), (s) => s.segment).join("\u200b");
    cache.set(run, out);
  }
  return out;
}

function mark(html) {
  return html.replace(TAG_OR_RUN, (m) => {
    if (m[0] !== "<") return cut(m);
    if (!m.includes("data-pagefind-meta")) return m;
    return m.replace(META, (_, a, value, b) => a + value.replace(RUN, cut) + b);
  });
}

const files = JSON.parse(readFileSync(0, "utf8"));
for (const f of files) writeFileSync(f, mark(readFileSync(f, "utf8")));
