/* Why a click or a drop does nothing: the board never refuses silently (issue 24, finding 2).
 *
 * A square that is not highlighted either asks the server (the step is sent; the rules core
 * refuses it with its own sentence, "A3 is not next to A1: ...", and nothing changes), or,
 * when no step is meant (nothing selected, an opponent's piece, not our turn), gets a sentence
 * from here. Used by games/talu.js and lessons.js. Plain JS: window.Talu.explainClick.
 */
(function () {
  "use strict";
  var T = window.Talu = window.Talu || {};

  /* What a click on ``sq`` means when it is not a highlighted step: {step} to send to the
   * rules core for its verdict, or {text} to show. ``ctx``: {state, side, selected, pieces}. */
  T.explainClick = function (ctx, sq) {
    var s = ctx.state, side = ctx.side, sel = ctx.selected;
    var piece = ctx.pieces[sq] || "";
    if (!s) return {text: ""};
    if (s.outcome) return {text: "The game is over: " + (s.outcome.text || "no more steps") + "."};
    if (!side) return {text: "You are watching this game."};
    if (s.side_to_move !== side) {
      return {text: "It is " + T.sideName(s.side_to_move) + "'s turn: wait for your opponent."};
    }
    var chainOpen = (s.legal_steps || []).some(function (x) { return x.kind === "exit" || x.kind === "stay"; });
    if (chainOpen && !piece) return {step: {kind: "exit", to: sq}};
    if (sel && sel !== sq) {
      if (piece === side) return {text: "The piece on " + sq + " has no legal step now" + why(s) + "."};
      return {step: {kind: piece ? "capture" : "move", from: sel, to: sq}};
    }
    if (!piece) return {text: "Select one of your (" + T.sideName(side) + ") pieces first, then a square marked with a dot."};
    if (piece !== side) {
      return {text: sq + " holds a " + T.sideName(piece) + " piece: to capture it, select one of your pieces next to it first."};
    }
    return {text: "The piece on " + sq + " has no legal step now" + why(s) + "."};
  };

  function why(s) {
    if (s.steps_left === 0) return ": no steps left this turn";
    if ((s.legal_steps || []).some(function (x) { return x.kind === "exit"; })) {
      return ": a capture is waiting for its exit (a diamond)";
    }
    return ": every square next to it is taken";
  }
})();
