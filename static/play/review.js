/* Review: step through any game, finished or live, turn by turn and step by step (issue 24).
 *
 * The positions come from the server (review.json: every frame replayed by the rules core);
 * the board of the game page shows the chosen one (client.js: Talu.game.showFrame, drawn by the
 * game's renderer) until "back to the game". The notation is clickable: a turn's line jumps to
 * the position after it.
 */
(function () {
  "use strict";
  var T = window.Talu = window.Talu || {};
  var $ = function (id) { return document.getElementById(id); };
  var root = $("game");
  if (!root) return;
  var rv = {data: null, cur: -1, active: false, loading: null};

  function load() {
    var version = +root.dataset.version;
    if (rv.data && rv.data.version >= version) return Promise.resolve(rv.data);
    if (rv.loading) return rv.loading;
    rv.loading = fetch(root.dataset.reviewUrl, {credentials: "same-origin"})
      .then(function (r) { return r.json(); })
      .then(function (d) { rv.data = d; rv.loading = null; return d; },
        function () { rv.loading = null; return rv.data; });
    return rv.loading;
  }
  function ends(d) { return [0].concat(d.turns.map(function (t) { return t.last; })); }

  function show(i) {
    var d = rv.data;
    if (!d || !d.frames.length) return;
    if (i >= d.frames.length) { live(); return; }
    rv.cur = Math.max(0, i);
    rv.active = true;
    var f = d.frames[rv.cur];
    T.game.showFrame(f);
    $("rv-caption").textContent = "Reviewing: " + f.caption + " (position " + rv.cur + " of " + (d.frames.length - 1) + ")";
    root.dataset.reviewFrame = rv.cur;
    mark();
    buttons();
  }
  // Forward and "Now" mean something only in a review: off while the board is the game's
  // (they did nothing there, without a word).
  function buttons() {
    ["rv-next", "rv-next-turn", "rv-live"].forEach(function (id) { $(id).disabled = !rv.active; });
  }
  function live() {
    rv.active = false;
    rv.cur = -1;
    root.dataset.reviewFrame = "";
    $("rv-caption").textContent = "";
    T.game.live();
    mark();
    buttons();
  }
  function from() { return rv.active ? rv.cur : rv.data.frames.length - 1; }
  function go(where) {
    load().then(function (d) {
      if (!d) return;
      var n = d.frames.length - 1, cur = from(), e = ends(d);
      if (where === "start") show(0);
      else if (where === "prev") show(cur - 1);
      else if (where === "next") { if (rv.active) show(cur + 1); }
      else if (where === "live") live();
      else if (where === "prev-turn") {
        var p = e.filter(function (x) { return x < cur; });
        show(p.length ? p[p.length - 1] : 0);
      } else if (where === "next-turn") {
        if (!rv.active) return;
        var q = e.filter(function (x) { return x > cur; });
        if (q.length && q[0] <= n) show(q[0]); else live();
      } else if (typeof where === "number") show(d.turns[where] ? d.turns[where].last : n);
    });
  }

  // The notation as buttons, one per finished turn (a finished game's result line after).
  T.renderNotation = function (s) {
    var pre = $("stgn");
    var lines = T.notationLines(s);
    var key = lines.join("|") + "#" + (s.open_turn ? s.open_turn.text : "") + (s.outcome ? "!" : "");
    if (pre.dataset.key === key) return;
    pre.dataset.key = key;
    pre.innerHTML = "";
    var turn = 0;
    lines.forEach(function (line, i) {
      if (i) pre.appendChild(document.createTextNode("\n"));
      if (T.lineIsTurn(line)) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "mv";
        b.dataset.turn = turn++;
        b.textContent = line;
        pre.appendChild(b);
      } else {
        pre.appendChild(document.createTextNode(line));
      }
    });
    if (!s.outcome && s.open_turn && s.open_turn.text) {
      if (lines.length) pre.appendChild(document.createTextNode("\n"));
      var r = String(s.round);
      while (r.length < 3) r = "0" + r;
      pre.appendChild(document.createTextNode(r + " " + s.side_to_move + ": " + s.open_turn.text + " …"));
    }
    mark();
  };
  function mark() {
    var d = rv.data;
    Array.prototype.forEach.call($("stgn").querySelectorAll(".mv"), function (b) {
      var t = d && d.turns[+b.dataset.turn];
      var on = rv.active && t && rv.cur >= t.first && rv.cur <= t.last;
      if (on) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
    });
  }

  $("stgn").addEventListener("click", function (e) {
    var b = e.target.closest(".mv");
    if (!b) return;
    go(+b.dataset.turn);
    // On a phone the notation is far below the board: show the board the click changed.
    var r = $("board").getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) $("board").scrollIntoView({block: "center"});
  });
  $("rv-start").addEventListener("click", function () { go("start"); });
  $("rv-prev").addEventListener("click", function () { go("prev"); });
  $("rv-next").addEventListener("click", function () { go("next"); });
  $("rv-prev-turn").addEventListener("click", function () { go("prev-turn"); });
  $("rv-next-turn").addEventListener("click", function () { go("next-turn"); });
  $("rv-live").addEventListener("click", function () { go("live"); });
  buttons();
  $("review").addEventListener("keydown", function (e) {
    if (e.key === "ArrowLeft") { e.preventDefault(); go("prev"); }
    if (e.key === "ArrowRight") { e.preventDefault(); go("next"); }
  });
})();
