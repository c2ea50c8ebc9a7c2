/*
 * What a keyboard, a screen reader or a touch screen needs that the page's markup does not give, on
 * every page view (Material's instant navigation emits `document$` for each):
 *
 * - a box that scrolls sideways (a wide table, formula or diagram) can be focused, so the arrow keys
 *   scroll it, and says what it is (a table keeps its own role; other boxes become a named group);
 *   recomputed when the window changes size or a font arrives, so a box that fits is no extra tab
 *   stop; a box in a block not drawn yet (series.css, content-visibility) is measured when the
 *   browser is idle, before a Tab can reach it;
 * - a glossary term (`abbr.series-term`, serieskit/publish/mdext.py) can be focused: Material's tooltip
 *   (content.tooltips) opens on focus as on hover, so a keyboard or a tap opens it too; its title
 *   is also its `aria-description` (Chromium exposes an abbr's title as no description, and Material
 *   takes the title off while the tooltip shows);
 * - a task-list checkbox is named by its item's text;
 * - the button bar Material adds to each code block (a `nav` without a name, once per block) is a
 *   plain container, not one more unnamed navigation landmark (its buttons keep their names);
 * - a section of the navigation (navigation.indexes) is named by a label that holds only an icon:
 *   the label gets the section's title as hidden text, so the toggle and its list have a name;
 * - the palette toggle: when the scheme comes from the system's preference Material checks none of
 *   its radio buttons, and Tab then lands on the first, whose toggle is hidden in the dark scheme: the
 *   button of the scheme shown is checked; and as a radio button it switches only with the arrow
 *   keys: Enter and Space on it press its toggle, as on any button;
 * - a page without Material's skip link (it writes one only when the page has a table of contents)
 *   gets one to its content; a skip link moves the focus to where it lands, so the next Tab goes on
 *   from there;
 * - what the keyboard just focused stays on screen when the page's height changes under it.
 */
(function () {
  "use strict";
  var SCROLLS = /^(auto|scroll)$/;

  function overflows(box) {
    return box.scrollWidth > box.clientWidth + 1 && SCROLLS.test(getComputedStyle(box).overflowX);
  }

  // The boxes the site's pages let scroll sideways (series.css, Material's stylesheet): Material's
  // wrapper of a table (and a table itself), a code block, a display formula, a diagram. Only these
  // are measured, all sizes read before any attribute is written: measuring every element, or
  // writing between reads, lays out the whole page again. The browser suite's axe check
  // (scrollable-region-focusable, every page, phone and desktop) finds a kind of box missing here.
  var SCROLLERS = ".md-typeset__scrollwrap, .md-typeset table, .md-typeset pre > code, .md-typeset div.arithmatex, .md-typeset .mermaid";

  // A block below the screen is not laid out until the reader comes near it (content-visibility,
  // series.css), so its size says nothing of what it holds. Such a box is measured when the browser
  // is idle, a few at a time: asking for the width of what is inside lays out that block alone, and
  // the block stays undrawn. So every wide box has its tab stop soon after the page arrives, without
  // a long task while it loads; a box drawn later is measured again when its size changes.
  function undrawn(box) {
    var inner = box.firstElementChild || box;
    return !!inner.checkVisibility && !inner.checkVisibility({ contentVisibilityAuto: true });
  }

  function mark(boxes) {
    var fits = [], wide = [];
    boxes.forEach(function (box) {
      if (box.hasAttribute("data-series-scroll")) {
        if (!overflows(box) && box !== document.activeElement) fits.push(box);   // never take a stop from under the focus
      } else if (!box.hasAttribute("tabindex") && overflows(box)) {
        wide.push(box);
      }
    });
    fits.forEach(function (el) {
      el.removeAttribute("tabindex");
      if (el.getAttribute("data-series-scroll") === "group") {
        el.removeAttribute("role");
        el.removeAttribute("aria-label");
      }
      el.removeAttribute("data-series-scroll");
    });
    wide.forEach(function (box) {
      box.setAttribute("tabindex", "0");
      if (box.tagName === "TABLE") {
        box.setAttribute("data-series-scroll", "table");
      } else {
        var what = box.classList.contains("arithmatex") ? "公式" : box.classList.contains("mermaid") ? "图"
          : box.querySelector("table") ? "表格" : "内容";
        box.setAttribute("data-series-scroll", "group");
        box.setAttribute("role", "group");
        box.setAttribute("aria-label", what + "（可左右滚动）");
      }
    });
  }

  // `data-series-scroll-boxes` on the root: "measuring" from the moment a box may have changed (the
  // page arrived, a block was drawn, a font arrived, the window changed size) until every box has
  // been measured with the fonts it needs, then "measured" (what a test waits for before it asks
  // whether every wide box has a stop). Measuring a formula can start loading the font it is set in,
  // which widens it: while a font loads the state stays "measuring", and the font's arrival
  // (`loadingdone`, below) measures again. Each turn takes a few milliseconds at most, so a phone's
  // slower processor never has a long task from it while the reader scrolls or types.
  var STATE = "data-series-scroll-boxes", pending = 0;
  function state(value) { document.documentElement.setAttribute(STATE, value); }
  function measured() {   // not while a font loads, nor while a look again is due (later, below)
    if (!pending && !(document.fonts && document.fonts.status === "loading")) state("measured");
  }

  var queue = [], TURN_MS = 6;
  var idle = window.requestIdleCallback || function (f) { return setTimeout(f, 16); };
  function drain() {
    var batch = [], until = performance.now() + TURN_MS;
    while (queue.length && (!batch.length || performance.now() < until)) {
      var box = queue.shift();
      if (!box.isConnected) continue;
      if (box.firstElementChild) box.firstElementChild.getBoundingClientRect();   // lays out this block only
      batch.push(box);
    }
    mark(batch);
    if (queue.length) idle(drain);
    else measured();
  }

  function scrollBoxes(root) {
    var drawn = [], wasEmpty = !queue.length;
    queue = [];
    root.querySelectorAll(SCROLLERS).forEach(function (box) { (undrawn(box) ? queue : drawn).push(box); });
    mark(drawn);
    if (!queue.length) {
      measured();
      return;
    }
    state("measuring");
    if (wasEmpty) idle(drain);
  }

  function itemText(li) {
    var text = "";
    for (var n = li.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3) text += n.nodeValue;
      else if (n.nodeType === 1 && !/^(UL|OL|LABEL)$/.test(n.tagName)) text += n.textContent;
    }
    return text.replace(/\s+/g, " ").trim();
  }

  function mend(root) {
    root.querySelectorAll("abbr.series-term:not([tabindex])").forEach(function (abbr) {
      abbr.setAttribute("tabindex", "0");
      if (abbr.title) abbr.setAttribute("aria-description", abbr.title);
    });
    root.querySelectorAll("li.task-list-item input[type=checkbox]:not([aria-label])").forEach(function (box) {
      var li = box.closest("li");
      box.setAttribute("aria-label", itemText(li) || "任务");
    });
    root.querySelectorAll("nav.md-code__nav").forEach(function (nav) {
      nav.setAttribute("role", "none");
    });
    document.querySelectorAll("label.md-nav__link[id]").forEach(function (label) {
      if (label.textContent.trim()) return;
      var nav = document.querySelector('nav[aria-labelledby="' + CSS.escape(label.id) + '"]');
      var title = nav && nav.querySelector(":scope > .md-nav__title");
      var text = title ? title.textContent.replace(/\s+/g, " ").trim() : "";
      if (!text) return;
      var span = document.createElement("span");
      span.className = "series-sr-only";
      span.textContent = text;
      label.appendChild(span);
    });
    var options = document.querySelectorAll("input.md-option");
    if (options.length && !document.querySelector("input.md-option:checked")) {
      var shown = document.body.getAttribute("data-md-color-scheme");
      options.forEach(function (o) { if (o.getAttribute("data-md-color-scheme") === shown) o.checked = true; });
    }
    var article = document.querySelector(".md-content__inner");
    var skip = document.querySelector("[data-md-component=skip]");
    if (article && skip && !skip.querySelector("a")) {
      if (!article.id) article.id = "series-content";
      article.setAttribute("tabindex", "-1");   // the link moves the focus there, so Tab goes on from it
      var a = document.createElement("a");
      a.className = "md-skip";
      a.href = "#" + article.id;
      a.textContent = "跳转至";
      skip.appendChild(a);
    }
    scrollBoxes(root);
  }

  function content() { return document.querySelector(".md-content") || document.body; }

  function later() {
    state("measuring");
    clearTimeout(pending);
    pending = setTimeout(function () { pending = 0; scrollBoxes(content()); }, 150);
  }

  var ro = null;
  function run() {
    mend(content());
    // a box's size changes after the page arrives when a block below the screen is drawn, or a
    // diagram is drawn in the browser (`mkdocs serve` without one at build time): look again, once,
    // when that settles
    if (window.ResizeObserver) {
      if (ro) ro.disconnect();
      ro = new ResizeObserver(later);
      content().querySelectorAll(SCROLLERS).forEach(function (el) { ro.observe(el); });
    }
  }

  // Taken before Material's own click handling (capture): on a page outside the sitemap (404) its
  // instant navigation would load the page again for the anchor and drop the focus.
  document.addEventListener("click", function (ev) {
    var link = ev.target.closest && ev.target.closest("a.md-skip");
    var target = link && document.getElementById(decodeURIComponent(link.hash.slice(1)));
    if (!target) return;
    ev.preventDefault();
    ev.stopPropagation();
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus();
  }, true);

  // A link inside a drawn diagram (the series map) that scrolls in its own box: the browser does not
  // bring an SVG link into view when it gets the focus, so the box scrolls to it here.
  document.addEventListener("focusin", function (ev) {
    var el = ev.target;
    if (el && el.closest && el.namespaceURI === "http://www.w3.org/2000/svg" && el.closest(".mermaid")) {
      el.scrollIntoView({ block: "nearest", inline: "nearest", behavior: "instant" });
    }
  });

  // The page can still change height after the browser scrolled a newly focused element into view (a
  // block content-visibility skipped is drawn at its real height; a font arrives), and nothing scrolls
  // again: for a second after a keyboard focus move, the element is brought back into view if that
  // moved it out. (Not for a click: the reader is looking where they clicked.)
  document.addEventListener("focusin", function (ev) {
    var el = ev.target;
    if (!el || !el.matches || !el.matches(":focus-visible")) return;
    var until = performance.now() + 1000;
    (function keep() {
      if (document.activeElement !== el || performance.now() > until) return;
      var r = el.getBoundingClientRect(), vv = window.visualViewport;
      var top = vv ? vv.offsetTop : 0, bottom = top + (vv ? vv.height : innerHeight);
      if (r.height > 0 && (r.bottom > bottom + 1 || r.top < top - 1)) el.scrollIntoView({ block: "nearest", inline: "nearest" });
      requestAnimationFrame(keep);
    })();
  });

  document.addEventListener("keydown", function (ev) {
    var option = ev.target;
    if ((ev.key !== "Enter" && ev.key !== " ") || !option.matches || !option.matches("input.md-option")) return;
    var toggle = option.nextElementSibling;
    if (!toggle || toggle.tagName !== "LABEL") return;
    ev.preventDefault();
    toggle.click();
  });

  if (window.document$ && window.document$.subscribe) window.document$.subscribe(run);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
  else run();
  window.addEventListener("resize", later);
  // a web font that arrives (KaTeX's, the text's) widens what a box holds without changing the box
  if (document.fonts && document.fonts.addEventListener) {
    document.fonts.addEventListener("loadingdone", later);
    document.fonts.addEventListener("loadingerror", later);
  }
})();
