/* A tafl or Tablut lesson (issue 42): a one-move puzzle on the game's board, every step
 * checked by the rules on the server (learn/<slug>/try.json: play.games.tafl.lessons), whose
 * sentence is shown when the learner goes wrong. The client keeps the accepted steps and sends
 * them all each time: the server keeps nothing. Drawn by tafl-board.js, as the game page is.
 */
(function () {
  "use strict";
  var B = window.Talu.taflBoard;
  var $ = function (id) { return document.getElementById(id); };
  var root = $("lesson");
  if (!root) return;
  var init = JSON.parse($("lesson-data").textContent);
  var st = {state: init.state, steps: [], selected: null, busy: false, done: false};
  var grid = new B.Grid($("board"));
  var goal = B.set(init.targets);

  function render() {
    var v = st.state, moves = st.done ? {} : v.legal || {};
    grid.build(v.size);
    var dests = B.set(st.selected ? moves[st.selected] : []);
    var choices = B.set(!st.done && v.remove ? v.remove.choices : []);
    var camps = B.set(v.camps), raichi = B.set(v.raichi);
    var last = v.last, path = last ? B.set([last.from, last.to]) : {}, caught = B.set(last ? last.captured : []);
    Object.keys(grid.cells).forEach(function (sq) {
      var cls = [], label = "";
      if (sq === v.throne) { cls.push("throne"); label += ", the throne"; }
      if (camps[sq]) { cls.push("camp"); label += ", a camp"; }
      if (goal[sq]) { cls.push("mark-goal"); label += ", the lesson's target"; }
      if (path[sq]) cls.push("last-path");
      if (caught[sq]) { cls.push("last-capture"); label += ", captured"; }
      if ((moves[sq] || []).length) cls.push("movable");
      if (st.selected === sq) cls.push("selected");
      if (dests[sq]) { cls.push("dest"); label += ", move here"; }
      if (choices[sq]) { cls.push("target"); label += ", remove this piece"; }
      if (raichi[sq]) { cls.push("raichi"); label += ", the king's way out"; }
      B.drawSquare(grid.cells[sq], sq, v.pieces[sq] || "", cls, label);
    });
    var first = grid.cells[B.squareName(0, 0)];
    if (first) first.tabIndex = 0;
    root.dataset.steps = st.steps.length;
  }

  function say(text, cls) {
    var m = $("lesson-msg");
    m.textContent = text;
    m.className = "lesson-msg " + (cls || "");
    root.dataset.result = cls || "";
  }

  function attempt(step) {
    if (st.busy || st.done) return;
    st.busy = true;
    var steps = st.steps.concat([step]);
    fetch(root.dataset.tryUrl + "?steps=" + encodeURIComponent(JSON.stringify(steps)), {credentials: "same-origin"})
      .then(function (r) { return r.json(); })
      .then(function (d) {
        st.busy = false;
        st.selected = null;
        if (d.error) { say(d.error, "wrong"); render(); return; }
        st.steps = d.steps;
        st.state = d.state;
        if (d.solved) { st.done = true; say(d.message, "solved"); $("lesson-next").hidden = false; }
        else if (d.over) { st.done = true; say(d.message, "over"); }
        else say(d.state.remove ? "Now click the piece of the enclosed group to remove (T8)." : "", "");
        render();
      })
      .catch(function () { st.busy = false; say("The server did not answer: try again.", "wrong"); });
  }

  function activate(sq) {
    if (st.done || st.busy) return;
    var v = st.state, moves = v.legal || {};
    if (v.remove) {
      if (v.remove.choices.indexOf(sq) >= 0) { attempt({remove: sq}); return; }
      attempt({remove: sq});  // the rules say why not
      return;
    }
    if (st.selected && (moves[st.selected] || []).indexOf(sq) >= 0) { attempt({move: st.selected + "-" + sq}); return; }
    if (st.selected === sq) { st.selected = null; render(); return; }
    if ((moves[sq] || []).length) { st.selected = sq; say("", ""); render(); return; }
    if (st.selected) { attempt({move: st.selected + "-" + sq}); return; }  // the rules say why not
    say(v.pieces[sq] ? "That piece is not one you can move here: you play the " + init.side + "." :
      "Choose one of your pieces first.", "wrong");
  }

  $("board").addEventListener("click", function (e) {
    var b = e.target.closest(".sq");
    if (b) activate(b.dataset.square);
  });
  window.Talu.arrowKeys($("board"));  // static/play/gridkeys.js
  $("lesson-reset").addEventListener("click", function () {
    st = {state: init.state, steps: [], selected: null, busy: false, done: false};
    $("lesson-next").hidden = true;
    say("", "");
    render();
  });
  render();
})();
