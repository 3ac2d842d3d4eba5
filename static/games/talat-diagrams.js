/* Talat's rules page diagrams (templates/learn/rules_talat.html, issue 37), drawn by the
 * Talat board (talat-board.js) from data attributes, so the page holds no script of its own
 * (the Content-Security-Policy forbids inline scripts):
 *   <figure class="diagram talat-diagram" data-board="12" data-towers='{"12:c3":"1:M6"}'
 *           data-marks='{"dest":["12:c4"],"target":["12:d4"]}'>
 * One board, from its first seat's side (row 1 at the bottom); data-marks names squares to
 * mark as the game page marks them (dots where a tower may go, a ring round a tower it may
 * capture, the selected tower, the last move). The squares are disabled buttons and the
 * drawing is hidden from screen readers: the caption says it in words.
 */
(function () {
  "use strict";
  var B = window.Talu && window.Talu.talatBoard;
  if (!B) return;
  var MARKS = ["dest", "selected", "target", "last-path"];

  Array.prototype.forEach.call(document.querySelectorAll("figure.talat-diagram"), function (fig) {
    var towers = JSON.parse(fig.dataset.towers || "{}");
    var marks = JSON.parse(fig.dataset.marks || "{}");
    var sets = {};
    MARKS.forEach(function (k) { sets[k] = B.set(marks[k]); });
    var box = document.createElement("div");
    box.className = "talat-board-box" + (fig.dataset.frozen === "yes" ? " frozen" : "");
    box.setAttribute("aria-hidden", "true");  // the caption says it in words
    var grid = document.createElement("div");
    box.appendChild(grid);
    fig.insertBefore(box, fig.firstChild);
    var board = B.single(grid, fig.dataset.board || "12", "x-near");
    Object.keys(board.cells).forEach(function (sq) {
      var cls = [];
      MARKS.forEach(function (k) { if (sets[k][sq]) cls.push(k); });
      B.drawSquare(board.cells[sq], sq, towers[sq] || "", cls, "");
      board.cells[sq].disabled = true;
    });
  });

  /* The towers of the page's legend and table: <span class="talat-icon" data-tower="1:S3"> */
  Array.prototype.forEach.call(document.querySelectorAll(".talat-icon[data-tower]"), function (el) {
    el.innerHTML = B.towerSvg(el.dataset.tower, "mini");
    el.setAttribute("aria-hidden", "true");
  });
})();
