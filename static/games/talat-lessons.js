/* A Talat lesson (issue 37): a one-turn puzzle on board 12, every action checked by the rules
 * on the server (learn/<slug>/try.json: play.games.talat.lessons), whose sentence is shown when
 * the learner goes wrong. The server keeps nothing. Drawn by talat-board.js, as the game page.
 */
(function () {
  "use strict";
  var B = window.Talu.talatBoard;
  var $ = function (id) { return document.getElementById(id); };
  var root = $("lesson");
  if (!root) return;
  var init = JSON.parse($("lesson-data").textContent);
  var st = {state: init.state, selected: null, busy: false, done: false};
  var board = B.single($("board"), init.board, "x-near");
  var goal = B.set(init.targets);

  function byFrom() {
    var out = {};
    (st.done ? [] : st.state.legal || []).forEach(function (a) {
      var m = /^(\w+:[a-e][1-5])([-x])([a-e][1-5])$/.exec(a);
      if (m) (out[m[1]] = out[m[1]] || []).push({to: init.board + ":" + m[3], capture: m[2] === "x", text: a});
    });
    return out;
  }

  function render() {
    var v = st.state, from = byFrom(), dests = {};
    (st.selected ? from[st.selected] || [] : []).forEach(function (d) { dests[d.to] = d.capture ? "target" : "dest"; });
    var frozen = (v.frozen || []).indexOf(init.board) >= 0;
    $("board").parentNode.classList.toggle("frozen", frozen);
    Object.keys(board.cells).forEach(function (sq) {
      var cls = [], label = "";
      if (goal[sq] && !st.done) { cls.push("mark-goal"); label += ", the lesson's target"; }
      if (from[sq]) cls.push("movable");
      if (st.selected === sq) cls.push("selected");
      if (dests[sq] === "dest") { cls.push("dest"); label += ", move here"; }
      if (dests[sq] === "target") { cls.push("target"); label += ", capture this tower"; }
      B.drawSquare(board.cells[sq], sq, (v.towers || {})[sq] || "", cls, label + (frozen ? ", the board is frozen" : ""));
    });
    var first = board.cells[Object.keys(board.cells)[0]];
    if (first) first.tabIndex = 0;
  }

  function say(text, cls) {
    var m = $("lesson-msg");
    m.textContent = text;
    m.className = "lesson-msg " + (cls || "");
    root.dataset.result = cls || "";
  }

  function attempt(action) {
    if (st.busy || st.done) return;
    st.busy = true;
    fetch(root.dataset.tryUrl + "?steps=" + encodeURIComponent(JSON.stringify([{action: action}])), {credentials: "same-origin"})
      .then(function (r) { return r.json(); })
      .then(function (d) {
        st.busy = false;
        st.selected = null;
        if (d.error) { say(d.error, "wrong"); render(); return; }
        st.state = d.state;
        st.done = true;
        if (d.solved) { say(d.message, "solved"); $("lesson-next").hidden = false; }
        else say(d.message, "over");
        render();
      })
      .catch(function () { st.busy = false; say("The server did not answer: try again.", "wrong"); });
  }

  function activate(sq) {
    if (st.done || st.busy) return;
    var from = byFrom(), tower = (st.state.towers || {})[sq];
    if (st.selected) {
      var d = (from[st.selected] || []).filter(function (x) { return x.to === sq; })[0];
      if (d) { attempt(d.text); return; }
      if (st.selected === sq) { st.selected = null; render(); return; }
      if (!from[sq]) {  // the rules say why not
        attempt(st.selected + (tower ? "x" : "-") + sq.split(":")[1]);
        return;
      }
    }
    if (from[sq]) { st.selected = sq; say("", ""); render(); return; }
    say(tower ? (tower.charAt(0) === "1" ? "That tower has no move or capture here." :
      "That is not your tower: you play seat 1.") : "Choose one of your towers first.", "wrong");
  }

  $("board").addEventListener("click", function (e) {
    var b = e.target.closest(".sq");
    if (b) activate(b.dataset.square);
  });
  window.Talu.arrowKeys($("board"));  // static/play/gridkeys.js
  $("lesson-reset").addEventListener("click", function () {
    st = {state: init.state, selected: null, busy: false, done: false};
    $("lesson-next").hidden = true;
    say("", "");
    render();
  });
  render();
})();
