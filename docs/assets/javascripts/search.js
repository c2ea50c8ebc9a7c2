/* Site search in Material's header box, over the static Pagefind index (hooks/serieshooks/search.py).
 *
 * Nothing of the index is fetched until the reader opens search: then Pagefind's engine and the
 * index fragments its query needs, from this site only. Opens with the magnifier, "/", "s" or "f";
 * arrow keys move through the results, Enter opens one, Esc closes. Results are built as DOM nodes:
 * an excerpt keeps only Pagefind's <mark> highlights, every other piece is text.
 */
(function () {
  "use strict";
  var root = document.querySelector("[data-series-search]");
  var toggle = document.getElementById("__search");
  if (!root || !toggle) return;
  var input = root.querySelector("[data-series-search-query]");
  var form = root.querySelector("[data-series-search-form]");
  var meta = root.querySelector("[data-series-search-meta]");
  var list = root.querySelector("[data-series-search-list]");
  // The header stays while instant navigation swaps the page: resolve the bundle once, here.
  var bundle = new URL(root.getAttribute("data-bundle"), document.baseURI).href;
  var sitePath = new URL(root.getAttribute("data-site"), document.baseURI).pathname;
  var weights = {};
  try { weights = JSON.parse(root.getAttribute("data-weights") || "{}"); } catch (e) { weights = {}; }
  var serve = root.hasAttribute("data-serve");
  var PAGE = 4;        // results loaded at a time (about what the panel shows): each one's fragment is fetched when shown
  var TEXT = {
    idle: "输入关键词开始搜索",
    loading: "正在加载搜索索引……",
    none: "没有找到符合条件的结果",
    one: "找到 1 个符合条件的结果",
    other: function (n) { return "找到 " + n + " 个符合条件的结果"; },
    more: function (left) { return "显示更多结果（还有 " + left + " 个）"; },
    failed: "搜索索引加载失败，请刷新页面后重试",
    serve: meta.textContent
  };
  var engine = null;   // a promise of Pagefind's module, made on first open
  var asked = "";

  function load() {
    if (engine === null) {
      engine = import(bundle).then(function (pf) {
        return pf.options({ baseUrl: sitePath, excerptLength: 24, ranking: { metaWeights: weights } })
          .then(function () { return pf.init(); })
          .then(function () { return pf; });
      });
      engine.catch(function () { engine = null; });
    }
    return engine;
  }

  function say(text) { meta.textContent = text; }

  function editable(el) {
    return el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  }

  function open() {
    if (!toggle.checked) {
      toggle.checked = true;
      toggle.dispatchEvent(new Event("change"));
    }
    input.focus();
    input.select();
  }

  function close(focusMoved) {
    if (toggle.checked) {
      toggle.checked = false;
      toggle.dispatchEvent(new Event("change"));
    }
    if (!focusMoved) input.blur();
  }

  // An excerpt from Pagefind is HTML: parse it inertly, keep its text and its <mark> elements.
  function excerpt(html) {
    var out = document.createDocumentFragment();
    var doc = new DOMParser().parseFromString("<body>" + (html || ""), "text/html");
    doc.body.childNodes.forEach(function (node) {
      if (node.nodeType === 1 && node.tagName === "MARK") {
        var m = document.createElement("mark");
        m.textContent = node.textContent;
        out.appendChild(m);
      } else {
        out.appendChild(document.createTextNode(node.textContent));
      }
    });
    return out;
  }

  // A metadata value or heading: plain text from Pagefind, with the index's word marks (zero-width
  // spaces, hooks/serieshooks/search.py) taken out.
  function plain(text) {
    return typeof text === "string" ? text.replace(/\u200b/g, "") : "";
  }

  // The section of the page where the query matches most (Pagefind's sub-results, one per heading).
  function best(data) {
    var subs = (data.sub_results || []).filter(function (s) { return s.url !== data.url; });
    var top = null, score = -1;
    subs.forEach(function (s) {
      var w = (s.weighted_locations || []).reduce(function (t, l) { return t + (l.weight || 1); }, 0) ||
        (s.locations || []).length;
      if (w > score) { top = s; score = w; }
    });
    return top;
  }

  function item(data) {
    var sub = best(data);
    var li = document.createElement("li");
    li.className = "md-search-result__item";
    var a = document.createElement("a");
    a.className = "md-search-result__link";
    a.tabIndex = -1;
    a.href = sub ? sub.url : data.url;
    a.setAttribute("role", "option");
    var art = document.createElement("article");
    art.className = "md-search-result__article md-typeset";
    var icon = document.createElement("div");
    icon.className = "md-search-result__icon md-icon";
    var h = document.createElement("h1");
    h.textContent = plain(data.meta && data.meta.title) || data.url;
    art.appendChild(icon);
    art.appendChild(h);
    var where = document.createElement("p");
    where.className = "series-search-where";
    var section = plain(data.meta && data.meta.section);
    var heading = sub ? plain(sub.title) : "";
    where.textContent = [section, heading !== h.textContent ? heading : ""].filter(Boolean).join(" › ");
    if (where.textContent) art.appendChild(where);
    var p = document.createElement("p");
    p.appendChild(excerpt(sub ? sub.excerpt : data.excerpt));
    art.appendChild(p);
    a.appendChild(art);
    li.appendChild(a);
    return li;
  }

  function more(results, shown, q) {
    var li = document.createElement("li");
    li.className = "md-search-result__item series-search-more";
    var btn = document.createElement("button");
    btn.type = "button";
    btn.className = "md-search-result__link";
    btn.tabIndex = -1;
    btn.textContent = TEXT.more(results.length - shown);
    btn.addEventListener("click", function () {
      li.remove();
      show(results, shown, q, true);
    });
    li.appendChild(btn);
    return li;
  }

  // Results [from, from + PAGE) of a query, appended; their fragments are fetched now, not before.
  function show(results, from, q, focus) {
    return Promise.all(results.slice(from, from + PAGE).map(function (r) { return r.data(); })).then(function (rows) {
      if (q !== asked) return;
      var items = rows.map(item);
      items.forEach(function (li) { list.appendChild(li); });
      var shown = from + rows.length;
      if (shown < results.length) list.appendChild(more(results, shown, q));
      if (focus && items.length) items[0].querySelector("a").focus();
    });
  }

  function search(q) {
    asked = q;
    if (!q.trim()) {
      list.replaceChildren();
      say(TEXT.idle);
      return;
    }
    say(TEXT.loading);
    load().then(function (pf) {
      return pf.debouncedSearch(q, {}, 120).then(function (found) {
        if (found === null || q !== asked) return;   // a newer query is on its way
        var n = found.results.length;
        list.replaceChildren();
        return show(found.results, 0, q, false).then(function () {
          if (q === asked) say(n === 0 ? TEXT.none : n === 1 ? TEXT.one : TEXT.other(n));
        });
      });
    }).catch(function () { say(TEXT.failed); });
  }

  function links() { return Array.prototype.slice.call(list.querySelectorAll(".md-search-result__link")); }

  function move(step) {
    var all = links();
    if (!all.length) return;
    var k = all.indexOf(document.activeElement);
    var next = k + step;
    if (next < 0) { input.focus(); return; }
    all[Math.min(next, all.length - 1)].focus();
  }

  if (serve) {
    input.addEventListener("input", function () { say(TEXT.serve); });
  } else {
    input.addEventListener("input", function () { search(input.value); });
    input.addEventListener("focus", function () { load().catch(function () {}); });
  }
  // On a wide screen the box is in the header itself: focusing it opens search, as in Material.
  input.addEventListener("focus", function () {
    if (!toggle.checked) {
      toggle.checked = true;
      toggle.dispatchEvent(new Event("change"));
    }
  });
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var first = links()[0];
    if (first) first.click();
  });
  form.addEventListener("reset", function () {
    setTimeout(function () { search(""); input.focus(); }, 0);
  });
  toggle.addEventListener("change", function () {
    if (toggle.checked) setTimeout(function () {
      if (toggle.checked && !root.contains(document.activeElement)) input.focus();
    }, 0);
  });
  // Tabbing out of the box closes search (a click elsewhere is Material's overlay): otherwise the open
  // box stays over the page, and on a phone it covers the screen while the focus walks the page unseen.
  document.addEventListener("focusin", function (ev) {
    if (toggle.checked && !root.contains(ev.target) && ev.target !== toggle) close(true);
  });
  list.addEventListener("click", function (ev) {
    if (ev.target.closest && ev.target.closest("a")) close();
  });

  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.isComposing) return;
    if (!toggle.checked) {
      if ((ev.key === "/" || ev.key === "s" || ev.key === "f") && !editable(document.activeElement)) {
        ev.preventDefault();
        open();
      }
      return;
    }
    if (ev.key === "Escape") {
      ev.preventDefault();
      close();
    } else if (ev.key === "ArrowDown") {
      ev.preventDefault();
      move(1);
    } else if (ev.key === "ArrowUp") {
      ev.preventDefault();
      move(-1);
    }
  }, true);

  // Instant navigation: a new page closes search (Material's document$ is its documented hook).
  if (window.document$ && typeof window.document$.subscribe === "function") {
    var first = true;
    window.document$.subscribe(function () {
      if (first) { first = false; return; }
      close();
    });
  }
})();
