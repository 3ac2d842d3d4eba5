/* Talat on the game page (shared/RULINGS-TALAT.md A1-A12): a renderer for the game client
 * (static/play/client.js, its contract at the top) for three seats, or two and Zihin (A11).
 * It draws the server's view (play.games.talat.protocol: towers by square, each seat's towers
 * still to place, scores, captured towers, frozen boards, the legal actions of the seat to act,
 * the last turn) and turns clicks, taps and keys into the game's one command, an A10 action:
 * {action: "@12:a1 M6"} (placing), {action: "12:b2-c3"} (moving), {action: "31:d4xd5"}
 * (capturing), {action: "pass"}. The server decides everything; a click that is no legal
 * action is explained in words.
 * The boards are drawn by talat-board.js (shared with the rules' diagrams and the lesson).
 * Plain JS, no build step: window.TaluClient.
 */
(function () {
  "use strict";
  var T = window.Talu = window.Talu || {};
  var $ = function (id) { return document.getElementById(id); };
  var B = T.talatBoard;

  function seatWords(seat) { return seat === "Z" ? "Zihin" : "seat " + seat; }

  /* The legal actions (A10 text) sorted for the board: placements by kind, moves and
   * captures by the square they start from. */
  function sortActions(list) {
    var out = {place: {}, from: {}, pass: false};
    (list || []).forEach(function (a) {
      var m = /^@(\w+:[a-e][1-5]) ([SML][346])$/.exec(a);
      if (m) { (out.place[m[2]] = out.place[m[2]] || []).push(m[1]); return; }
      m = /^(\w+):([a-e][1-5])([-x])([a-e][1-5])$/.exec(a);
      if (m) {
        var from = m[1] + ":" + m[2];
        (out.from[from] = out.from[from] || []).push({to: m[1] + ":" + m[4], capture: m[3] === "x", text: a});
        return;
      }
      if (a === "pass") out.pass = true;
    });
    return out;
  }

  function mount(element, first, api) {
    var mySeat = api.seat;
    var st = {view: null, selected: null, kind: null, focus: null, frame: false};
    var table = new B.Table(document.createElement("div"));
    var tray = document.createElement("div"), info = document.createElement("div");
    tray.className = "talat-tray"; info.className = "talat-info";
    tray.setAttribute("aria-label", "Towers to place");
    element.classList.add("talat");
    element.appendChild(table.el);
    element.appendChild(tray);
    element.appendChild(info);
    var off = [];
    function listen(el, type, fn) { el.addEventListener(type, fn); off.push([el, type, fn]); }

    function myTurn() { return !!st.view && api.mayAct() && !api.pending(); }
    function actions() { return sortActions(myTurn() ? st.view.legal : []); }

    function boardName(b) {
      var x = b.slice(0, b.length / 2), y = b.slice(b.length / 2);
      var frozen = st.view && (st.view.frozen || []).indexOf(b) >= 0;
      return "Board " + b + ": " + name(x) + " and " + name(y) + (frozen ? " · frozen (A7)" : "");
    }
    function name(seat) {
      if (seat === "Z") return "Zihin";
      return api.seatName(seat) || seatWords(seat);
    }

    function draw(v) {
      st.view = v;
      st.frame = false;
      var acts = actions();
      if (st.selected && !acts.from[st.selected]) st.selected = null;
      var kinds = Object.keys(acts.place);
      if (st.kind && kinds.indexOf(st.kind) < 0) st.kind = null;
      if (!st.kind && kinds.length) st.kind = kinds[0];
      var viewer = mySeat && v.seats.indexOf(mySeat) >= 0 ? mySeat : v.seats[0];
      if (table.build(v.boards, v.seats, viewer, boardName)) {
        st.focus = Object.keys(table.cells)[0];
        table.cells[st.focus].tabIndex = 0;
      }
      paint(v.towers || {}, v.last, v);
      drawTray(v, acts);
      drawInfo(v);
      api.announce(announcement(v, acts));
      $("last-turn").textContent = v.last ? "Last turn: " + v.last.line : "";
    }

    function lastSquares(last) {
      var out = {};
      if (!last) return out;
      var m = /(\w+):([a-e][1-5])(?:[-x]([a-e][1-5]))?/.exec(last.line);
      if (m) { out[m[1] + ":" + m[2]] = true; if (m[3]) out[m[1] + ":" + m[3]] = true; }
      return out;
    }

    function paint(towers, last, v) {
      var acts = actions(), frozen = B.set(v.frozen);
      var dests = {};
      if (st.selected) (acts.from[st.selected] || []).forEach(function (d) { dests[d.to] = d.capture ? "capture" : "move"; });
      var places = B.set(st.kind ? acts.place[st.kind] : []);
      var lastSq = lastSquares(last);
      Object.keys(table.boxes).forEach(function (b) {
        table.boxes[b].classList.toggle("frozen", !!frozen[b]);
        var cap = table.boxes[b].querySelector(".talat-caption");
        if (cap) cap.textContent = boardName(b);
      });
      Object.keys(table.cells).forEach(function (sq) {
        var cls = [], label = "";
        if (lastSq[sq]) cls.push("last-path");
        if (acts.from[sq]) cls.push("movable");
        if (st.selected === sq) cls.push("selected");
        if (dests[sq] === "move") { cls.push("dest"); label += ", move here"; }
        if (dests[sq] === "capture") { cls.push("target"); label += ", capture this tower"; }
        if (places[sq]) { cls.push("dest"); label += ", place the " + B.towerWords((mySeat || "") + ":" + st.kind).replace(/^seat \w+'s /, "") + " here"; }
        B.drawSquare(table.cells[sq], sq, towers[sq] || "", cls, label);
      });
      if (table.cells[st.focus]) table.cells[st.focus].tabIndex = 0;
    }

    /* The towers the seat placing now still holds (A3, A11: Zihin's, placed by the players),
     * as buttons: the chosen one is placed by clicking a dotted start square. */
    function drawTray(v, acts) {
      var kinds = Object.keys(acts.place), placing = v.placing;
      tray.hidden = v.phase !== "placement";
      if (tray.hidden) { tray.innerHTML = ""; return; }
      var whose = kinds.length ? zihinPlacing(acts) ? "Z" : mySeat : placing;
      var hand = (v.to_place || {})[whose] || [];
      var html = '<p class="talat-tray-title">' + (myTurn() && kinds.length ?
        (whose === "Z" ? "Place one of Zihin's towers (A11): choose it, then a dotted square." :
          "Place a tower (A3): choose it, then a dotted square of your start lines.") :
        cap(name(placing)) + " is placing a tower.") + "</p>";
      html += hand.map(function (k) {
        var chosen = k === st.kind && kinds.indexOf(k) >= 0;
        return '<button type="button" class="talat-kind' + (chosen ? " chosen" : "") + '" data-kind="' + k +
          '" aria-pressed="' + chosen + '"' + (kinds.indexOf(k) < 0 ? " disabled" : "") +
          ' aria-label="' + B.towerWords(whose + ":" + k) + '">' + B.towerSvg(whose + ":" + k) + "</button>";
      }).join("");
      tray.innerHTML = html;
    }
    function zihinPlacing(acts) {
      var any = Object.keys(acts.place).map(function (k) { return acts.place[k][0]; })[0] || "";
      return startOwner(any) === "Z";
    }
    function startOwner(sq) {
      var i = sq.indexOf(":"), b = sq.slice(0, i), rank = sq.charAt(i + 2);
      return rank === "1" ? b.slice(0, b.length / 2) : rank === "5" ? b.slice(b.length / 2) : "";
    }

    /* Scores, captured towers and who left (A6, A8). */
    function drawInfo(v) {
      var rows = (v.players || []).map(function (s) {
        var taken = ((v.captured || {})[s] || []).map(function (t) { return B.towerSvg(t, "mini"); }).join("");
        var left = (v.left || []).indexOf(s) >= 0 ? ' <span class="talat-left">left the game</span>' : "";
        var rank = v.result && v.result.ranks ? ' <span class="talat-rank">place ' + v.result.ranks[s] + "</span>" : "";
        return '<li data-seat="' + s + '"' + (s === mySeat ? ' class="me"' : "") + '><span class="talat-seat seat-' + s + '">' +
          cap(name(s)) + '</span> <strong data-testid="talat-score-' + s + '">' + ((v.scores || {})[s] || 0) +
          "</strong> points" + rank + left + (taken ? ' <span class="talat-captured" aria-label="captured: ' +
          ((v.captured || {})[s] || []).join(", ") + '">' + taken + "</span>" : "") + "</li>";
      });
      var frozen = (v.frozen || []).length ? '<p class="hint">Frozen (A7, no capture can happen there any more): ' +
        v.frozen.map(function (b) { return "board " + b; }).join(", ") + ". The game ends when two boards are frozen.</p>" : "";
      info.innerHTML = '<ul class="talat-scores">' + rows.join("") + "</ul>" + frozen;
    }

    function announcement(v, acts) {
      if (v.result || v.outcome) return "";
      if (myTurn() && acts.pass) return "You have no move or capture: you pass (A4).";
      return "";
    }

    /* A past position from the review: its towers, until "Now". */
    function showFrame(f) {
      st.frame = true;
      var keep = st.selected;
      st.selected = null;
      paint(f.towers || {}, f.last || null, {frozen: f.frozen || []});
      st.selected = keep;
      $("last-turn").textContent = "";
    }

    function send(action) {
      if (!myTurn()) return;
      st.selected = null;
      api.send({type: "step", step: {action: action}});
    }

    function activate(sq) {
      if (st.frame) return;
      if (!myTurn()) { if (!api.pending()) explain(sq); return; }
      var acts = actions();
      if (st.kind && (acts.place[st.kind] || []).indexOf(sq) >= 0) { send("@" + sq + " " + st.kind); return; }
      if (st.selected) {
        var to = (acts.from[st.selected] || []).filter(function (d) { return d.to === sq; })[0];
        if (to) { send(to.text); return; }
      }
      if (st.selected === sq) { st.selected = null; api.refuse(""); api.redraw(); return; }
      if (acts.from[sq]) { st.selected = sq; api.refuse(""); api.redraw(); return; }
      explain(sq);
    }

    /* Why a click is no action, in the rulings' words where the view can tell. */
    function explain(sq) {
      var v = st.view, tower = (v.towers || {})[sq], board = sq.split(":")[0], text;
      if (v.result || v.outcome) text = "The game is over.";
      else if (!mySeat) text = "You are watching this game.";
      else if (!api.mayAct()) text = "It is " + name(v.to_move) + "'s turn.";
      else if (v.phase === "placement") text = st.kind ? "Place it on an empty square of your own start lines (A3): the dotted squares." :
        "Choose a tower to place first.";
      else if ((v.frozen || []).indexOf(board) >= 0) text = "Board " + board + " is frozen: nobody moves on it (A7).";
      else if (st.selected) text = "That is no move of the tower on " + st.selected + ": a tower moves one square forward, " +
        "straight or diagonally, onto an empty square, and captures a tower it beats ahead or beside it (A4, A5).";
      else if (tower && B.readTower(tower).seat !== mySeat && B.readTower(tower).seat !== "Z") text = "That is not your tower.";
      else if (tower) text = "That tower has no move or capture now.";
      else text = "Choose one of your towers first.";
      api.refuse(text);
      api.redraw();
    }

    listen(tray, "click", function (e) {
      var b = e.target.closest(".talat-kind");
      if (!b || b.disabled) return;
      st.kind = b.dataset.kind;
      api.refuse("");
      api.redraw();
    });
    listen(table.el, "click", function (e) {
      var b = e.target.closest(".sq");
      if (!b) return;
      focusSquare(b.dataset.square);
      activate(b.dataset.square);
    });
    T.boardKeys(listen, table.el, st, function () { return table.cells; },
                function () { api.redraw(); });  // static/play/gridkeys.js
    function focusSquare(sq) { T.focusSquare(st, table.cells, sq); }

    // An action typed as A10 writes it ("@12:a1 M6", "12:b2-c3", "31:d4xd5", "pass").
    var form = $("talat-action-form");
    if (form) {
      listen(form, "submit", function (e) {
        e.preventDefault();
        var input = $("talat-action"), text = input.value.trim().replace(/\s+/g, " ");
        if (!text) return;
        if (!myTurn()) { api.refuse(mySeat ? "It is not your turn." : "You are watching this game."); return; }
        send(text);
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
        element.classList.remove("talat");
      }
    };
  }
  var board = null;

  function cap(s) { return s ? s.charAt(0).toUpperCase() + s.slice(1) : s; }

  window.TaluClient.register("talat", {
    mount: mount,
    update: function (view) { if (board) board.update(view); },
    destroy: function () { if (board) board.destroy(); board = null; },
    showFrame: function (frame) { if (board) board.showFrame(frame); },
    seatName: function (seat) { return seatWords(seat); },
    confirmText: function (command) {
      var a = (command.step || {}).action || "";
      return a ? "Play " + a + "?" : "";
    },
    // One line a turn ("12. 2 12:b2-c3"), each a turn of the review (A10).
    notation: function (view) { return view.moves || []; },
    toAct: function (view) { return view.to_act && !view.result ? view.to_act : []; }
  });
})();
