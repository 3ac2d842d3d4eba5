/* The talu board's drawing, shared by the game page (games/talu.js), the rules page's diagrams
 * (diagrams.js), the lessons (lessons.js) and the review (review.js): one grid of square
 * buttons, the coordinates outside it (so no mark ever covers them, issue 24 finding 8), and
 * an SVG layer for a turn's path and captures. Plain JS, no build step: window.Talu.
 */
(function () {
  "use strict";
  var T = window.Talu = window.Talu || {};

  function fileName(i) { return String.fromCharCode(65 + i); }
  function squareName(f, r) { return fileName(f) + (r + 1); }
  function parseSquare(sq) { return [sq.charCodeAt(0) - 65, parseInt(sq.slice(1), 10) - 1]; }
  function esc(t) { return String(t).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); }
  function set(list) { var o = {}; (list || []).forEach(function (x) { o[x] = true; }); return o; }
  // "I" is a side and a pronoun: people read light and dark; I and O stay in notation (R1, R15).
  function sideName(s) { return s === "I" ? "light" : s === "O" ? "dark" : ""; }
  function other(s) { return s === "I" ? "O" : "I"; }

  /* One turn's STGN body (R15) as paths and captured squares: "B2-B3 C4xD5-D6" gives
   * paths [[B2,B3],[C4,D5,D6]] and captures [D5]; "." (a pass) gives nothing. */
  function parseTurn(body) {
    var out = {paths: [], captures: [], passed: false};
    (body || "").trim().split(/\s+/).forEach(function (act) {
      if (!act || act === "!") return;
      if (act === ".") { out.passed = true; return; }
      var x = act.indexOf("x");
      if (x > 0) {
        var rest = act.slice(x + 1).split("-");
        out.captures.push(rest[0]);
        out.paths.push([act.slice(0, x)].concat(rest));
      } else {
        out.paths.push(act.split("-"));
      }
    });
    return out;
  }
  /* A notation line "003 O: body !" as {label, side, body}. */
  function parseLine(line) {
    var m = /^(\d{3,}) ([IO]): (.*?)( !)?$/.exec(line || "");
    return m ? {label: m[1] + " " + m[2], round: +m[1], side: m[2], body: m[3]} : null;
  }

  /* A board drawn into ``el`` (an empty element): flip turns it for dark (own home row at the
   * bottom: dark sees rank 1 at the top with files mirrored). */
  function BoardView(el, opts) {
    opts = opts || {};
    this.el = el;
    this.flip = !!opts.flip;
    this.built = null;
    this.cells = {};
    this.rows = [];
  }
  BoardView.prototype.layout = function (files, ranks) {
    var rows = [];
    for (var y = 0; y < ranks; y++) {
      var row = [];
      for (var x = 0; x < files; x++) {
        var f = this.flip ? files - 1 - x : x;
        var r = this.flip ? y : ranks - 1 - y;
        row.push(squareName(f, r));
      }
      rows.push(row);
    }
    return rows;
  };
  BoardView.prototype.build = function (files, ranks) {
    var key = files + "x" + ranks + (this.flip ? "f" : "");
    if (this.built === key) return false;
    this.built = key;
    this.files = files; this.ranks = ranks;
    var el = this.el, self = this;
    el.innerHTML = "";
    el.classList.add("board");
    el.style.setProperty("--files", files);
    el.dataset.files = files;
    this.cells = {};
    var rows = this.rows = this.layout(files, ranks);
    rows.forEach(function (row, y) {
      var tr = document.createElement("div");
      tr.className = "row";
      tr.setAttribute("role", "row");
      row.forEach(function (sq, x) {
        var fr = parseSquare(sq);
        var b = document.createElement("button");
        b.type = "button";
        b.className = "sq " + ((fr[0] + fr[1]) % 2 === 0 ? "light" : "dark"); // R1: A1 light
        b.dataset.square = sq;
        b.setAttribute("role", "gridcell");
        b.tabIndex = -1;
        b.dataset.x = x; b.dataset.y = y;
        tr.appendChild(b);
        self.cells[sq] = b;
      });
      el.appendChild(tr);
    });
    // Coordinates beside the grid, never on a square (finding 8).
    var frame = el.parentNode;
    if (frame && frame.classList.contains("board-frame")) {
      Array.prototype.slice.call(frame.querySelectorAll(".coords")).forEach(function (c) { c.remove(); });
      var rk = document.createElement("div");
      rk.className = "coords ranks";
      rk.setAttribute("aria-hidden", "true");
      rk.style.setProperty("--ranks", ranks);
      rows.forEach(function (row) { var s = document.createElement("span"); s.textContent = row[0].slice(1); rk.appendChild(s); });
      var fl = document.createElement("div");
      fl.className = "coords files";
      fl.setAttribute("aria-hidden", "true");
      fl.style.setProperty("--files", files);
      rows[rows.length - 1].forEach(function (sq) { var s = document.createElement("span"); s.textContent = sq[0]; fl.appendChild(s); });
      frame.insertBefore(rk, el);
      frame.appendChild(fl);
    }
    var svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "path-layer");
    svg.setAttribute("viewBox", "0 0 " + files + " " + ranks);
    svg.setAttribute("aria-hidden", "true");
    el.insertBefore(svg, el.firstChild); // first: the last child stays the bottom row
    this.svg = svg;
    return true;
  };
  /* Draw pieces ({square: "I"|"O"}) and, per square, extra classes and label words from
   * ``decorate(square, piece)`` -> {cls: [...], label: "..."}. */
  BoardView.prototype.draw = function (pieces, decorate) {
    var cells = this.cells;
    Object.keys(cells).forEach(function (sq) {
      var b = cells[sq];
      var p = pieces[sq] || "";
      var d = decorate ? decorate(sq, p) || {} : {};
      var cls = ["sq", b.classList.contains("light") ? "light" : "dark"];
      if (p) cls.push("has-" + p);
      b.className = cls.concat(d.cls || []).join(" ");
      b.dataset.piece = p;
      var html = p ? '<span class="piece piece-' + p + '" aria-hidden="true"></span>' : "";
      if (b.dataset.html !== html) { b.innerHTML = html; b.dataset.html = html; }
      b.setAttribute("aria-label", sq + (p ? ", " + sideName(p) + " piece" : ", empty") + (d.label || ""));
    });
  };
  BoardView.prototype.center = function (sq) {
    var b = this.cells[sq];
    return b ? [+b.dataset.x + 0.5, +b.dataset.y + 0.5] : null;
  };
  /* Paths and captures of turns on the SVG layer: ``layers`` is a list of
   * {paths, captures, side, cls}; the captured pieces are drawn as crossed ghosts. */
  BoardView.prototype.showTurns = function (layers) {
    var svg = this.svg, self = this;
    if (!svg) return;
    var ns = "http://www.w3.org/2000/svg";
    svg.innerHTML = "";
    (layers || []).forEach(function (layer) {
      if (!layer) return;
      var g = document.createElementNS(ns, "g");
      g.setAttribute("class", "turn-path " + (layer.cls || "") + " side-" + (layer.side || ""));
      layer.paths.forEach(function (path) {
        var pts = path.map(function (sq) { return self.center(sq); }).filter(Boolean);
        if (pts.length < 2) return;
        var pl = document.createElementNS(ns, "polyline");
        pl.setAttribute("points", pts.map(function (p) { return p.join(","); }).join(" "));
        pl.setAttribute("class", "route");
        g.appendChild(pl);
        var end = pts[pts.length - 1];
        var c = document.createElementNS(ns, "circle");
        c.setAttribute("cx", end[0]); c.setAttribute("cy", end[1]); c.setAttribute("r", 0.12);
        c.setAttribute("class", "route-end");
        g.appendChild(c);
      });
      layer.captures.forEach(function (sq) {
        var p = self.center(sq);
        if (!p) return;
        var ghost = document.createElementNS(ns, "circle");
        ghost.setAttribute("cx", p[0]); ghost.setAttribute("cy", p[1]); ghost.setAttribute("r", 0.3);
        ghost.setAttribute("class", "ghost ghost-" + other(layer.side || "I"));
        g.appendChild(ghost);
        [[-1, -1, 1, 1], [-1, 1, 1, -1]].forEach(function (d) {
          var l = document.createElementNS(ns, "line");
          l.setAttribute("x1", p[0] + d[0] * 0.22); l.setAttribute("y1", p[1] + d[1] * 0.22);
          l.setAttribute("x2", p[0] + d[2] * 0.22); l.setAttribute("y2", p[1] + d[3] * 0.22);
          l.setAttribute("class", "cross");
          g.appendChild(l);
        });
      });
      svg.appendChild(g);
    });
    // Squares the last turn touched, for tests and for those who read the board's classes.
    Object.keys(this.cells).forEach(function (sq) {
      self.cells[sq].classList.remove("last-path", "last-capture");
    });
    (layers || []).forEach(function (layer) {
      if (!layer || layer.cls !== "last") return;
      layer.paths.forEach(function (path) { path.forEach(function (sq) { if (self.cells[sq]) self.cells[sq].classList.add("last-path"); }); });
      layer.captures.forEach(function (sq) { if (self.cells[sq]) self.cells[sq].classList.add("last-capture"); });
    });
  };

  // A clock's time left (ms) as the board and the arbiter's console show it (R36): "4:05",
  // "1:02:03", "8.4" under ten seconds of a live clock, "2d 5h" from a day on.
  function clockText(ms, control) {
    if (ms >= 86400000) {
      var d = Math.floor(ms / 86400000), h = Math.floor(ms % 86400000 / 3600000);
      return d + "d " + h + "h";
    }
    var t = Math.ceil(ms / 1000);
    if (ms < 10000 && String(control).indexOf("correspondence") !== 0) return (ms / 1000).toFixed(1);
    var hh = Math.floor(t / 3600), mm = Math.floor(t % 3600 / 60), ss = t % 60;
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return (hh ? hh + ":" + two(mm) : mm) + ":" + two(ss);
  }
  // The same words as play.games.clock.amount_text: "2 minutes", "90 seconds", "3 days" (an
  // arbiter's add_time, R39).
  function amountText(seconds) {
    var units = [["day", 86400], ["hour", 3600], ["minute", 60]];
    for (var i = 0; i < units.length; i++) {
      var size = units[i][1];
      if (seconds >= size && seconds % size === 0) {
        var n = seconds / size;
        return n + " " + units[i][0] + (n !== 1 ? "s" : "");
      }
    }
    return seconds + " second" + (seconds !== 1 ? "s" : "");
  }

  T.BoardView = BoardView;
  T.clockText = clockText;
  T.amountText = amountText;
  T.parseTurn = parseTurn;
  T.parseLine = parseLine;
  T.sideName = sideName;
  T.other = other;
  T.esc = esc;
  T.set = set;
  T.sq = {fileName: fileName, squareName: squareName, parseSquare: parseSquare};
  T.piecesOf = function (board) {
    var p = {};
    (board.I || []).forEach(function (q) { p[q] = "I"; });
    (board.O || []).forEach(function (q) { p[q] = "O"; });
    return p;
  };
})();
