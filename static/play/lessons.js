/* An interactive lesson (issue 24): a puzzle on the real board, every step checked by the
 * rules core on the server (learn/<slug>/try.json), whose sentence is shown when the learner
 * goes wrong. The client keeps the accepted steps and sends them all each time: the server
 * keeps nothing. */
(function () {
  "use strict";
  var T = window.Talu;
  var $ = function (id) { return document.getElementById(id); };
  var root = $("lesson");
  if (!root) return;
  var init = JSON.parse($("lesson-data").textContent);
  var st = {state: init.state, steps: [], selected: null, busy: false, done: false};
  var view = new T.BoardView($("board"), {flip: init.side === "O"});
  var tryUrl = root.dataset.tryUrl;

  function legal() { return st.done ? [] : st.state.legal_steps || []; }
  function stepsFrom(sq) {
    return legal().filter(function (s) { return (s.kind === "move" || s.kind === "capture") && s.from === sq; });
  }
  function exits() { return legal().filter(function (s) { return s.kind === "exit"; }); }

  function render() {
    var s = st.state;
    view.build(s.files, s.ranks);
    var dests = {}, targets = {}, ex = {}, movable = {}, goal = T.set(init.targets);
    if (st.selected) stepsFrom(st.selected).forEach(function (x) { (x.kind === "move" ? dests : targets)[x.to] = true; });
    exits().forEach(function (x) { ex[x.to] = true; });
    legal().forEach(function (x) { if (x.from) movable[x.from] = true; });
    view.draw(T.piecesOf(s.board), function (sq) {
      var cls = [], label = "";
      if (st.selected === sq) cls.push("selected");
      if (dests[sq]) { cls.push("dest"); label += ", move here"; }
      if (targets[sq]) { cls.push("target"); label += ", capture"; }
      if (ex[sq]) { cls.push("exit"); label += ", exit here"; }
      if (movable[sq]) cls.push("movable");
      if (goal[sq]) { cls.push("mark-range"); label += ", the lesson's target"; }
      return {cls: cls, label: label};
    });
    var first = view.rows[view.rows.length - 1][0];
    view.cells[first].tabIndex = 0;
    if (s.open_turn && s.open_turn.text) {
      var t = T.parseTurn(s.open_turn.text);
      t.side = init.side; t.cls = "current";
      view.showTurns([t]);
    } else view.showTurns([]);
    $("lesson-steps").textContent = "Steps used: " + s.steps_used + " of " + s.steps_per_turn +
      (s.open_turn && s.open_turn.text ? " · " + s.open_turn.text : "");
    $("lesson-end").disabled = st.done || !legal().some(function (x) { return x.kind === "end"; });
    $("lesson-stay").hidden = st.done || !legal().some(function (x) { return x.kind === "stay"; });
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
    fetch(tryUrl + "?steps=" + encodeURIComponent(JSON.stringify(steps)), {credentials: "same-origin"})
      .then(function (r) { return r.json(); })
      .then(function (d) {
        st.busy = false;
        st.selected = null;
        if (d.state) st.state = d.state;
        st.steps = d.steps || st.steps;
        if (d.error) say("Not allowed: " + d.error + ".", "refused");
        else if (d.solved) { st.done = true; say(d.message, "solved"); $("lesson-next").hidden = false; }
        else if (d.over) { st.done = true; say(d.message, "failed"); }
        else say("", "");
        render();
      }, function () { st.busy = false; say("The server could not be reached: try again.", "refused"); });
  }

  function activate(sq) {
    if (st.done) { say("Start again to try once more.", root.dataset.result); return; }
    var x = exits().filter(function (s) { return s.to === sq; })[0];
    if (x) { attempt(x); return; }
    if (st.selected) {
      var hit = stepsFrom(st.selected).filter(function (s) { return s.to === sq; })[0];
      if (hit) { attempt(hit); return; }
    }
    if (st.selected === sq) { st.selected = null; render(); return; }
    if (stepsFrom(sq).length) { st.selected = sq; say(""); render(); return; }
    var e = T.explainClick({state: st.state, side: init.side, selected: st.selected,
      pieces: T.piecesOf(st.state.board)}, sq);
    if (e.step) attempt(e.step); else { say(e.text, "refused"); render(); }
  }

  $("board").addEventListener("click", function (e) {
    var b = e.target.closest(".sq");
    if (b) activate(b.dataset.square);
  });
  window.Talu.arrowKeys($("board"));  // static/play/gridkeys.js
  $("lesson-end").addEventListener("click", function () { attempt({kind: "end"}); });
  $("lesson-stay").addEventListener("click", function () { attempt({kind: "stay"}); });
  $("lesson-reset").addEventListener("click", function () {
    st = {state: init.state, steps: [], selected: null, busy: false, done: false};
    say("");
    render();
  });
  render();
})();
