/* Moving between a board's squares with the arrow keys, for every board of the site (talu's,
 * the tafl games', Talat's, on the game page and in the lessons): the square an arrow key
 * leads to from the focused one, in the same grid (the nearest role="grid": Talat's three
 * boards are three grids), or null (not an arrow, or the edge). The caller moves the focus
 * as it keeps it. Loaded by templates/base.html; plain JS, no inline script (the CSP).
 */
(function () {
  "use strict";
  var T = window.Talu = window.Talu || {};
  var ARROWS = {ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0]};
  T.nextSquare = function (e) {
    var b = e.target.closest && e.target.closest(".sq"), d = ARROWS[e.key];
    if (!b || !d) return null;
    e.preventDefault();
    var grid = b.closest("[role=grid]") || b.parentNode.parentNode;
    return grid.querySelector('.sq[data-x="' + (+b.dataset.x + d[0]) + '"][data-y="' + (+b.dataset.y + d[1]) + '"]');
  };
  /* The roving tab stop of a game's board: square ``sq`` of ``cells`` (squares by name) takes
   * it, kept as ``st.focus``. */
  T.focusSquare = function (st, cells, sq) {
    if (st.focus && cells[st.focus]) cells[st.focus].tabIndex = -1;
    st.focus = sq;
    cells[sq].tabIndex = 0;
  };
  /* A game's board (the renderers'): Escape drops the selection, an arrow key moves the focus
   * and the tab stop. ``listen`` is the renderer's own (its listeners go when it is
   * destroyed); ``cells()`` its squares by name now; ``redraw()`` draws it again. */
  T.boardKeys = function (listen, element, st, cells, redraw) {
    listen(element, "keydown", function (e) {
      if (e.key === "Escape" && e.target.closest(".sq")) { st.selected = null; redraw(); return; }
      var next = T.nextSquare(e);
      if (next) { T.focusSquare(st, cells(), next.dataset.square); next.focus(); }
    });
  };
  /* The lessons' boards: the focus moves to that square, the roving tab stop with it. */
  T.arrowKeys = function (board) {
    board.addEventListener("keydown", function (e) {
      var next = T.nextSquare(e);
      if (next) { e.target.closest(".sq").tabIndex = -1; next.tabIndex = 0; next.focus(); }
    });
  };
})();
