(function () {
  "use strict";
  const D = JSON.parse(document.getElementById("data").textContent);
  const NS = "http://www.w3.org/2000/svg";
  const board = document.getElementById("board");
  const select = document.getElementById("game");
  const list = document.getElementById("moves");
  let gi = 0, shown = 0;
  if (D.games.length === 0) { document.getElementById("pos").textContent = "no games"; return; }
  D.games.forEach(function (g, i) {
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = "game " + g.n + ": " + g.black + " – " + g.white + " " + g.result;
    select.appendChild(o);
  });
  function letter(i) { return i < 26 ? String.fromCharCode(97 + i) : String.fromCharCode(65 + i - 26); }
  function cell(p) { return letter(p[0]) + (p[1] + 1); }
  function svg(name, attrs, text) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function fillList() {
    const g = D.games[gi];
    list.replaceChildren();
    g.plies.forEach(function (p, i) {
      const li = document.createElement("li");
      const who = i % 2 === 0 ? "B" : "W";
      const said = p[3].length ? "  " + p[3].join("  ·  ") : "";
      li.textContent = who + " " + cell(p) + (i < g.open ? "  opening" : "  " + p[2] + " ms" + said);
      if (i < g.open) li.className = "opening";
      li.addEventListener("click", function () { go(i + 1); });
      list.appendChild(li);
    });
    document.getElementById("players").textContent =
      "game " + g.n + ": " + g.black + " (black) vs " + g.white + " (white), " + g.result + ", " + g.how +
      (g.detail ? " (" + g.detail + ")" : "");
  }
  function draw() {
    const g = D.games[gi], n = D.size, step = 24, pad = 26, span = step * (n - 1);
    board.setAttribute("viewBox", "0 0 " + (span + 2 * pad) + " " + (span + 2 * pad));
    board.replaceChildren();
    for (let i = 0; i < n; i++) {
      const at = pad + i * step;
      board.appendChild(svg("line", { x1: pad, x2: pad + span, y1: at, y2: at }));
      board.appendChild(svg("line", { y1: pad, y2: pad + span, x1: at, x2: at }));
      board.appendChild(svg("text", { x: at, y: pad - 12, "text-anchor": "middle", class: "label" }, letter(i)));
      board.appendChild(svg("text", { x: pad - 14, y: at + 3, "text-anchor": "middle", class: "label" }, String(i + 1)));
    }
    for (let i = 0; i < shown; i++) {
      const p = g.plies[i], c = i % 2 === 0 ? "b" : "w";
      const cx = pad + p[0] * step, cy = pad + p[1] * step;
      board.appendChild(svg("circle", { cx: cx, cy: cy, r: step * 0.45, class: "stone " + c,
        "data-x": p[0], "data-y": p[1], "data-n": i + 1 }));
      board.appendChild(svg("text", { x: cx, y: cy + 3, class: "num " + c }, String(i + 1)));
      if (i === shown - 1) board.appendChild(svg("circle", { cx: cx, cy: cy, r: step * 0.52, class: "lastmark" }));
    }
    board.setAttribute("data-game", g.n);
    board.setAttribute("data-move", shown);
    document.getElementById("pos").textContent = "stone " + shown + " / " + g.plies.length;
    Array.prototype.forEach.call(list.children, function (li, i) { li.classList.toggle("now", i === shown - 1); });
    const now = list.children[shown - 1];
    // Scroll the list only (scrollIntoView would move the whole page).
    if (now) list.scrollTop = now.offsetTop - list.clientHeight / 2;
    moveChart(g);
    const cur = document.getElementById("current");
    if (shown === 0) { cur.textContent = "empty board"; return; }
    const p = g.plies[shown - 1];
    cur.textContent = (shown % 2 === 1 ? "black " : "white ") + cell(p) +
      (shown <= g.open ? " (opening)" : ", " + p[2] + " ms" + (p[3].length ? "\n" + p[3].join("\n") : ""));
  }
  function moveChart(g) {
    const chart = document.getElementById("game-tt"), w = 560, h = 140, l = 34, r = 8, t = 8, b = 18;
    chart.setAttribute("viewBox", "0 0 " + w + " " + h);
    chart.replaceChildren();
    const n = Math.max(g.plies.length, 2);
    const px = function (i) { return l + (i - 1) / (n - 1) * (w - l - r); };
    const py = function (v) { return t + (1 - v / 100) * (h - t - b); };
    [0, 50, 100].forEach(function (v) {
      chart.appendChild(svg("line", { x1: l, x2: w - r, y1: py(v), y2: py(v), class: "grid" }));
      chart.appendChild(svg("text", { x: l - 4, y: py(v) + 4, "text-anchor": "end", class: "axis" }, v + "%"));
    });
    [0, 1].forEach(function (side) {
      const pts = [];
      g.plies.forEach(function (p, i) {
        if (i < g.open || i % 2 !== side) return;
        for (const m of p[3]) {
          const hit = /hit_rate=([0-9.]+)%/.exec(m);
          if (hit) { pts.push([i + 1, Number(hit[1])]); break; }
        }
      });
      if (pts.length > 1) chart.appendChild(svg("polyline", { points: pts.map(function (q) { return px(q[0]) + "," + py(q[1]); }).join(" "),
        fill: "none", stroke: side === 0 ? "#111" : "#888", "stroke-width": 1 }));
      pts.forEach(function (q) {
        chart.appendChild(svg("circle", { cx: px(q[0]), cy: py(q[1]), r: 2.5, class: "move-tt " + (side === 0 ? "b" : "w"),
          "data-n": q[0], "data-rate": q[1] }));
      });
    });
    if (shown > 0) chart.appendChild(svg("line", { x1: px(shown), x2: px(shown), y1: t, y2: h - b, class: "now" }));
  }
  function go(m) { shown = Math.max(0, Math.min(m, D.games[gi].plies.length)); draw(); }
  function pick(i) { gi = i; select.value = String(i); fillList(); }
  select.addEventListener("change", function () { pick(Number(select.value)); go(D.games[gi].plies.length); });
  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", function () { go(shown - 1); });
  document.getElementById("next").addEventListener("click", function () { go(shown + 1); });
  document.getElementById("last").addEventListener("click", function () { go(D.games[gi].plies.length); });
  document.addEventListener("keydown", function (e) {
    const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    if (keys[e.key] && e.target !== select) {
      document.getElementById(keys[e.key]).click();
      e.preventDefault();
    }
  });
  function fromFragment() {
    const q = new URLSearchParams(location.hash.slice(1));
    const n = Number(q.get("g"));
    const i = D.games.findIndex(function (g) { return g.n === n; });
    pick(i >= 0 ? i : 0);
    go(q.has("m") ? Number(q.get("m")) : D.games[gi].plies.length);
    (q.get("press") || "").split(",").filter(Boolean).forEach(function (k) {
      const b = document.getElementById(k);
      if (b && b.tagName === "BUTTON") b.click();
      else document.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
    });
  }
  window.addEventListener("hashchange", fromFragment);
  fromFragment();
})();
