/*
 * Mermaid, loaded on demand from the site itself.
 *
 * Material for MkDocs renders every `pre.mermaid` with the global `mermaid` if one exists, and
 * downloads mermaid from unpkg.com otherwise. This file defines that global as a small stand-in:
 * the real (ES module) build is imported from assets/vendor/mermaid/ only when the first diagram is
 * drawn, and it fetches just the chunks of the diagram types on the page. No third-party request.
 *
 * It also lets `extra.mermaid_args` (from mkdocs.yml, written into the page as JSON) reach the
 * renderer, and adds a few theme rules (clusters) to Material's mermaid theme CSS.
 */
(function () {
  "use strict";
  if (window.mermaid && window.mermaid.__series) return;
  var script = document.currentScript;
  var base = new URL("../vendor/mermaid/", script ? script.src : location.href);
  var extraCSS =
    ".cluster rect{fill:var(--series-cluster-fill);stroke:var(--series-cluster-stroke)}" +
    ".cluster span,.cluster-label span,.cluster-label .nodeLabel,.cluster text{color:var(--series-cluster-fg);fill:var(--series-cluster-fg)}";
  var config = {};
  var ready = null;
  // mermaid 12 draws in its "neo" look with the "redux-color" theme and the ELK layout by default:
  // every sequence participant and class gets its own colour (outside the palette, over Material's
  // theme) and each flowchart page downloads the 1.6 MB ELK chunk. The classic look, default theme
  // and dagre layout (mermaid 11's defaults) keep the palette and load only what a diagram needs.
  // mkdocs.yml (`extra.mermaid_args`) may still override them; a diagram may ask for `layout: elk`.
  var defaults = { look: "classic", theme: "default", layout: "dagre" };

  // Material scales a diagram down to the column (width 100%, max-width: its natural width). Below
  // three quarters of its natural size the labels get too small to read on a phone: from there on
  // the diagram keeps that size and scrolls inside its own box (.mermaid has overflow-x: auto).
  var MIN_SCALE = 0.75;

  function legible(svg) {
    return svg.replace(/^(<svg\b[^>]*?\bstyle="[^"]*?max-width:\s*([\d.]+)px;?)/, function (all, head, w) {
      return head + (/;$/.test(head) ? "" : ";") + " min-width: " + (parseFloat(w) * MIN_SCALE).toFixed(1) + "px;";
    });
  }

  function userArgs() {
    var el = document.getElementById("__mermaid_config");
    if (!el) return {};
    try { return JSON.parse(el.textContent) || {}; } catch (e) { return {}; }
  }

  function load() {
    if (!ready) {
      ready = import(new URL("mermaid.esm.min.mjs", base).href).then(function (mod) {
        var m = mod.default;
        var cfg = Object.assign({}, defaults, userArgs(), config, { startOnLoad: false });
        cfg.themeCSS = (config.themeCSS || "") + extraCSS;
        m.initialize(cfg);
        return m;
      });
    }
    return ready;
  }

  window.mermaid = {
    __series: true,
    initialize: function (cfg) { config = Object.assign({}, cfg || {}); },
    render: function (id, text) {
      return load().then(function (m) { return m.render(id, text); }).then(function (r) {
        r.svg = legible(r.svg);
        return r;
      });
    },
    run: function (opts) { return load().then(function (m) { return m.run(opts); }); }
  };
})();
