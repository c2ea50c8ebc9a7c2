// Word boundaries of Chinese / Japanese text runs, by the browser's own segmenter (ICU, Intl.Segmenter):
// reads a JSON array of strings on stdin, writes a JSON array of their segment lists on stdout.
// hooks/search.py marks these boundaries in the pages it gives the search indexer, so that the index
// splits words where the reader's browser splits the query (Pagefind segments queries with
// Intl.Segmenter); its own Chinese segmentation splits differently ("全双工" vs "全|双|工").
const segmenter = new Intl.Segmenter("zh", { granularity: "word" });
const chunks = [];
process.stdin.on("data", (d) => chunks.push(d));
process.stdin.on("end", () => {
  const runs = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const out = runs.map((run) => Array.from(segmenter.segment(run), (s) => s.segment));
  process.stdout.write(JSON.stringify(out));
});
