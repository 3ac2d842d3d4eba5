/* The tafl games' board drawing (tafl on every odd board and Tablut, shared/RULINGS-TAFL.md),
 * shared by the game page's renderer (tafl.js), the rules' diagrams and the lessons: a grid of
 * square buttons, rank 1 at the bottom as OTN names squares (T1), the coordinates outside the
 * grid, and one square's piece and marks. Pieces are told apart by shape as well as colour:
 * attackers are dark discs, defenders light discs, the king a light disc with a crown mark.
 * Also reads OTN positions ("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", T3) for diagrams.
 * Plain JS, no build step: window.Talu.taflBoard.
 */
(function () {
  "use strict";
  var T = window.Talu = window.Talu || {};

  var PIECE_WORDS = {t: "attacker", T: "defender", K: "king"};
  var SIDE_OF = {t: "attackers", T: "defenders", K: "defenders"};

  function fileName(i) { return String.fromCharCode(97 + i); }
  function squareName(f, r) { return fileName(f) + (r + 1); }
  function parseSquare(sq) { return [sq.charCodeAt(0) - 97, parseInt(sq.slice(1), 10) - 1]; }
  function set(list) { var o = {}; (list || []).forEach(function (x) { o[x] = true; }); return o; }

  /* The board's squares as buttons in rows, rank 1 at the bottom (OTN, T1), with the
   * coordinates outside the grid as talu's board has them. */
  function Grid(el) { this.el = el; this.size = 0; this.cells = {}; }
  Grid.prototype.build = function (n) {
    if (this.size === n) return false;
    var el = this.el, cells = this.cells = {};
    this.size = n;
    el.innerHTML = "";
    el.classList.add("board", "tafl-board");
    el.style.setProperty("--files", n);
    el.dataset.files = n;
    for (var y = 0; y < n; y++) {
      var row = document.createElement("div");
      row.className = "row";
      row.setAttribute("role", "row");
      for (var x = 0; x < n; x++) {
        var sq = squareName(x, n - 1 - y);
        var b = document.createElement("button");
        b.type = "button";
        b.className = "sq";
        b.dataset.square = sq;
        b.dataset.x = x; b.dataset.y = y;
        b.setAttribute("role", "gridcell");
        b.tabIndex = -1;
        row.appendChild(b);
        cells[sq] = b;
      }
      el.appendChild(row);
    }
    var frame = el.parentNode;
    if (frame && frame.classList.contains("board-frame")) {
      Array.prototype.slice.call(frame.querySelectorAll(".coords")).forEach(function (c) { c.remove(); });
      var rk = document.createElement("div");
      rk.className = "coords ranks";
      rk.setAttribute("aria-hidden", "true");
      rk.style.setProperty("--ranks", n);
      var fl = document.createElement("div");
      fl.className = "coords files";
      fl.setAttribute("aria-hidden", "true");
      fl.style.setProperty("--files", n);
      for (var i = 0; i < n; i++) {
        var r = document.createElement("span"); r.textContent = String(n - i); rk.appendChild(r);
        var f = document.createElement("span"); f.textContent = fileName(i); fl.appendChild(f);
      }
      frame.insertBefore(rk, el);
      frame.appendChild(fl);
    }
    return true;
  };

  /* What a square's piece and marks look like; the words a screen reader says. */
  function drawSquare(b, sq, piece, cls, label) {
    b.className = ["sq"].concat(cls).join(" ");
    b.dataset.piece = piece || "";
    var html = piece ? '<span class="piece tafl-' + (piece === "t" ? "a" : piece === "T" ? "d" : "k") + '" aria-hidden="true"></span>' : "";
    if (b.dataset.html !== html) { b.innerHTML = html; b.dataset.html = html; }
    b.setAttribute("aria-label", sq + (piece ? ", " + PIECE_WORDS[piece] : ", empty") + label);
  }

  /* An OTN position ("/3t3/.../", ranks from the top) as {square: letter}, and its size. */
  function readPosition(otn) {
    var rows = otn.replace(/^\/|\/$/g, "").split("/"), n = rows.length, pieces = {};
    rows.forEach(function (row, i) {
      var file = 0, digits = "";
      for (var j = 0; j <= row.length; j++) {
        var c = row.charAt(j);
        if (c >= "0" && c <= "9") { digits += c; continue; }
        if (digits) { file += +digits; digits = ""; }
        if (!c) break;
        pieces[squareName(file, n - 1 - i)] = c;
        file += 1;
      }
    });
    return {size: n, pieces: pieces};
  }

  T.taflBoard = {Grid: Grid, drawSquare: drawSquare, squareName: squareName, parseSquare: parseSquare,
    fileName: fileName, set: set, readPosition: readPosition, SIDE_OF: SIDE_OF, PIECE_WORDS: PIECE_WORDS};
})();
