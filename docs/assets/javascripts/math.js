/*
 * Formulas: pymdownx.arithmatex (generic mode) wraps math in `.arithmatex`; KaTeX renders it.
 * KaTeX is served from the site and loaded only on pages that have formulas, on every page view
 * (Material's instant navigation emits `document$` for each page).
 */
(function () {
  "use strict";
  var script = document.currentScript;
  var base = new URL("../vendor/katex/", script ? script.src : location.href);
  var ready = null;

  function add(tag, attrs) {
    return new Promise(function (resolve, reject) {
      var el = document.createElement(tag);
      Object.keys(attrs).forEach(function (k) { el.setAttribute(k, attrs[k]); });
      el.onload = resolve;
      el.onerror = function () { reject(new Error("cannot load " + (attrs.src || attrs.href))); };
      document.head.appendChild(el);
    });
  }

  function load() {
    if (!ready) {
      ready = Promise.all([
        add("link", { rel: "stylesheet", href: new URL("katex-swap.min.css", base).href }),
        add("script", { src: new URL("katex.min.js", base).href })
      ]).then(function () {
        return add("script", { src: new URL("contrib/auto-render.min.js", base).href });
      });
    }
    return ready;
  }

  function render(root) {
    var nodes = root.querySelectorAll(".arithmatex");
    if (!nodes.length) return;
    load().then(function () {
      nodes.forEach(function (el) {
        window.renderMathInElement(el, {
          delimiters: [
            { left: "\\(", right: "\\)", display: false },
            { left: "\\[", right: "\\]", display: true }
          ],
          throwOnError: false
        });
      });
    });
  }

  if (window.document$ && window.document$.subscribe) {
    window.document$.subscribe(function () { render(document.body); });
  } else {
    document.addEventListener("DOMContentLoaded", function () { render(document.body); });
  }
})();
