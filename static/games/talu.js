/* Talu's board on the game page: a renderer for the game client (static/play/client.js, its
 * contract at the top). Draws the server's view with boardview.js (shared with the rules'
 * diagrams, the lessons and the review), highlights what the server's legal_steps allow,
 * and turns clicks, drags, taps and keys into talu's commands (step, end, pass) through
 * api.send. The server decides everything; a click that is no highlighted step is explained
 * (refusals.js), never silently dropped. Plain JS, no build step: window.TaluClient.
 */
(function () {
  "use strict";
  var T = window.Talu;
  var $ = function (id) { return document.getElementById(id); };

  // The same words as play.games.talu.protocol.describe: talu's own decisions (R14, R34).
  function decisionText(d) {
    var side = T.sideName(d.side), why = d.reason || "";
    if (d.action === "warn") return "Arbiter: " + side + " is warned for " + why;
    if (d.action === "count_as_pass") return "Arbiter: " + side + "'s turn " + d.turn + " counts as a pass (" + why + ")";
    return null;
  }

  function mount(element, first, api) {
    var mySide = api.seat;
    // overlaps shown from the start when the account asks for it (issue 39: data-overlaps)
    var marksOn = document.documentElement.dataset.overlaps === "on";
    var st = {state: null, selected: null, showMarks: marksOn, focus: null, frame: false};
    if (marksOn && $("show-marks")) { $("show-marks").checked = true; $("marks-legend").hidden = false; }
    var view = new T.BoardView(element, {flip: mySide === "O"});
    var cells = view.cells;
    var off = [];  // listeners on elements outside the board, removed by destroy
    function listen(el, type, fn) { el.addEventListener(type, fn); off.push([el, type, fn]); }

    // ------------------------------------------------------------------------------ geometry
    function buildBoard(files, ranks) {
      if (!view.build(files, ranks)) return;
      cells = view.cells;
      var rows = view.rows;
      var first = rows[rows.length - 1][0];
      st.focus = st.focus && cells[st.focus] ? st.focus : first;
      cells[st.focus].tabIndex = 0;
    }

    // ------------------------------------------------------------------------------ legality
    function myTurn() { return !!st.state && api.mayAct(); }
    function legal() { return myTurn() ? st.state.legal_steps : []; }
    function stepsFrom(sq) {
      return legal().filter(function (s) { return (s.kind === "move" || s.kind === "capture") && s.from === sq; });
    }
    function exits() { return legal().filter(function (s) { return s.kind === "exit"; }); }
    function hasKind(kind) { return legal().some(function (s) { return s.kind === kind; }); }

    // ------------------------------------------------------------------------------ drawing
    function draw(s) {
      st.state = s;
      st.frame = false;
      // (while a step is on its way the old view cannot tell: the choice waits for the new one)
      if (st.selected && !api.pending() && !stepsFrom(st.selected).length &&
          !exits().some(function (x) { return !x.from || x.from === st.selected; })) st.selected = null;
      buildBoard(s.files, s.ranks);
      var pieces = T.piecesOf(s.board);
      var dests = {}, targets = {}, exitSq = {}, movable = {};
      if (st.selected) {
        stepsFrom(st.selected).forEach(function (x) {
          if (x.kind === "move") dests[x.to] = x; else targets[x.to] = x;
        });
      }
      exits().forEach(function (x) { exitSq[x.to] = x; });
      legal().forEach(function (x) { if (x.from && (x.kind === "move" || x.kind === "capture")) movable[x.from] = true; });
      var marks = st.showMarks;
      var ovI = marks ? set(s.overlaps.I) : {}, ovO = marks ? set(s.overlaps.O) : {};
      var thr = marks ? set(s.threatened.I.concat(s.threatened.O)) : {};
      var honor = set(s.honor_targets || []);
      var inv = set((s.invaders.I || []).concat(s.invaders.O || []));
      view.draw(pieces, function (sq) {
        var cls = [], label = "";
        if (st.selected === sq) cls.push("selected");
        if (dests[sq]) { cls.push("dest"); label += ", move here"; }
        if (targets[sq]) { cls.push("target"); label += ", capture"; }
        if (exitSq[sq]) { cls.push("exit"); label += ", exit here"; }
        if (movable[sq]) cls.push("movable");
        if (ovI[sq]) cls.push("ov-I");
        if (ovO[sq]) cls.push("ov-O");
        if (thr[sq]) { cls.push("threatened"); label += ", threatened"; }
        if (honor[sq] || inv[sq]) cls.push("invader");
        if (honor[sq]) label += ", invader (honor rule)";
        return {cls: cls, label: label};
      });
      if (cells[st.focus]) cells[st.focus].tabIndex = 0;
      drawTurns(s);
      // talu's controls: the turn's counter and its buttons
      var mine = myTurn() && !api.pending();
      $("counter").textContent = s.outcome ? "" :
        "Round " + s.round + " · " + T.sideName(s.side_to_move) + " to move · step " + s.steps_used + "/" +
        s.steps_per_turn + " (" + s.steps_left + " left)";
      $("end-turn").disabled = !(mine && hasKind("end"));
      $("pass").disabled = !(mine && hasKind("pass"));
      $("stay").hidden = !(mine && hasKind("stay"));
      $("passes").textContent = s.outcome ? "" : passesText(s);
      api.announce(announcement(s));
    }

    /* The last finished turn's path and captures, and the turn in progress, on the board and
     * in words under it (finding 4: an opponent's capture no longer just makes a piece vanish;
     * on a phone the notation is below the fold). */
    function drawTurns(s) {
      var layers = [], words = "";
      var last = T.parseLine(s.notation.filter(function (l) { return l.charAt(0) !== "!"; }).slice(-1)[0]);
      if (last) {
        var t = T.parseTurn(last.body);
        t.side = last.side; t.cls = "last";
        layers.push(t);
        words = "Last turn, " + T.sideName(last.side) + ": " + (t.passed ? "passed" : last.body) +
          (t.captures.length ? " · captured " + t.captures.join(", ") : "");
      }
      if (!s.outcome && s.open_turn && s.open_turn.text) {
        var o = T.parseTurn(s.open_turn.text);
        o.side = s.side_to_move; o.cls = "current";
        layers.push(o);
        words += (words ? " · " : "") + "this turn: " + s.open_turn.text;
      }
      view.showTurns(layers);
      $("last-turn").textContent = words;
    }

    // The honor rule (R8, R10) and the non-engagement flag (R14), above the controls.
    function announcement(s) {
      if (!s.outcome && s.honor_targets && s.honor_targets.length) {
        var mover = s.side_to_move;
        return mover === mySide
          ? "Honor rule: the invader on " + s.honor_targets.join(", ") + " stands on your home row. Capture it this turn or lose by invasion."
          : "Honor rule: " + T.sideName(mover) + " must capture the invader on " + s.honor_targets.join(", ") + " this turn.";
      }
      if (!s.outcome && s.flagged) {
        return "Non-engagement: warned players' turns that neither capture, threaten nor advance now count as passes (R14).";
      }
      return "";
    }

    function passesText(s) {
      var p = s.passing;
      if (!p) return "";
      // R12 in words ("the game's last 0" read as nothing at all).
      return "Turns counted as passes in a row: light " + p.run.I + ", dark " + p.run.O +
        "; both sides together " + p.game_run + ". Three of one side's own in a row lose the game;" +
        " the game's last three turns all passes make it a null game.";
    }

    // A past position chosen in the review (review.js), until the live game returns.
    function showFrame(f) {
      st.frame = true;
      view.draw(T.piecesOf(f.board), function (sq) {
        var cls = [];
        if (st.showMarks) {
          if ((f.overlaps.I || []).indexOf(sq) >= 0) cls.push("ov-I");
          if ((f.overlaps.O || []).indexOf(sq) >= 0) cls.push("ov-O");
          if ((f.threatened || []).indexOf(sq) >= 0) cls.push("threatened");
        }
        return {cls: cls};
      });
      var t = f.body ? T.parseTurn(f.body) : null;
      if (t) { t.side = f.side; t.cls = "last"; }
      view.showTurns(t ? [t] : []);
      $("last-turn").textContent = ""; // the review's caption says it, just below
    }

    // ------------------------------------------------------------------------------ commands
    function sendAction(type, step) {
      if (!myTurn() || api.pending()) return;
      var m = {type: type};
      if (step) {
        m.step = {kind: step.kind};
        if (step.from) m.step.from = step.from;
        if (step.to) m.step.to = step.to;
      }
      // The piece stays chosen where it went (issue 39): its next square, or the next capture
      // of a chain, is one click away; draw drops the choice when it has no step from there.
      var follows = step && step.to && ["move", "capture", "exit"].indexOf(step.kind) >= 0;
      st.selected = follows ? step.to : null;
      st.followed = !!follows;  // chosen for the player: a click on it keeps it chosen
      api.send(m);
    }

    // ------------------------------------------------------------------------------ input
    function activate(sq) {
      if (st.frame) return;
      if (!myTurn() || api.pending()) { if (!api.pending()) explain(sq); return; }
      var ex = exits().filter(function (x) { return x.to === sq; })[0];
      if (ex) { carefulStep(ex); return; }
      if (st.selected) {
        var hit = stepsFrom(st.selected).filter(function (x) { return x.to === sq; })[0];
        if (hit) { carefulStep(hit); return; }
      }
      // A click on a piece the board kept chosen (after its step) is a player used to choosing
      // it again: it stays chosen; a second click lets it go.
      if (st.selected === sq && st.followed) { st.followed = false; api.refuse(""); api.redraw(); return; }
      if (st.selected === sq) { st.selected = null; api.redraw(); return; }
      if (stepsFrom(sq).length) { st.selected = sq; st.followed = false; api.refuse(""); api.redraw(); return; }
      explain(sq);
    }
    // Not a highlighted step: the rules core's verdict, or a sentence of refusals.js.
    function explain(sq) {
      var e = T.explainClick({state: st.state, side: mySide, selected: st.selected,
        pieces: T.piecesOf(st.state.board)}, sq);
      if (e.step) { sendAction("step", e.step); return; }
      api.refuse(e.text);
      api.redraw();
    }

    var drag = null, press = null, tapped = null, suppressClick = false;
    listen(element, "pointerdown", function (e) {
      var b = e.target.closest(".sq");
      press = b ? {sq: b.dataset.square, x: e.clientX, y: e.clientY} : null;
      drag = null;
      if (!b || !myTurn() || st.frame) return;
      if (stepsFrom(b.dataset.square).length) drag = {from: b.dataset.square, x: e.clientX, y: e.clientY};
    });
    listen(document, "pointercancel", function () { press = drag = null; });
    listen(document, "pointerup", function (e) {
      var p = press, d = drag;
      press = drag = null;
      var moved = !!p && Math.abs(e.clientX - p.x) + Math.abs(e.clientY - p.y) > 8;
      if (p && !moved && e.pointerType === "touch") {
        // A finger's tap is handled here, not by the click a browser may send after it:
        // Chromium sends none for a tap that follows a drag at once (finding 5, on a phone).
        tapped = {sq: p.sq, t: Date.now()};
        focusSquare(p.sq);
        activate(p.sq);
        return;
      }
      if (!d || !moved) return;
      // The click that follows this drag's release (if any: it lands on a common ancestor
      // when the pointer went down and up on different squares) is the drag's, not a new
      // click; it comes in this same task, so the flag is gone by the next click (finding 5:
      // the next click was swallowed).
      suppressClick = true;
      setTimeout(function () { suppressClick = false; }, 0);
      var el = document.elementFromPoint(e.clientX, e.clientY);
      var b = el && el.closest ? el.closest(".sq") : null;
      if (!b || b.dataset.square === d.from) return;
      st.selected = d.from;
      activate(b.dataset.square); // an illegal drop is explained, not just snapped back
    });
    listen(element, "click", function (e) {
      if (suppressClick) { suppressClick = false; return; }
      var b = e.target.closest(".sq");
      if (!b) return;
      var tap = tapped;
      tapped = null;
      if (tap && tap.sq === b.dataset.square && Date.now() - tap.t < 1000) return; // that tap's own click
      focusSquare(b.dataset.square);
      activate(b.dataset.square);
    });
    T.boardKeys(listen, element, st, function () { return cells; },
                function () { api.redraw(); });  // static/play/gridkeys.js
    function focusSquare(sq) { T.focusSquare(st, cells, sq); }

    // A pass or a stalling end that would lose or null the game asks first (finding 3, R12-R13).
    function confirmThen(text, action) {
      var d = $("confirm-pass");
      if (!text) { action(); return; }
      $("confirm-pass-text").textContent = text;
      d.onclose = function () { if (d.returnValue === "yes") action(); };
      d.showModal();
    }
    function consequence(what, would) {
      if (would === "forfeit") return what + " would be your third turn in a row counting as a pass: you would lose the game by forfeit.";
      if (would === "null") return what + " would make three turns in a row counting as passes: the game would end as a null game, with no winner.";
      return "";
    }
    // A last step that ends the turn on an earlier position stalls (R9, R13): asked like a pass.
    function carefulStep(step) {
      var p = st.state && st.state.passing;
      var stalls = p && (p.stalling_last_steps || []).some(function (x) {
        return x.kind === step.kind && x.from === step.from && x.to === step.to;
      });
      var text = stalls ? consequence("This last step ends your turn on a position this game has had before. That is stalling: it counts as a pass and", p.pass_would) : "";
      confirmThen(text, function () { sendAction("step", step); });
    }
    listen($("end-turn"), "click", function () {
      var p = st.state && st.state.passing;
      var text = p && p.end_would ? consequence("Ending the turn here repeats an earlier position of this game. That is stalling: it counts as a pass and", p.end_would) : "";
      confirmThen(text, function () { sendAction("end"); });
    });
    listen($("pass"), "click", function () {
      var p = st.state && st.state.passing;
      confirmThen(consequence("This pass", p && p.pass_would), function () { sendAction("pass"); });
    });
    listen($("stay"), "click", function () { sendAction("step", {kind: "stay"}); });
    listen($("show-marks"), "change", function (e) {
      st.showMarks = e.target.checked;
      $("marks-legend").hidden = !st.showMarks; // what the corners and rings mean
      api.redraw();
    });

    draw(first);
    board = {
      update: function (s) { draw(s); },
      showFrame: showFrame,
      destroy: function () {
        off.forEach(function (x) { x[0].removeEventListener(x[1], x[2]); });
        off = [];
        element.innerHTML = "";
        var frame = element.parentNode;  // boardview.js's coordinates beside the grid
        if (frame) Array.prototype.forEach.call(frame.querySelectorAll(".coords"), function (c) { c.remove(); });
      }
    };
  }
  var set = T.set;
  var board = null;  // the page's one board, once mounted

  window.TaluClient.register("talu", {
    mount: mount,
    update: function (view, events) { if (board) board.update(view, events); },
    destroy: function () { if (board) board.destroy(); board = null; },
    showFrame: function (frame) { if (board) board.showFrame(frame); },
    seatName: T.sideName,
    decisionText: decisionText,
    // "confirm my moves": a talu turn is several steps; the end of it is the move to confirm
    confirmText: function (command) { return command.type === "end" ? "End your turn here?" : ""; }
  });
})();
