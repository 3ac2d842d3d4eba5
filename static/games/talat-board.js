/* Talat's three boards (shared/RULINGS-TALAT.md A1-A2), drawn for the game page's renderer
 * (talat.js), the rules' diagrams and the lesson: three 5x5 grids in a triangle, each from the
 * viewer's side (A1: on board XY row 1 is X's start line, row 5 Y's): the viewer's two boards
 * at the bottom with the viewer's start lines nearest, the board between the two others at
 * the top, turned so each of them has their start line on their side. A spectator sees the
 * game from seat 1. Towers are told apart without colour alone (A2): the shape is the tower's
 * (a triangle, a square, a hexagon), its size the height (small, medium, large), and the seat's
 * number (or Z, the two-seat game's Zihin, A11) is written on it.
 * Plain JS, no build step: window.Talu.talatBoard.
 */
(function () {
  "use strict";
  var T = window.Talu = window.Talu || {};

  var FILES = "abcde";
  var HEIGHT = {S: "small", M: "medium", L: "large"};
  var SHAPE = {"3": "triangle", "4": "square", "6": "hexagon"};
  var SCALE = {S: 0.56, M: 0.76, L: 0.96};
  var POINTS = {  // each shape in a 100x100 box, centred at 50,50 with radius 46
    "3": [[50, 6], [94, 86], [6, 86]],
    "4": [[12, 12], [88, 12], [88, 88], [12, 88]],
    "6": [[27, 10], [73, 10], [96, 50], [73, 90], [27, 90], [4, 50]]
  };

  function set(list) { var o = {}; (list || []).forEach(function (x) { o[x] = true; }); return o; }

  /* "2:M6" -> {seat: "2", height: "M", sides: "6"} */
  function readTower(name) {
    var i = name.indexOf(":");
    return {seat: name.slice(0, i), height: name.charAt(i + 1), sides: name.charAt(i + 2)};
  }

  function towerWords(name) {
    var t = readTower(name);
    return (t.seat === "Z" ? "Zihin's" : "seat " + t.seat + "'s") + " " + HEIGHT[t.height] + " " +
      SHAPE[t.sides] + " (" + t.height + t.sides + ")";
  }

  /* A tower as an SVG: its shape, scaled by its height, with its seat written on it. */
  function towerSvg(name, extraClass) {
    var t = readTower(name), k = SCALE[t.height] || 0.76;
    var pts = (POINTS[t.sides] || POINTS["4"]).map(function (p) {
      return (50 + (p[0] - 50) * k).toFixed(1) + "," + (50 + (p[1] - 50) * k).toFixed(1);
    }).join(" ");
    var y = t.sides === "3" ? 50 + 14 * k : 50;
    return '<svg class="talat-tower seat-' + t.seat + " h-" + t.height + (extraClass ? " " + extraClass : "") +
      '" viewBox="0 0 100 100" aria-hidden="true"><polygon points="' + pts + '"/>' +
      '<text x="50" y="' + y.toFixed(1) + '" dominant-baseline="central" text-anchor="middle" font-size="' +
      Math.round(30 * k + 8) + '">' + t.seat + "</text></svg>";
  }

  /* The seats around the table from the viewer's chair: [viewer, next, previous]. */
  function around(seats, viewer) {
    var i = Math.max(0, seats.indexOf(viewer));
    return [seats[i], seats[(i + 1) % 3], seats[(i + 2) % 3]];
  }

  /* Where each board goes and how it is turned for ``viewer``: "left" (the viewer's board
   * with the next seat: its start line at the bottom), "right" (with the previous seat), "top"
   * (between the other two, the next seat's start line on the left). */
  function placement(boards, seats, viewer) {
    var s = around(seats, viewer), out = {};
    boards.forEach(function (b) {
      var x = b.slice(0, b.length / 2), y = b.slice(b.length / 2);
      if (x === s[0] && y === s[1]) out[b] = {spot: "left", turn: "x-near"};
      else if (y === s[0] && x === s[1]) out[b] = {spot: "left", turn: "y-near"};
      else if (x === s[0]) out[b] = {spot: "right", turn: "x-near"};
      else if (y === s[0]) out[b] = {spot: "right", turn: "y-near"};
      else out[b] = {spot: "top", turn: x === s[1] ? "x-left" : "y-left"};
    });
    return out;
  }

  /* The squares of one board in screen order (rows of five, top to bottom) for its turn. */
  function order(board, turn) {
    var rows = [];
    for (var r = 0; r < 5; r++) {
      var row = [];
      for (var c = 0; c < 5; c++) {
        var file, rank;
        if (turn === "x-near") { file = c; rank = 5 - r; }  // row 1 at the bottom
        else if (turn === "y-near") { file = 4 - c; rank = r + 1; }  // row 5 at the bottom
        else if (turn === "x-left") { file = r; rank = c + 1; }  // row 1 on the left
        else { file = 4 - r; rank = 5 - c; }  // row 5 on the left
        row.push(board + ":" + FILES.charAt(file) + rank);
      }
      rows.push(row);
    }
    return rows;
  }

  /* The three boards as grids of square buttons in ``el``; returns {cells: {square: button},
   * boxes: {board: element}}. Built again only when the viewer's seat or the boards change. */
  function Table(el) { this.el = el; this.key = ""; this.cells = {}; this.boxes = {}; }
  Table.prototype.build = function (boards, seats, viewer, names) {
    var key = boards.join() + "|" + seats.join() + "|" + viewer;
    if (key === this.key) return false;
    this.key = key;
    var el = this.el, cells = this.cells = {}, boxes = this.boxes = {};
    el.innerHTML = "";
    el.classList.add("talat-table");
    var where = placement(boards, seats, viewer);
    ["top", "left", "right"].forEach(function (spot) {
      var b = boards.filter(function (x) { return where[x].spot === spot; })[0];
      if (!b) return;
      var box = document.createElement("div");
      box.className = "talat-board-box spot-" + spot;
      box.dataset.board = b;
      var cap = document.createElement("div");
      cap.className = "talat-caption";
      cap.textContent = names ? names(b) : "board " + b;
      var grid = document.createElement("div");
      grid.className = "talat-board turn-" + where[b].turn;
      grid.dataset.board = b;
      grid.setAttribute("role", "grid");
      grid.setAttribute("aria-label", cap.textContent);
      order(b, where[b].turn).forEach(function (row, y) {
        var r = document.createElement("div");
        r.className = "row";
        r.setAttribute("role", "row");
        row.forEach(function (sq, x) {
          var btn = document.createElement("button");
          btn.type = "button";
          btn.className = "sq";
          btn.dataset.square = sq;
          btn.dataset.x = x; btn.dataset.y = y;
          btn.setAttribute("role", "gridcell");
          btn.tabIndex = -1;
          r.appendChild(btn);
          cells[sq] = btn;
        });
        grid.appendChild(r);
      });
      box.appendChild(cap);
      box.appendChild(grid);
      el.appendChild(box);
      boxes[b] = box;
    });
    return true;
  };

  /* Whose start line a square is on (A1), or "". */
  function startLineOf(sq) {
    var i = sq.indexOf(":"), b = sq.slice(0, i), rank = sq.charAt(i + 2);
    var x = b.slice(0, b.length / 2), y = b.slice(b.length / 2);
    return rank === "1" ? x : rank === "5" ? y : "";
  }

  /* One square: its tower and marks, and what a screen reader says. */
  function drawSquare(btn, sq, tower, cls, label) {
    var line = startLineOf(sq);
    var classes = ["sq"].concat(cls);
    if (line) classes.push("start-" + line);
    btn.className = classes.join(" ");
    var html = tower ? towerSvg(tower) : "";
    if (btn.dataset.html !== html) { btn.innerHTML = html; btn.dataset.html = html; }
    btn.dataset.tower = tower || "";
    btn.setAttribute("aria-label", sq + (tower ? ", " + towerWords(tower) : ", empty") +
      (line ? ", " + (line === "Z" ? "Zihin's" : "seat " + line + "'s") + " start line" : "") + label);
  }

  /* One board alone as a grid in ``el`` (the rules' diagrams, the lesson), turned as
   * ``turn`` says ("x-near": its first seat's start line at the bottom); {cells}. */
  function single(el, board, turn) {
    var cells = {};
    el.innerHTML = "";
    el.className = "talat-board turn-" + turn;
    order(board, turn).forEach(function (row, y) {
      var r = document.createElement("div");
      r.className = "row";
      row.forEach(function (sq, x) {
        var btn = document.createElement("button");
        btn.type = "button";
        btn.className = "sq";
        btn.dataset.square = sq;
        btn.dataset.x = x; btn.dataset.y = y;
        r.appendChild(btn);
        cells[sq] = btn;
      });
      el.appendChild(r);
    });
    return {cells: cells};
  }

  T.talatBoard = {Table: Table, single: single, drawSquare: drawSquare, towerSvg: towerSvg,
    towerWords: towerWords, readTower: readTower, placement: placement, set: set,
    HEIGHT: HEIGHT, SHAPE: SHAPE};
})();
