/* mrkit report: the pair table (sort, filter, pages) and the pair view, drawn on demand
   from the JSON embedded in the page.  No network, no libraries. */
"use strict";
(function () {
  var D = JSON.parse(document.getElementById("mrkit-data").textContent);
  var P = D.pairs, NS = D.names.length, PAGE = 100;
  var state = {sort: "pair", dir: 1, q: "", show: "all", page: 0, rows: null, sys: 0, pair: -1};
  var SVGNS = "http://www.w3.org/2000/svg";
  var UNIT = D.family === "mrp" ? "tuple" : "triple";

  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) { return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]; });
  }
  function f1(p, k) { return p.sc[k][5]; }
  function fmt(x) { return x === null || x === undefined ? "-" : x.toFixed(4); }
  function $(id) { return document.getElementById(id); }
  function constant(a) { return a[3] ? '"' + a[2] + '"' : String(a[2]); }  // quoted as written

  /* ------------------------------------------------------------ the pair table */
  function key(p, i) {
    var s = state.sort;
    if (s === "pair") return i;
    if (s === "id") return String(p.id || "");
    if (s === "snt") return String(p.snt || "");
    if (s === "len") return p.len;
    if (s === "cert") return p.sc.reduce(function (a, c) { return a + c[3]; }, 0);
    if (s === "diff") return f1(p, 1) - f1(p, 0);
    return f1(p, +s.slice(1));
  }
  function keep(p) {
    var sh = state.show;
    if (sh === "uncert" && p.sc.every(function (c) { return c[3]; })) return false;
    if (sh === "imperfect" && p.sc.every(function (c) { return c[5] >= 1; })) return false;
    if (sh === "a" && !(f1(p, 0) > f1(p, 1))) return false;
    if (sh === "b" && !(f1(p, 1) > f1(p, 0))) return false;
    if (state.q) {
      var q = state.q.toLowerCase();
      if (String(p.id || "").toLowerCase().indexOf(q) < 0 && String(p.snt || "").toLowerCase().indexOf(q) < 0) return false;
    }
    return true;
  }
  function compute() {
    var idx = [];
    for (var i = 0; i < P.length; i++) if (keep(P[i])) idx.push(i);
    var keys = {};
    idx.forEach(function (i) { keys[i] = key(P[i], i); });
    idx.sort(function (a, b) {
      var x = keys[a], y = keys[b];
      if (x < y) return -state.dir;
      if (x > y) return state.dir;
      return a - b;
    });
    state.rows = idx;
  }
  function renderTable() {
    if (!state.rows) compute();
    var rows = state.rows, n = rows.length, pages = Math.max(1, Math.ceil(n / PAGE));
    if (state.page >= pages) state.page = pages - 1;
    var start = state.page * PAGE, html = [];
    for (var r = start; r < Math.min(n, start + PAGE); r++) {
      var i = rows[r], p = P[i], cells = [];
      cells.push('<td>' + (i + 1) + '</td><td class="l">' + esc(p.id || "") + '</td><td class="snt">' + esc(p.snt || "") + '</td><td>' + p.len + '</td>');
      for (var k = 0; k < NS; k++) cells.push("<td>" + fmt(f1(p, k)) + "</td>");
      var unc = [];
      for (k = 0; k < NS; k++) if (!p.sc[k][3]) unc.push(D.names[k]);
      cells.push(unc.length ? '<td class="no" title="not certified: ' + esc(unc.join(", ")) + '">no</td>' : '<td class="yes">yes</td>');
      if (NS > 1) {
        var d = f1(p, 1) - f1(p, 0);
        cells.push('<td class="' + (d > 0 ? "pos" : d < 0 ? "neg" : "") + '">' + (d > 0 ? "+" : "") + d.toFixed(4) + "</td>");
      }
      html.push('<tr data-pair="' + i + '">' + cells.join("") + "</tr>");
    }
    $("pairs-body").innerHTML = html.join("");
    $("pairs-count").textContent = n + " of " + P.length + " pairs" + (n ? " \u00b7 rows " + (start + 1) + "\u2013" + Math.min(n, start + PAGE) : "");
    $("pg-prev").disabled = state.page === 0;
    $("pg-next").disabled = state.page >= pages - 1;
    var ths = document.querySelectorAll("#pairs th");
    for (var t = 0; t < ths.length; t++) {
      ths[t].className = (ths[t].className.indexOf("l") === 0 ? "l " : "") + (ths[t].getAttribute("data-sort") === state.sort ? (state.dir > 0 ? "asc" : "desc") : "");
      ths[t].className = ths[t].className.trim();
    }
  }
  function setupTable() {
    $("pairs-head").addEventListener("click", function (ev) {
      var th = ev.target.closest("th");
      if (!th) return;
      var s = th.getAttribute("data-sort");
      if (state.sort === s) state.dir = -state.dir; else { state.sort = s; state.dir = 1; }
      state.rows = null; state.page = 0; renderTable();
    });
    $("pairs-q").addEventListener("input", function (ev) { state.q = ev.target.value; state.rows = null; state.page = 0; renderTable(); });
    $("pairs-show").addEventListener("change", function (ev) { state.show = ev.target.value; state.rows = null; state.page = 0; renderTable(); });
    $("pg-prev").addEventListener("click", function () { state.page--; renderTable(); });
    $("pg-next").addEventListener("click", function () { state.page++; renderTable(); });
    $("pairs-body").addEventListener("click", function (ev) {
      var tr = ev.target.closest("tr");
      if (tr) open(+tr.getAttribute("data-pair"));
    });
    document.addEventListener("click", function (ev) {
      var pt = ev.target.closest && ev.target.closest("circle.pt");
      if (pt) open(+pt.getAttribute("data-pair"));
    });
    renderTable();
  }

  /* ------------------------------------------------------------ graphs */
  // element order of the marks: instances (one per node), attributes, edges, tops
  function elements(g) {
    var n = g.v.length, A = g.a.length;
    var T = g.t.length, Ed = g.e.length;
    return {inst: function (i) { return i; }, attr: function (j) { return n + j; }, edge: function (j) { return n + A + j; },
      top: function (j) { return n + A + Ed + j; }, anchor: function (i) { return n + A + Ed + T + i; }};
  }
  function mark(marks, e) { var c = marks.charAt(e); return c === "1" ? "m1" : c === "0" ? "m0" : ""; }

  function children(g) {
    // attributes and outgoing edges of every node, in the order written
    var ch = g.v.map(function () { return []; }), E = elements(g);
    g.a.forEach(function (a, j) { ch[a[0]].push({attr: j, el: E.attr(j)}); });
    g.e.forEach(function (e, j) { ch[e[0]].push({edge: j, el: E.edge(j), to: e[2]}); });
    return ch;
  }
  function roots(g) {
    var r = g.t.slice(), incoming = g.v.map(function () { return false; });
    g.e.forEach(function (e) { incoming[e[2]] = true; });
    if (!r.length && g.v.length) r.push(incoming.indexOf(false) >= 0 ? incoming.indexOf(false) : 0);
    return r;
  }

  function penman(g, marks, side) {
    var ch = children(g), E = elements(g), seen = g.v.map(function () { return false; }), out = [];
    var topOf = {};
    g.t.forEach(function (t, j) { topOf[t] = E.top(j); });
    function vspan(i) { return '<span class="v" data-' + side + '="' + i + '">' + esc(g.v[i]) + "</span>"; }
    function node(i, depth) {
      seen[i] = true;
      var pad = "\n" + "    ".repeat(depth + 1);
      var s = "(";
      if (i in topOf) s += '<span class="' + mark(marks, topOf[i]) + '" title="top">' + vspan(i) + "</span>";
      else s += vspan(i);
      if (g.c[i] !== null) s += ' / <span class="' + mark(marks, E.inst(i)) + '" title="instance">' + esc(g.c[i]) + "</span>";
      ch[i].forEach(function (c) {
        if (c.attr !== undefined) {
          var a = g.a[c.attr];
          s += pad + '<span class="' + mark(marks, c.el) + '" title="attribute">:' + esc(a[1]) + " " + esc(constant(a)) + "</span>";
        } else {
          var e = g.e[c.edge];
          s += pad + '<span class="' + mark(marks, c.el) + '" title="relation">:' + esc(e[1]) + "</span> ";
          s += seen[c.to] ? vspan(c.to) : node(c.to, depth + 1);
        }
      });
      return s + ")";
    }
    roots(g).forEach(function (r) { if (!seen[r]) out.push(node(r, 0)); });
    for (var i = 0; i < g.v.length; i++) if (!seen[i]) out.push(node(i, 0));
    return out.join("\n\n");
  }

  function textWidth(s, px) { return Math.max(18, s.length * px + 14); }

  function drawGraph(g, marks, side) {
    var E = elements(g), boxes = [], nodeBox = g.v.map(function () { return null; });
    var nextFree = [], GAP = 12, LAYER = 66, H = 24;
    var treeEdge = {}, seen = g.v.map(function () { return false; });
    // a node's slot is as wide as its box and the label of the edge into it
    function slot(b) { return Math.max(b.w, b.role ? b.role.length * 6.2 + 16 : 0); }
    function place(b) {
      var d = b.depth, w = slot(b);
      if (nextFree[d] === undefined) nextFree[d] = 8;
      if (!b.kids.length) b.x = nextFree[d] + w / 2;
      else b.x = (b.kids[0].x + b.kids[b.kids.length - 1].x) / 2;
      if (b.x - w / 2 < nextFree[d]) shift(b, nextFree[d] - (b.x - w / 2));
      nextFree[d] = b.x + w / 2 + GAP;
    }
    function shift(b, dx) {
      b.x += dx;
      b.kids.forEach(function (k) { shift(k, dx); });
      if (b.kids.length) b.kids.forEach(function (k) {
        nextFree[k.depth] = Math.max(nextFree[k.depth] || 0, k.x + slot(k) / 2 + GAP);
      });
    }
    // the spanning tree: forward edges from the tops first (an AMR graph is drawn as written),
    // then nodes that only point into it hang below their target by a turned edge (EDS
    // quantifiers, DM, PSD), then what is left starts new roots
    var fwd = children(g), tkids = g.v.map(function () { return []; }), order = [];
    function dfs(i) {
      seen[i] = true;
      fwd[i].forEach(function (c) {
        if (c.attr !== undefined) tkids[i].push(c);
        else if (!seen[c.to]) { treeEdge[c.edge] = true; tkids[i].push(c); dfs(c.to); }
      });
    }
    function hang() {
      for (var grew = true; grew;) {
        grew = false;
        g.e.forEach(function (e, j) {
          if (!seen[e[0]] && seen[e[2]]) {
            treeEdge[j] = true;
            tkids[e[2]].push({edge: j, el: E.edge(j), to: e[0], rev: true});
            dfs(e[0]);
            grew = true;
          }
        });
      }
    }
    roots(g).forEach(function (r) { if (!seen[r]) { order.push(r); dfs(r); } });
    hang();
    for (var i = 0; i < g.v.length; i++) if (!seen[i]) { order.push(i); dfs(i); hang(); }
    function build(i, depth, role) {
      var label = g.c[i] === null ? g.v[i] : g.c[i];
      var b = {node: i, depth: depth, w: textWidth(label, 6.6) + g.v[i].length * 5.6 + 4, label: label, kids: [], role: role};
      nodeBox[i] = b;
      boxes.push(b);
      tkids[i].forEach(function (c) {
        if (c.attr !== undefined) {
          var a = g.a[c.attr];
          var k = {attr: c.attr, el: c.el, depth: depth + 1, w: textWidth(constant(a), 6.6), label: constant(a), kids: [], parentEl: c.el, role: a[1]};
          boxes.push(k);
          b.kids.push(k);
          place(k);
        } else {
          var kb = build(c.to, depth + 1, g.e[c.edge][1]);
          kb.parentEl = c.el; kb.rev = !!c.rev;
          b.kids.push(kb);
        }
      });
      place(b);
      return b;
    }
    order.forEach(function (r) { build(r, 0); });
    var maxX = 0, maxD = 0;
    boxes.forEach(function (b) { maxX = Math.max(maxX, b.x + b.w / 2); maxD = Math.max(maxD, b.depth); });
    var W = Math.ceil(maxX + 10), HT = (maxD + 1) * LAYER + 10;
    function y(b) { return 14 + b.depth * LAYER; }
    var parts = [], labels = [];
    var mk = "ah-" + side;
    parts.push('<defs><marker id="' + mk + '1" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#1a7f37"/></marker>' +
      '<marker id="' + mk + '0" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#cf222e"/></marker></defs>');
    function edgeLabel(x, yy, text, m) {
      var w = text.length * 5.9 + 6;
      labels.push('<rect class="el-bg" x="' + (x - w / 2).toFixed(1) + '" y="' + (yy - 8).toFixed(1) + '" width="' + w.toFixed(1) + '" height="14" rx="3"/>' +
        '<text class="el ' + m + '" x="' + x.toFixed(1) + '" y="' + (yy + 3).toFixed(1) + '" text-anchor="middle">' + esc(text) + "</text>");
    }
    function arrow(m) { return m === "m1" ? ' marker-end="url(#' + mk + '1)"' : m === "m0" ? ' marker-end="url(#' + mk + '0)"' : ""; }
    boxes.forEach(function (b) {
      b.kids.forEach(function (k) {
        var m = mark(marks, k.parentEl), x1 = b.x, y1 = y(b) + H, x2 = k.x, y2 = y(k);
        var d = k.rev ? "M" + x2.toFixed(1) + " " + y2.toFixed(1) + "L" + x1.toFixed(1) + " " + y1.toFixed(1)
                      : "M" + x1.toFixed(1) + " " + y1.toFixed(1) + "L" + x2.toFixed(1) + " " + y2.toFixed(1);
        parts.push('<path class="e ' + m + '" d="' + d + '"' + arrow(m) + "/>");
        edgeLabel(x1 + (x2 - x1) * 0.62, y1 + (y2 - y1) * 0.62, ":" + k.role, m);
      });
    });
    g.e.forEach(function (e, j) {  // re-entrancies: curved
      if (treeEdge[j]) return;
      var a = nodeBox[e[0]], b = nodeBox[e[2]], m = mark(marks, E.edge(j));
      if (!a || !b) return;
      var x1 = a.x + a.w / 2, y1 = y(a) + H / 2, x2 = b.x + (b.x >= a.x ? -b.w / 2 : b.w / 2), y2 = y(b) + H / 2;
      if (a === b) { x2 = a.x + a.w / 2; y2 = y(a) + H - 2; }
      var cx = Math.max(x1, x2) + 40 + 10 * Math.abs(a.depth - b.depth), cy = (y1 + y2) / 2;
      parts.push('<path class="e ' + m + '" d="M' + x1.toFixed(1) + " " + y1.toFixed(1) + "Q" + cx.toFixed(1) + " " + cy.toFixed(1) + " " + x2.toFixed(1) + " " + y2.toFixed(1) + '"' + arrow(m) + "/>");
      edgeLabel((x1 + 2 * cx + x2) / 4, (y1 + y2) / 2, ":" + e[1], m);
      W = Math.max(W, Math.ceil(cx + 10));
    });
    var topSet = {};
    g.t.forEach(function (t, j) { topSet[t] = E.top(j); });
    boxes.forEach(function (b) {
      var x = (b.x - b.w / 2).toFixed(1), yy = y(b);
      if (b.node !== undefined) {
        var m = g.c[b.node] === null ? "" : mark(marks, E.inst(b.node));
        var tt = (b.node in topSet) ? " (top: " + (marks.charAt(topSet[b.node]) === "1" ? "matched" : "not matched") + ")" : "";
        parts.push('<g class="n ' + m + '" data-' + side + '="' + b.node + '"><title>' + esc(g.v[b.node] + " / " + b.label + tt) + "</title>" +
          '<rect x="' + x + '" y="' + yy + '" width="' + b.w.toFixed(1) + '" height="' + H + '" rx="' + (b.node in topSet ? 11 : 4) + '"/>' +
          '<text x="' + b.x.toFixed(1) + '" y="' + (yy + 16) + '" text-anchor="middle"><tspan class="var">' + esc(g.v[b.node]) + "</tspan> " + esc(b.label) + "</text></g>");
      } else {
        parts.push('<g class="n c ' + mark(marks, b.el) + '"><rect x="' + x + '" y="' + yy + '" width="' + b.w.toFixed(1) + '" height="' + H + '" rx="0"/>' +
          '<text x="' + b.x.toFixed(1) + '" y="' + (yy + 16) + '" text-anchor="middle">' + esc(b.label) + "</text></g>");
      }
    });
    var first = order.length ? nodeBox[order[0]] : null;
    return '<svg class="gsvg" data-root="' + (first ? first.x.toFixed(0) : 0) + '" xmlns="' + SVGNS + '" width="' + W + '" height="' + HT + '" viewBox="0 0 ' + W + " " + HT + '">' + parts.join("") + labels.join("") + "</svg>";
  }

  /* ------------------------------------------------------------ triples */
  function triples(g, marks) {
    // distinct Smatch triples of a graph view with their mark: [kind, text, mark]
    var E = elements(g), out = [], seen = {};
    function name(i) { return esc(g.v[i]) + (g.c[i] !== null ? "<small>/" + esc(g.c[i]) + "</small>" : ""); }
    function add(k, html, el) { if (!(k in seen)) { seen[k] = 1; out.push([html, marks.charAt(el)]); } }
    var mrp = D.family === "mrp";
    g.c.forEach(function (c, i) { if (c !== null) add("i" + i + c.toLowerCase(), esc(g.v[i]) + (mrp ? " :label " : " :instance ") + esc(c), E.inst(i)); });
    g.a.forEach(function (a, j) { add("a" + a[0] + ":" + a[1].toLowerCase() + " " + a[2].toLowerCase(), name(a[0]) + " :" + esc(a[1]) + " " + esc(constant(a)), E.attr(j)); });
    g.e.forEach(function (e, j) {
      var s = e[3] ? e[2] : e[0], t = e[3] ? e[0] : e[2], r = e.length > 4 ? e[4] : (e[3] ? e[1].slice(0, -3) : e[1]);
      add("r" + s + ":" + r.toLowerCase() + ":" + t, name(s) + " :" + esc(r) + " " + name(t), E.edge(j));
    });
    g.t.forEach(function (t, j) { add("t" + t, "TOP :top " + name(t), E.top(j)); });
    if (g.x) g.x.forEach(function (x, i) {
      if (x) add("x" + i, name(i) + " :anchor " + x.map(function (a) { return "\u27e8" + a[0] + ":" + a[1] + "\u27e9"; }).join("") +
        (g.txt ? " <small>" + esc(x.map(function (a) { return g.txt.slice(a[0], a[1]); }).join(" ")) + "</small>" : ""), E.anchor(i));
    });
    return out;
  }

  /* ------------------------------------------------------------ anchors on the sentence */
  function anchored(g, marks) {
    // the sentence with every anchored character marked: green when every node anchored there
    // has its anchor matched, red when one has not; the title lists the nodes
    if (!g.txt || !g.x) return "";
    var E = elements(g), n = g.txt.length, who = [], state = [];
    for (var c = 0; c < n; c++) { who.push([]); state.push(""); }
    g.x.forEach(function (x, i) {
      if (!x) return;
      var m = mark(marks, E.anchor(i));
      x.forEach(function (a) {
        for (var c = Math.max(0, a[0]); c < Math.min(n, a[1]); c++) {
          who[c].push(g.v[i] + (g.c[i] !== null ? "/" + g.c[i] : ""));
          if (state[c] !== "m0") state[c] = m;
        }
      });
    });
    var out = [], c0 = 0;
    for (c = 1; c <= n; c++) {
      if (c === n || state[c] !== state[c0] || who[c].join() !== who[c0].join()) {
        var text = esc(g.txt.slice(c0, c));
        out.push(state[c0] || who[c0].length ? '<span class="' + state[c0] + '" title="' + esc(who[c0].join(", ")) + '">' + text + "</span>" : text);
        c0 = c;
      }
    }
    return '<p class="anchors">' + out.join("") + "</p>";
  }

  /* ------------------------------------------------------------ the pair view */
  function open(i) {
    if (i < 0 || i >= P.length) return;
    if (location.hash !== "#pair-" + (i + 1)) history.replaceState(null, "", "#pair-" + (i + 1));
    show(i);
  }
  function show(i) {
    state.pair = i;
    var p = P[i], k = Math.min(state.sys, NS - 1), s = p.s[k], mk = p.k[k], m = p.m[k], sc = p.sc[k];
    var v = $("pairview");
    var h = [];
    h.push('<div class="pv-head"><h2>Pair ' + (i + 1) + (p.id ? " \u00b7 " + esc(p.id) : "") + "</h2><div>" +
      '<button class="b" id="pv-prev"' + (i === 0 ? " disabled" : "") + ">\u2190 previous</button> " +
      '<button class="b" id="pv-next"' + (i === P.length - 1 ? " disabled" : "") + ">next \u2192</button> " +
      '<button class="b" id="pv-close">back to the table</button></div></div>');
    if (p.snt) h.push('<p class="pv-snt">' + esc(p.snt) + "</p>");
    if (NS > 1) {
      h.push('<div class="tabs" id="pv-tabs">');
      D.names.forEach(function (n, j) { h.push('<button data-sys="' + j + '" class="' + (j === k ? "on" : "") + '">' + esc(n) + " " + fmt(p.sc[j][5]) + "</button>"); });
      h.push("</div>");
    }
    var cert = sc[3] ? '<span class="yes">certified optimal (' + esc(sc[4]) + ")</span>" : '<span class="no">not certified (' + esc(sc[4]) + "; upper bound " + sc[6] + " matched)</span>";
    h.push('<p class="pv-score">' + esc(D.metric) + ' of <b>' + esc(D.names[k]) + "</b>: F1 <b>" + fmt(sc[5]) + "</b> \u00b7 " + sc[0] + " matched of " + sc[1] + " gold and " + sc[2] + " system " + UNIT + "s \u00b7 " + cert + "</p>");
    h.push('<div class="key"><span><b class="k1">matched</b> ' + UNIT + ' under the alignment</span><span><b class="k0">unmatched</b> ' + UNIT + ' (missed in gold, extra in system)</span><span>hover a variable or node to see its image</span></div>');
    var empty = '<p class="note">no system graph for this item: scored as empty</p>';
    h.push('<div class="sides"><div class="side"><h3>gold <span>' + esc(D.gold) + "</span></h3>" + anchored(p.g, mk[0]) +
      '<pre class="penman" id="pv-gold">' + penman(p.g, mk[0], "g") + "</pre>" +
      '<div class="gwrap">' + drawGraph(p.g, mk[0], "g") + "</div></div>" +
      '<div class="side"><h3>system <span>' + esc(D.names[k]) + "</span></h3>" + (s.v.length ? anchored(s, mk[1]) +
      '<pre class="penman" id="pv-sys">' + penman(s, mk[1], "s") + "</pre>" +
      '<div class="gwrap">' + drawGraph(s, mk[1], "s") + "</div>" : empty) + "</div></div>");
    var gt = triples(p.g, mk[0]), st = triples(s, mk[1]);
    var miss = gt.filter(function (t) { return t[1] === "0"; }), extra = st.filter(function (t) { return t[1] === "0"; });
    var gm = gt.filter(function (t) { return t[1] === "1"; });
    function list(cls, title, items) {
      return '<div class="' + cls + '"><h3>' + title + " (" + items.length + ')</h3><ul id="pv-' + cls + '">' +
        items.map(function (t) { return "<li>" + t[0] + "</li>"; }).join("") + "</ul></div>";
    }
    h.push('<div class="triples">' + list("missed", "Missed: in gold only", miss) + list("extra", "Extra: in system only", extra) +
      list("matched", "Matched (gold side)", gm) + "</div>");
    h.push("<h3>Variable mapping (gold \u2192 system)</h3><table class=\"t map\"><tbody>");
    var rows = [];
    p.g.v.forEach(function (gv, gi) {
      var j = m[gi];
      rows.push('<tr><td class="l">' + esc(gv) + " / " + esc(p.g.c[gi] === null ? "" : p.g.c[gi]) + '</td><td>\u2192</td><td class="l">' +
        (j >= 0 ? esc(s.v[j]) + " / " + esc(s.c[j] === null ? "" : s.c[j]) : '<span class="no">unmapped</span>') + "</td></tr>");
    });
    h.push(rows.join("") + "</tbody></table>");
    v.innerHTML = h.join("");
    v.hidden = false;
    var wraps = v.querySelectorAll(".gwrap");  // a wide drawing opens on its root
    for (var w = 0; w < wraps.length; w++) {
      var sv = wraps[w].querySelector("svg");
      if (sv) wraps[w].scrollLeft = Math.max(0, +sv.getAttribute("data-root") - wraps[w].clientWidth / 2);
    }
    $("pv-close").addEventListener("click", function () { v.hidden = true; history.replaceState(null, "", "#pairs-section"); $("pairs-section").scrollIntoView(); });
    $("pv-prev").addEventListener("click", function () { open(i - 1); });
    $("pv-next").addEventListener("click", function () { open(i + 1); });
    if (NS > 1) $("pv-tabs").addEventListener("click", function (ev) {
      var b = ev.target.closest("button"); if (b) { state.sys = +b.getAttribute("data-sys"); show(i); }
    });
    v.onmouseover = function (ev) { hover(ev, p, m, true); };
    v.onmouseout = function (ev) { hover(ev, p, m, false); };
    v.scrollIntoView();
  }
  function hover(ev, p, m, on) {
    var el = ev.target.closest && ev.target.closest("[data-g],[data-s]");
    if (!el) return;
    var gi = el.getAttribute("data-g"), si = el.getAttribute("data-s");
    if (gi === null) { si = +si; gi = m.indexOf(si); } else { gi = +gi; si = m[gi]; }
    var sel = [];
    if (gi >= 0) sel.push('[data-g="' + gi + '"]');
    if (si >= 0) sel.push('[data-s="' + si + '"]');
    if (!sel.length) return;
    var els = $("pairview").querySelectorAll(sel.join(","));
    for (var x = 0; x < els.length; x++) els[x].classList.toggle("hl", on);
  }
  function fromHash() {
    var mm = /^#pair-(\d+)$/.exec(location.hash);
    if (mm) show(+mm[1] - 1);
  }
  window.addEventListener("hashchange", fromHash);
  setupTable();
  fromHash();
  window.mrkitReport = {open: open, pairs: P.length};
})();
