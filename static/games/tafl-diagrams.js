/* The tafl rules pages' diagrams (templates/learn/rules_tafl.html and rules_tablut.html,
 * issue 42), drawn by the tafl board (tafl-board.js) from data attributes, so the pages hold no
 * script of their own (the Content-Security-Policy forbids inline scripts):
 *   <figure class="diagram tafl-diagram" data-otn="/3t3/.../" data-marks='{"dest":["d3"]}'
 *           data-tablut="1">
 * data-otn is the position (OTN, T3), data-marks names squares to mark (the game page's own
 * marks: dots where a piece may go, a ring, the last move, a capture's cross, the king's way
 * out, an enclosed group), data-tablut marks Tablut's throne and camps (T5); without it the
 * centre is shaded as the tafl game page shades it. The squares are disabled buttons and the
 * drawing is hidden from screen readers: the caption says it in words.
 */
(function () {
  "use strict";
  var B = window.Talu && window.Talu.taflBoard;
  if (!B) return;
  /* The marks a diagram may name: the game page's classes (tafl.js, site.css). */
  var MARKS = ["dest", "selected", "target", "last-path", "last-capture", "raichi", "enclosed"];
  /* Tablut's camps, where the attackers start (T5). */
  var CAMPS = B.set(["d1", "e1", "f1", "e2", "a4", "a5", "a6", "b5",
                     "i4", "i5", "i6", "h5", "d9", "e9", "f9", "e8"]);

  Array.prototype.forEach.call(document.querySelectorAll("figure.tafl-diagram"), function (fig) {
    var pos = B.readPosition(fig.dataset.otn || "");
    var marks = JSON.parse(fig.dataset.marks || "{}");
    var tablut = fig.dataset.tablut === "1";
    var sets = {};
    MARKS.forEach(function (k) { sets[k] = B.set(marks[k]); });
    var frame = document.createElement("div");
    frame.className = "board-frame";
    frame.setAttribute("aria-hidden", "true"); // the caption says it in words
    var el = document.createElement("div");
    frame.appendChild(el);
    fig.insertBefore(frame, fig.firstChild);
    var grid = new B.Grid(el);
    grid.build(pos.size);
    var mid = (pos.size - 1) / 2, centre = B.squareName(mid, mid);
    Object.keys(grid.cells).forEach(function (sq) {
      var cls = [];
      if (sq === centre) cls.push(tablut ? "throne" : "centre");
      if (tablut && CAMPS[sq]) cls.push("camp");
      MARKS.forEach(function (k) { if (sets[k][sq]) cls.push(k); });
      B.drawSquare(grid.cells[sq], sq, pos.pieces[sq], cls, "");
      grid.cells[sq].disabled = true;
    });
  });
})();
