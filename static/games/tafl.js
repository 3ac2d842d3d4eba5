/* The tafl games' board (tafl on every odd board, Tablut: shared/RULINGS-TAFL.md T1-T15) on
 * the game page: a renderer for the game client (static/play/client.js, its contract at the
 * top). It draws the server's view (play.games.tafl.protocol: pieces, the legal moves of the
 * seat to act, a T8 removal to choose, the last move and its captures, Tablut's throne, camps
 * and raichi/tuichi) and turns clicks, taps, drags and keys into the game's two commands:
 * {move: "e4-e7"} and, for T8, {remove: "f7"}. The server decides everything: a click that is
 * no legal move is explained in words, never silently dropped.
 * The board itself is drawn by tafl-board.js (shared with the rules' diagrams and the lessons).
 * Plain JS, no build step: window.TaluClient.
 */
(function () {
  "use strict";
  var T = window.Talu = window.Talu || {};
  var $ = function (id) { return document.getElementById(id); };

  var B = T.taflBoard;  // the drawing (static/games/tafl-board.js)
  var SEATS = {attackers: "attackers", defenders: "defenders"};
  var SIDE_OF = B.SIDE_OF, squareName = B.squareName, set = B.set, Grid = B.Grid, drawSquare = B.drawSquare;

  function mount(element, first, api) {
    var mySeat = api.seat;
    var st = {view: null, selected: null, focus: null, frame: false};
    var grid = new Grid(element);
    var off = [];
    function listen(el, type, fn) { el.addEventListener(type, fn); off.push([el, type, fn]); }

    function myTurn() { return !!st.view && api.mayAct() && !api.pending(); }
    function legal() { return myTurn() ? st.view.legal || {} : {}; }
    function removal() { return myTurn() ? st.view.remove : null; }

    function draw(v) {
      st.view = v;
      st.frame = false;
      if (st.selected && !(legal()[st.selected] || []).length) st.selected = null;
      if (grid.build(v.size)) {
        st.focus = squareName(0, 0);
        grid.cells[st.focus].tabIndex = 0;
      }
      paint(v.pieces, v.last, v);
      api.announce(announcement(v));
      var words = "";
      if (v.last) {
        words = "Last move: " + v.last.record + (v.last.captured && v.last.captured.length ?
          " · captured " + v.last.captured.join(", ") : "");
      }
      $("last-turn").textContent = words;
    }

    function paint(pieces, last, v) {
      var moves = legal(), dests = set(st.selected ? moves[st.selected] : []);
      var rm = removal(), choices = set(rm ? rm.choices : []);
      var enclosed = {};
      if (v.remove) v.remove.groups.forEach(function (g) { g.forEach(function (q) { enclosed[q] = true; }); });
      var camps = set(v.camps), raichi = set(v.raichi);
      var path = last ? set([last.from, last.to]) : {}, caught = set(last ? last.captured : []);
      Object.keys(grid.cells).forEach(function (sq) {
        var p = pieces[sq] || "", cls = [], label = "";
        if (sq === v.throne) { cls.push("throne"); label += ", the throne"; }
        else if (sq === v.centre && !v.throne) cls.push("centre");
        if (camps[sq]) { cls.push("camp"); label += ", a camp"; }
        if (path[sq]) cls.push("last-path");
        if (caught[sq]) { cls.push("last-capture"); label += ", captured last move"; }
        if (moves[sq] && moves[sq].length) cls.push("movable");
        if (st.selected === sq) cls.push("selected");
        if (dests[sq]) { cls.push("dest"); label += ", move here"; }
        if (enclosed[sq]) cls.push("enclosed");
        if (choices[sq]) { cls.push("target"); label += ", remove this piece"; }
        if (raichi[sq]) { cls.push("raichi"); label += ", the king's way out"; }
        drawSquare(grid.cells[sq], sq, p, cls, label);
      });
      if (grid.cells[st.focus]) grid.cells[st.focus].tabIndex = 0;
    }

    /* T8's choice and T11's warnings, in words above the controls. */
    function announcement(v) {
      if (v.result || v.outcome) return "";
      if (v.remove) {
        var mine = myTurn();
        return mine ? "Enclosed group (T8): click the piece of it to remove (ringed). The king goes last."
          : api.seatName(v.to_move) + " is choosing which enclosed piece to remove (T8).";
      }
      if (v.tuichi) return "Tuichi! The king has two ways to the edge (" + v.raichi.join(", ") + ").";
      if (v.raichi && v.raichi.length) return "Raichi! The king has a way to the edge (" + v.raichi.join(", ") + ").";
      return "";
    }

    /* A past position from the review (review.js): its pieces and its move, until "Now". */
    function showFrame(f) {
      st.frame = true;
      var keep = st.selected;
      st.selected = null;
      paint(f.pieces || {}, f.last || null, {camps: st.view.camps, throne: st.view.throne, centre: st.view.centre,
        raichi: f.raichi || [], remove: null});
      st.selected = keep;
      $("last-turn").textContent = "";
    }

    function send(step) {
      if (!myTurn()) return;
      st.selected = null;
      api.send({type: "step", step: step});
    }

    function activate(sq) {
      if (st.frame) return;
      var v = st.view;
      if (!myTurn()) { if (!api.pending()) explain(sq); return; }
      var rm = removal();
      if (rm) {
        if (rm.choices.indexOf(sq) >= 0) { send({remove: sq}); return; }
        api.refuse(v.pieces[sq] && rm.groups.some(function (g) { return g.indexOf(sq) >= 0; })
          ? "The king is removed last (T8): choose another piece of his group."
          : "Choose one of the ringed pieces of the enclosed group to remove (T8).");
        api.redraw();
        return;
      }
      var moves = legal();
      if (st.selected && (moves[st.selected] || []).indexOf(sq) >= 0) {
        send({move: st.selected + "-" + sq});
        return;
      }
      if (st.selected === sq) { st.selected = null; api.refuse(""); api.redraw(); return; }
      if ((moves[sq] || []).length) { st.selected = sq; api.refuse(""); api.redraw(); return; }
      explain(sq);
    }

    /* Why a click is no move, in the rules' words where the view can tell. */
    function explain(sq) {
      var v = st.view, p = v.pieces[sq];
      var text;
      if (v.result || v.outcome) text = "The game is over.";
      else if (!mySeat) text = "You are watching this game.";
      else if (!api.mayAct()) text = "It is " + api.seatName(v.to_move) + "'s turn.";
      else if (st.selected) {
        if (p && SIDE_OF[p] === mySeat) text = "That piece has no move: it is blocked on every side.";
        else text = st.selected + "-" + sq + " is not a move: a piece moves like a rook along a rank or a file, " +
          "over empty squares only" + (v.throne ? ", never onto the throne or a camp it may not enter (T5)" : "") + ".";
      } else if (p && SIDE_OF[p] !== mySeat) text = "That is one of your opponent's pieces: you play the " + mySeat + ".";
      else if (p) text = "That piece has no move: it is blocked on every side.";
      else text = "Choose one of your pieces first.";
      api.refuse(text);
      api.redraw();
    }

    // Clicks and taps; a drag from a piece to a square is a move too.
    var press = null;
    listen(element, "pointerdown", function (e) {
      var b = e.target.closest(".sq");
      press = b ? {sq: b.dataset.square, x: e.clientX, y: e.clientY} : null;
    });
    listen(document, "pointerup", function (e) {
      var p = press;
      press = null;
      if (!p || Math.abs(e.clientX - p.x) + Math.abs(e.clientY - p.y) <= 8) return;
      var el = document.elementFromPoint(e.clientX, e.clientY);
      var b = el && el.closest ? el.closest(".sq") : null;
      if (!b || b.dataset.square === p.sq || !myTurn()) return;
      if ((legal()[p.sq] || []).length) { st.selected = p.sq; activate(b.dataset.square); st.dragged = true; }
    });
    listen(element, "click", function (e) {
      if (st.dragged) { st.dragged = false; return; }
      var b = e.target.closest(".sq");
      if (!b) return;
      focusSquare(b.dataset.square);
      activate(b.dataset.square);
    });
    T.boardKeys(listen, element, st, function () { return grid.cells; },
                function () { api.redraw(); });  // static/play/gridkeys.js
    function focusSquare(sq) { T.focusSquare(st, grid.cells, sq); }

    // A move typed in OTN ("e4-e7", "Ke5-e8"; a removal "xf7"): keyboard play without the board.
    var form = $("tafl-move-form");
    if (form) {
      listen(form, "submit", function (e) {
        e.preventDefault();
        var input = $("tafl-move"), text = input.value.trim().replace(/^K/, "");
        if (!text) return;
        if (!myTurn()) { api.refuse(mySeat ? "It is not your turn." : "You are watching this game."); return; }
        var m = /^x?([a-s]\d{1,2})$/.exec(text);
        if (m && st.view.remove) { send({remove: m[1]}); input.value = ""; return; }
        m = /^([a-s]\d{1,2})-([a-s]\d{1,2})/.exec(text);
        if (!m) { api.refuse("Write a move as from-to, like e4-e7 (or xf7 to remove an enclosed piece)."); return; }
        send({move: m[1] + "-" + m[2]});
        input.value = "";
      });
    }

    draw(first);
    board = {
      update: draw,
      showFrame: showFrame,
      destroy: function () {
        off.forEach(function (x) { x[0].removeEventListener(x[1], x[2]); });
        off = [];
        element.innerHTML = "";
        var frame = element.parentNode;
        if (frame) Array.prototype.forEach.call(frame.querySelectorAll(".coords"), function (c) { c.remove(); });
      }
    };
  }
  var board = null;

  var renderer = {
    mount: mount,
    update: function (view) { if (board) board.update(view); },
    destroy: function () { if (board) board.destroy(); board = null; },
    showFrame: function (frame) { if (board) board.showFrame(frame); },
    seatName: function (seat) { return SEATS[seat] || ""; },
    confirmText: function (command) {
      var step = command.step || {};
      return step.move ? "Play " + step.move + "?" : step.remove ? "Remove the piece on " + step.remove + "?" : "";
    },
    // One line a move ("1. e4-e7", "1... d5-d8"), each a turn of the review (T12, T13).
    notation: function (view) {
      return (view.moves || []).map(function (m, i) {
        return (Math.floor(i / 2) + 1) + (i % 2 ? "... " : ". ") + m;
      });
    },
    toAct: function (view) { return view.to_move && !view.result ? [view.to_move] : []; }
  };
  window.TaluClient.register("tafl", renderer);
  window.TaluClient.register("tablut", renderer);
})();
