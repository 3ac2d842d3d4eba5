/* The rules page's diagrams, drawn by the site's own board (boardview.js): each
 * <figure class="diagram"> names its pieces, marks and a turn in data attributes (JSON), so the
 * page holds no script of its own (the Content-Security-Policy forbids inline scripts). */
(function () {
  "use strict";
  var T = window.Talu;
  Array.prototype.forEach.call(document.querySelectorAll("figure.diagram"), function (fig) {
    var files = +(fig.dataset.files || 8), ranks = +(fig.dataset.ranks || 8);
    var pieces = JSON.parse(fig.dataset.pieces || "{}");
    var marks = JSON.parse(fig.dataset.marks || "{}");
    var frame = document.createElement("div");
    frame.className = "board-frame";
    frame.setAttribute("aria-hidden", "true"); // the caption says it in words
    var el = document.createElement("div");
    frame.appendChild(el);
    fig.insertBefore(frame, fig.firstChild);
    var view = new T.BoardView(el, {});
    view.build(files, ranks);
    var sets = {};
    Object.keys(marks).forEach(function (k) { sets[k] = T.set(marks[k]); });
    view.draw(T.piecesOf(pieces), function (sq) {
      var cls = [];
      Object.keys(sets).forEach(function (k) { if (sets[k][sq]) cls.push("mark-" + k); });
      return {cls: cls};
    });
    Object.keys(view.cells).forEach(function (sq) { view.cells[sq].disabled = true; });
    if (fig.dataset.turn) {
      var t = T.parseTurn(fig.dataset.turn);
      t.side = fig.dataset.side || "I";
      t.cls = "last";
      view.showTurns([t]);
    }
  });
})();
