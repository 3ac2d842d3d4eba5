/* The talu board: draws the server's state, sends steps over the game websocket.
 * Protocol: docs/protocol.md. Plain JS, no build step. The server decides everything; this
 * file only highlights what the server's legal_steps allow and shows what the server says.
 */
(function () {
  "use strict";

  var root = document.getElementById("game");
  if (!root) return;
  var mySide = root.dataset.side || null;
  var boardEl = document.getElementById("board");
  var $ = function (id) { return document.getElementById(id); };

  var initial = JSON.parse($("initial-state").textContent);
  var st = {
    version: -1, state: null, game: null, selected: null, pending: null,
    showMarks: false, focus: null, ws: null, retry: 0, seqBase: Math.random().toString(36).slice(2, 8),
    seqN: 0
  };

  // ---------------------------------------------------------------------------------- geometry
  // The grid, its coordinates and the path layer are drawn by boardview.js (shared with the
  // rules page, the lessons and the review).
  var T = window.Talu;
  var view = new T.BoardView(boardEl, {flip: mySide === "O"});
  var cells = view.cells;

  function buildBoard(files, ranks) {
    if (!view.build(files, ranks)) return;
    cells = view.cells;
    var rows = view.rows;
    var first = rows[rows.length - 1][0];
    st.focus = st.focus && cells[st.focus] ? st.focus : first;
    cells[st.focus].tabIndex = 0;
  }

  // ---------------------------------------------------------------------------------- legality
  function myTurn() {
    return !!(st.state && mySide && st.state.side_to_move === mySide && !st.state.outcome);
  }
  function legal() { return myTurn() ? st.state.legal_steps : []; }
  function stepsFrom(sq) {
    return legal().filter(function (s) { return (s.kind === "move" || s.kind === "capture") && s.from === sq; });
  }
  function exits() { return legal().filter(function (s) { return s.kind === "exit"; }); }
  function hasKind(kind) { return legal().some(function (s) { return s.kind === kind; }); }

  // ---------------------------------------------------------------------------------- render
  function render() {
    var s = st.state, g = st.game;
    if (!s) return;
    buildBoard(s.files, s.ranks);
    root.dataset.version = st.version;
    root.dataset.toMove = s.side_to_move || "";
    root.dataset.finished = s.outcome ? "1" : "";
    if (st.frame) { renderFrame(st.frame); return; }
    root.dataset.reviewing = "";
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
    // players, top and bottom
    var bottomSide = mySide === "O" ? "O" : "I", topSide = bottomSide === "I" ? "O" : "I";
    $("pl-top").innerHTML = playerLine(topSide);
    $("pl-bottom").innerHTML = playerLine(bottomSide);
    // counter, buttons: only a player of a live game has them (finding 9)
    var mine = myTurn() && !st.pending;
    var playing = !!mySide && !s.outcome;
    $("counter").textContent = s.outcome ? "" :
      "Round " + s.round + " · " + T.sideName(s.side_to_move) + " to move · step " + s.steps_used + "/" +
      s.steps_per_turn + " (" + s.steps_left + " left)";
    $("controls").hidden = !playing;
    $("board-hint").hidden = !playing;
    if ($("sound")) $("sound").parentNode.hidden = !playing; // no "my turn" left to ring for
    $("end-turn").disabled = !(mine && hasKind("end"));
    $("pass").disabled = !(mine && hasKind("pass"));
    $("stay").hidden = !(mine && hasKind("stay"));
    $("resign").disabled = !playing;
    $("passes").textContent = s.outcome ? "" : passesText(s);
    // adjournment (R38): offer, accept, seal, resume
    var adj = s.adjournment, offer = s.offer;
    var theirs = offer && offer.side !== mySide;
    // The computer never accepts an adjournment: no Adjourn button against it.
    $("adjourn").hidden = !mySide || !!s.outcome || !!adj || root.dataset.computer === "1";
    $("adjourn").disabled = !!s.steps_used || (offer && offer.what === "adjourn" && !theirs);
    $("adjourn").textContent = offer && offer.what === "adjourn" && theirs ? "Accept adjournment" :
      (offer && offer.what === "adjourn" ? "Adjournment offered" : "Adjourn");
    $("resume").hidden = !mySide || !!s.outcome || !(adj && adj.adjourned);
    $("resume").disabled = !!(offer && offer.what === "resume" && !theirs);
    $("resume").textContent = offer && offer.what === "resume" && theirs ? "Accept resumption" :
      (offer && offer.what === "resume" ? "Resumption offered" : "Resume");
    // status
    var status;
    if (s.outcome) status = resultText(s.outcome);
    else if (!mySide) status = cap(T.sideName(s.side_to_move)) + " to move";
    else if (s.adjournment && s.adjournment.adjourned && s.adjournment.resume_at)
      status = "Adjourned: play resumes at " + whenText(s.adjournment.resume_at) + " (set by the arbiter)";
    else if (s.adjournment && s.adjournment.adjourned) status = "Adjourned: the sealed turn is hidden until play resumes";
    else if (s.adjournment && myTurn()) status = "Seal your turn: only you will see it until play resumes";
    else if (s.adjournment) status = cap(T.sideName(s.adjournment.sealing)) + " is sealing the turn";
    else if (myTurn()) status = st.pending ? "Sending…" : "Your turn";
    else status = "Waiting for " + T.sideName(s.side_to_move) + " (" + playerName(s.side_to_move) + ")";
    if (!flashing) $("status").textContent = status;
    // R38: the resumption time the arbiter set, beside the game (the page's own until now)
    var resumeAt = !s.outcome && s.adjournment && s.adjournment.resume_at;
    $("resume-at").hidden = !resumeAt;
    if (resumeAt) $("resume-at").textContent = "Adjourned: play resumes at " + whenText(resumeAt) + ", the time the arbiter set (R38).";
    updateTitle();
    if (s.outcome && root.dataset.conn === "live") setConn("finished");
    // honor rule announcement
    var ann = $("announce");
    if (!s.outcome && s.honor_targets && s.honor_targets.length) {
      var mover = s.side_to_move;
      ann.hidden = false;
      ann.textContent = mover === mySide
        ? "Honor rule: the invader on " + s.honor_targets.join(", ") + " stands on your home row. Capture it this turn or lose by invasion."
        : "Honor rule: " + T.sideName(mover) + " must capture the invader on " + s.honor_targets.join(", ") + " this turn.";
    } else if (!s.outcome && s.flagged) {
      ann.hidden = false;
      ann.textContent = "Non-engagement: warned players' turns that neither capture, threaten nor advance now count as passes (R14).";
    } else {
      ann.hidden = true;
      ann.textContent = "";
    }
    // the arbiter's decisions (R34, R39): every one, in words, on every board
    var decs = s.arbiter || [];
    $("decisions-card").hidden = !decs.length;
    $("decisions").innerHTML = decs.map(function (d) {
      var when = d.at || d.turn;
      return "<li>" + esc(decisionText(d)) + ' <small class="hint">' +
        (when === "000 O" ? "before the first turn" : "after " + esc(when)) + "</small></li>";
    }).join("");
    var note = $("arbiter-note");
    if (decs.length) {
      note.hidden = false;
      note.textContent = decisionText(decs[decs.length - 1]);
    } else {
      note.hidden = true;
    }
    // notation
    if (T.renderNotation) T.renderNotation(s);
    else {
      var lines = s.notation.slice();
      if (!s.outcome && s.open_turn && s.open_turn.text) {
        lines.push(pad3(s.round) + " " + s.side_to_move + ": " + s.open_turn.text + " …");
      }
      $("stgn").textContent = lines.join("\n");
    }
    $("stgn").scrollTop = $("stgn").scrollHeight;
    // result, records
    var res = $("result"), recs = $("records");
    if (s.outcome) {
      res.hidden = false;
      res.textContent = resultText(s.outcome);
      res.dataset.reason = s.outcome.reason;
      var html = "";
      if (g && g.rating_changes) {
        ["I", "O"].forEach(function (sd) {
          var c = g.rating_changes[sd];
          if (c) html += "<p>" + esc(g.players[sd].name) + " (" + c.model + "): " + c.old + " → " + c.new +
            (c.promoted_to ? " · promoted to S" + c.promoted_to + " (" + c.after + ")" : "") + "</p>";
        });
        if (g.rated && !Object.keys(g.rating_changes).length) html += g.archived === false ?
          "<p>Recording the result…</p>" : "<p>No rating change" +
          (s.outcome.winner ? "." : ": a null game is unrated.") + "</p>";
      }
      if (g && g.records && g.records.length) {
        html += "<p>Records: " + g.records.map(function (r) {
          return '<a href="' + r.url + '" data-record="' + r.kind + '" download>' + r.kind + (r.session ? " " + r.session : "") + "</a>";
        }).join(" · ") + "</p>";
      }
      recs.innerHTML = html;
      recs.hidden = !html;
      var rm = $("rematch");
      if (rm) rm.hidden = !mySide;
    }
    tickClocks();
    document.dispatchEvent(new CustomEvent("talu:render", {detail: {state: s, game: g, side: mySide}}));
  }

  /* The last finished turn's path and captures, and the turn in progress, on the board and in
   * words under it (finding 4: an opponent's capture no longer just makes a piece vanish; on
   * a phone the notation is below the fold). */
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

  function passesText(s) {
    var p = s.passing;
    if (!p) return "";
    // R12 in words ("the game's last 0" read as nothing at all).
    return "Turns counted as passes in a row: light " + p.run.I + ", dark " + p.run.O +
      "; both sides together " + p.game_run + ". Three of one side's own in a row lose the game;" +
      " the game's last three turns all passes make it a null game.";
  }

  function playerName(side) {
    var g = st.game;
    return g && g.players && g.players[side] ? g.players[side].name : T.sideName(side);
  }
  function playerLine(side) {
    var g = st.game;
    if (!g) return "";
    var p = g.players[side];
    var turn = st.state && !st.state.outcome && st.state.side_to_move === side ? ' <span class="to-move">to move</span>' : "";
    var clock = st.state && st.state.clock ?
      ' <span class="clock" data-clock="' + side + '" data-testid="clock-' + side + '" role="timer"></span>' : "";
    if (p.computer) {  // the computer opponent: marked wherever it is shown (issue 25)
      return '<span class="dot piece-' + side + '"></span> <a href="' + p.profile + '">' + esc(p.name) + "</a> " +
        '<span class="badge computer" data-testid="computer-' + side + '">computer · level ' + p.computer.level + "</span> " +
        cap(T.sideName(side)) + turn + clock;
    }
    return '<span class="dot piece-' + side + '"></span> <a href="' + p.profile + '">' + esc(p.name) + "</a> " +
      T.sideName(side) + " · " + p.stratum + " " + p.rating + turn + clock;
  }
  // Plain language: "Dark won: light resigned" (the words come from the rules core); a game
  // decided by the clock or aborted (R37) says so.
  function resultText(o) {
    if (o.detail === "arbiter") {  // R39: a forfeit or null decided by the arbiter
      return o.winner ? cap(T.sideName(o.winner)) + " won: the arbiter forfeited " + T.sideName(o.winner === "I" ? "O" : "I")
        : "Null game by the arbiter's decision: no winner";
    }
    var d = o.detail ? " (" + o.detail + ")" : "";
    // The rules core's words: its detail names the side by its letter ("I did not ...").
    if (o.reason === "aborted") return o.text || "Game aborted (no result, no rating change)";
    // The same words as the pages' (play/templatetags/talu_words.py): said of the loser.
    var cause = {time: "ran out of time", abandonment: "left the game",
      unplayed: "did not complete the opening turn in time (unplayed, not rated)"}[o.cause];
    if (o.winner && cause) return cap(T.sideName(o.winner)) + " won: " + T.sideName(o.winner === "I" ? "O" : "I") + " " + cause;
    return o.text || (o.winner ? cap(T.sideName(o.winner)) + " won" : "Null game");
  }
  function cap(t) { return t ? t.charAt(0).toUpperCase() + t.slice(1) : t; }
  // R38: a resumption time (ms since the epoch) in the reader's own time and in UTC.
  function whenText(t) {
    var d = new Date(t);
    return d.toLocaleString() + " (" + d.toISOString().slice(0, 16).replace("T", " ") + " UTC)";
  }
  var set = T.set, esc = T.esc;

  // ---------------------------------------------------------------------------------- clocks
  // The server is the only timekeeper (R36): a frame carries each side's time as of the
  // running clock's start (state.clock.since) and the server's time when it was sent; the
  // countdown runs from there on this page's monotonic clock, never on the computer's date.
  function serverNow() {
    return st.serverTime ? st.serverTime.server + (performance.now() - st.serverTime.local) : Date.now();
  }
  function timeLeft(c, side) {
    var left = c.remaining[side];
    if (c.running === side) left -= Math.max(0, serverNow() - c.since);
    return Math.max(0, left);
  }
  function tickClocks() {
    var s = st.state, c = s && s.clock;
    if (!c) return;
    var corr = c.control.indexOf("correspondence") === 0;
    document.querySelectorAll("[data-clock]").forEach(function (el) {
      var side = el.dataset.clock, left = timeLeft(c, side);
      var opening = c.opening.indexOf(side) >= 0;
      var text = T.clockText(left, c.control);
      // A side yet to play its opening turn has that turn's own short limit (R36), waiting or
      // not: "0:30" alone read as all the time left of a 10+5 game.
      if (opening) text = "first turn " + text;
      if (c.periods && !opening && c.main[side] === 0) text += " · " + c.periods[side] + "×" + c.period / 1000 + "s";
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("running", c.running === side && !s.outcome);
      el.classList.toggle("low", !s.outcome && left < (corr ? 86400000 : 10000));
      el.setAttribute("aria-label", cap(T.sideName(side)) + " clock: " + text);
    });
    // At zero, claim the flag once (the server checks it on its own clock; its worker flags
    // the game at the deadline anyway, R37).
    if (!s.outcome && c.running && mySide && timeLeft(c, c.running) === 0 && st.flagged !== st.version) {
      st.flagged = st.version;
      send({type: "flag", seq: st.seqBase + "-flag-" + st.version});
    }
  }
  setInterval(tickClocks, 100);

  var SIDE_NAMES = {I: "light", O: "dark"};
  // The same words as play.games.talu.protocol.describe: "Arbiter: light is warned for ..."
  function decisionText(d) {
    var side = SIDE_NAMES[d.side] || "", why = d.reason || "";
    if (d.action === "warn") return "Arbiter: " + side + " is warned for " + why;
    if (d.action === "count_as_pass") return "Arbiter: " + side + "'s turn " + d.turn + " counts as a pass (" + why + ")";
    if (d.action === "forfeit") return "Arbiter: " + side + " forfeits (" + why + ")";
    if (d.action === "null") return "Arbiter: the game is null (" + why + ")";
    if (d.action === "add_time") return "Arbiter: " + T.amountText(d.seconds || 0) + " added to " + side + "'s clock (" + why + ")";
    return "Arbiter: " + d.action + (why ? " (" + why + ")" : "");
  }

  window.taluDecisionText = decisionText;

  function tickAbsence() {
    var a = st.absence, box = $("absence");
    if (!a || !st.state || st.state.outcome || !mySide) { box.hidden = true; return; }
    var wait = Math.ceil((a.since + a.limit - serverNow()) / 1000);
    box.hidden = false;
    var who = cap(T.sideName(a.side));
    $("absence-text").textContent = wait > 0 ?
      who + " has left the game. You may claim it in " + wait + " s." :
      who + " has left the game. You may claim it now:";
    $("claim-win").hidden = $("claim-null").hidden = wait > 0;
  }
  setInterval(tickAbsence, 500);
  $("adjourn").addEventListener("click", function () { send({type: "adjourn", seq: st.seqBase + "-adj-" + st.version}); });
  $("resume").addEventListener("click", function () { send({type: "resume", seq: st.seqBase + "-res-" + st.version}); });
  $("claim-win").addEventListener("click", function () { send({type: "claim", result: "win", seq: st.seqBase + "-cw"}); });
  $("claim-null").addEventListener("click", function () { send({type: "claim", result: "null", seq: st.seqBase + "-cn"}); });
  function pad3(n) { var t = String(n); while (t.length < 3) t = "0" + t; return t; }

  // "Your turn" in the tab's title, and a sound if the player asked for one.
  var baseTitle = document.title, wasMyTurn = null;
  function updateTitle() {
    var mine = myTurn();
    document.title = (mine ? "● Your turn · " : "") + baseTitle;
    if (mine && wasMyTurn === false && $("sound") && $("sound").checked) beep();
    wasMyTurn = mine;
  }
  function beep() {
    try {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      var ctx = beep.ctx = beep.ctx || new Ctx();
      var o = ctx.createOscillator(), gn = ctx.createGain();
      o.frequency.value = 660; gn.gain.value = 0.08;
      o.connect(gn); gn.connect(ctx.destination);
      o.start(); o.stop(ctx.currentTime + 0.15);
    } catch (err) { /* no sound, no harm */ }
  }

  // A past position chosen in the review (review.js) replaces the live one until it returns.
  function renderFrame(f) {
    root.dataset.reviewing = "1";
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
    $("controls").hidden = true;
    $("board-hint").hidden = true;
  }

  // ---------------------------------------------------------------------------------- socket
  // Reconnects after any loss (a server process restarted, a proxy moved us, the network):
  // exponential backoff with jitter, so a restarted process is not hit by every client at the
  // same instant; the URL names our last version, so the first update fills what we missed.
  function connect() {
    var proto = location.protocol === "https:" ? "wss://" : "ws://";
    // ack=inline: our step's ack comes inside the update that carries it (docs/protocol.md).
    var url = proto + location.host + root.dataset.ws + "?ack=inline";
    if (st.version >= 0) url += "&last_version=" + st.version;
    var ws = new WebSocket(url);
    st.ws = ws;
    setConn("connecting…");
    ws.onopen = function () {
      if (ws !== st.ws) return;
      setConn(navigator.onLine === false ? "offline" : liveLabel());
      if (st.pending) send(st.pending); // a resent step is acknowledged, never applied twice
    };
    ws.onmessage = function (e) {
      if (ws !== st.ws) return;
      var m;
      try { m = JSON.parse(e.data); } catch (err) { return; }
      onMessage(m);
    };
    ws.onclose = function (e) {
      if (ws !== st.ws) return;
      if (e.code === 4404) { setConn("no such game"); return; }
      st.ws = null;
      // Offline: wait for the browser to be back online (finding 7) rather than retry blind.
      if (navigator.onLine === false) { setConn("offline"); return; }
      setConn("reconnecting…");
      var base = Math.min(15000, 500 * Math.pow(2, st.retry++));
      setTimeout(connect, base / 2 + Math.random() * base / 2);
    };
  }
  function liveLabel() { return st.state && st.state.outcome ? "finished" : "live"; }
  function setConn(t) {
    $("conn").textContent = t === "offline" ? "offline: steps cannot be sent" : t;
    root.dataset.conn = t;
  }
  // The label follows the browser's connection (finding 7: it said "live" while offline).
  window.addEventListener("offline", function () { setConn("offline"); });
  window.addEventListener("online", function () {
    if (st.ws && st.ws.readyState === 1) {
      setConn(liveLabel());
      send({type: "sync", last_version: st.version}); // catch up on what came meanwhile
    } else if (!st.ws) {
      st.retry = 0;
      connect();
    }
  });
  function send(m) {
    if (st.ws && st.ws.readyState === 1 && navigator.onLine !== false) st.ws.send(JSON.stringify(m));
  }

  // The arbiter panel (arbiter.js) sends its actions on this socket and hears every message.
  window.taluSend = send;
  window.taluState = function () { return st.state; };

  function onMessage(m) {
    if (window.taluArbiter && m.seq && String(m.seq).indexOf("arb-") === 0) {
      window.taluArbiter(m);
      return;
    }
    if (window.taluArbiter && m.type === "update") setTimeout(function () { window.taluArbiter(m); }, 0);
    switch (m.type) {
      case "welcome":
        st.retry = 0; // really in: the next loss starts the backoff again from short
        $("spectators").textContent = m.spectators;
        break;
      case "update":
        // The update that carries our own step acknowledges it too (docs/protocol.md).
        if (m.ack && st.pending && st.pending.seq === m.ack.seq) { st.pending = null; refuse(""); }
        if (m.from_version > st.version && st.version >= 0 && m.events.length) {
          send({type: "sync", last_version: st.version}); // a gap: ask for what we missed
          return;
        }
        if (m.version < st.version) return;
        st.version = m.version;
        st.state = m.state;
        st.game = m.game;
        if (m.server_time) st.serverTime = {server: m.server_time, local: performance.now()};
        if (st.selected && !stepsFrom(st.selected).length) st.selected = null;
        render();
        break;
      case "ack":
        if (st.pending && st.pending.seq === m.seq) { st.pending = null; refuse(""); }
        render();
        break;
      case "rejected":
        if (typeof m.seq === "string" && m.seq.indexOf("-flag-") > 0) {
          // our clock ran a little ahead of the server's: claim again in a second
          setTimeout(function () { st.flagged = null; }, 1000);
          break;
        }
        if (st.pending && st.pending.seq === m.seq) st.pending = null;
        if (m.code === "stale") send({type: "sync", last_version: st.version});
        else refuse(m.reason || "Refused");
        render();
        break;
      case "game":
        // The game's metadata once its records and rating changes are written (after its
        // end, by the server's worker: docs/protocol.md).
        if (m.game && (!st.game || m.game.version >= st.game.version)) {
          st.game = m.game;
          render();
        }
        break;
      case "spectators":
        $("spectators").textContent = m.count;
        break;
      case "probe":
        send({type: "probe", t: m.t}); // the server measures our lag from the echo (R36)
        break;
      case "absence":
        // R37: the other player's every connection is gone (since: null, back again).
        if (m.side !== mySide) st.absence = m.since === null || m.limit === null ? null :
          {side: m.side, since: m.since, limit: m.limit};
        tickAbsence();
        break;
      case "error":
        // Over the socket's budget (docs/protocol.md): our step was not handled; send it
        // again, unchanged, when the server says (it is never applied twice).
        if (m.code === "slow_down" && st.pending && st.pending.seq === m.seq) {
          setTimeout(function () {
            if (st.pending && st.pending.seq === m.seq) send(st.pending);
          }, 1000 * (m.retry_after || 1));
        }
        refuse(m.message);
        break;
    }
  }

  // A refusal in words, beside the board, until the next accepted step (finding 2).
  var flashing = false, refuseTimer = null;
  function refuse(text) {
    var el = $("refusal");
    clearTimeout(refuseTimer);
    el.textContent = text ? cap(text.replace(/\.$/, "")) + "." : "";
    el.hidden = !text;
    flashing = false;
    if (text) refuseTimer = setTimeout(function () { el.hidden = true; el.textContent = ""; }, 12000);
  }

  function sendAction(type, step) {
    if (!myTurn() || st.pending) return;
    var m = {type: type, version: st.version, seq: st.seqBase + "-" + (++st.seqN)};
    if (step) {
      m.step = {kind: step.kind};
      if (step.from) m.step.from = step.from;
      if (step.to) m.step.to = step.to;
    }
    st.pending = m;
    st.selected = null;
    send(m);
    render();
  }

  // ---------------------------------------------------------------------------------- input
  function activate(sq) {
    if (st.frame) return;
    if (!myTurn() || st.pending) { if (!st.pending) explain(sq); return; }
    var ex = exits().filter(function (x) { return x.to === sq; })[0];
    if (ex) { carefulStep(ex); return; }
    if (st.selected) {
      var hit = stepsFrom(st.selected).filter(function (x) { return x.to === sq; })[0];
      if (hit) { carefulStep(hit); return; }
    }
    if (st.selected === sq) { st.selected = null; render(); return; }
    if (stepsFrom(sq).length) { st.selected = sq; refuse(""); render(); return; }
    explain(sq);
  }
  // Not a highlighted step: the rules core's verdict, or a sentence of refusals.js.
  function explain(sq) {
    var e = T.explainClick({state: st.state, side: mySide, selected: st.selected,
      pieces: T.piecesOf(st.state.board)}, sq);
    if (e.step) { sendAction("step", e.step); return; }
    refuse(e.text);
    render();
  }

  var drag = null, press = null, tapped = null, suppressClick = false;
  boardEl.addEventListener("pointerdown", function (e) {
    var b = e.target.closest(".sq");
    press = b ? {sq: b.dataset.square, x: e.clientX, y: e.clientY} : null;
    drag = null;
    if (!b || !myTurn() || st.frame) return;
    if (stepsFrom(b.dataset.square).length) drag = {from: b.dataset.square, x: e.clientX, y: e.clientY};
  });
  document.addEventListener("pointercancel", function () { press = drag = null; });
  document.addEventListener("pointerup", function (e) {
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
    // The click that follows this drag's release (if any: it lands on a common ancestor when
    // the pointer went down and up on different squares) is the drag's, not a new click; it
    // comes in this same task, so the flag is gone by the next click (finding 5: the next
    // click was swallowed).
    suppressClick = true;
    setTimeout(function () { suppressClick = false; }, 0);
    var el = document.elementFromPoint(e.clientX, e.clientY);
    var b = el && el.closest ? el.closest(".sq") : null;
    if (!b || b.dataset.square === d.from) return;
    st.selected = d.from;
    activate(b.dataset.square); // an illegal drop is explained, not just snapped back
  });
  boardEl.addEventListener("click", function (e) {
    if (suppressClick) { suppressClick = false; return; }
    var b = e.target.closest(".sq");
    if (!b) return;
    var tap = tapped;
    tapped = null;
    if (tap && tap.sq === b.dataset.square && Date.now() - tap.t < 1000) return; // that tap's own click
    focusSquare(b.dataset.square);
    activate(b.dataset.square);
  });
  boardEl.addEventListener("keydown", function (e) {
    var b = e.target.closest(".sq");
    if (!b) return;
    var d = {ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0]}[e.key];
    if (e.key === "Escape") { st.selected = null; render(); return; }
    if (!d) return;
    e.preventDefault();
    var x = +b.dataset.x + d[0], y = +b.dataset.y + d[1];
    var next = boardEl.querySelector('.sq[data-x="' + x + '"][data-y="' + y + '"]');
    if (next) { focusSquare(next.dataset.square); next.focus(); }
  });
  function focusSquare(sq) {
    if (st.focus && cells[st.focus]) cells[st.focus].tabIndex = -1;
    st.focus = sq;
    cells[sq].tabIndex = 0;
  }

  // A pass or a stalling end that would lose or null the game asks first (finding 3, R12-R13).
  function confirmThen(text, action) {
    var d = $("confirm-pass");
    if (!text) { action(); return; }
    $("confirm-pass-text").textContent = text;
    d.onclose = function () { if (d.returnValue === "yes") action(); };
    d.showModal();
  }
  function consequence(what, would) {
    if (would === "forfeit") return what + " would be your third turn in a row counting as a pass: you would lose the game by forfeit (R12).";
    if (would === "null") return what + " would make three turns in a row counting as passes: the game would end as a null game, with no winner (R12).";
    return "";
  }
  // A last step that ends the turn on an earlier position stalls (R9, R13): asked like a pass.
  function carefulStep(step) {
    var p = st.state && st.state.passing;
    var stalls = p && (p.stalling_last_steps || []).some(function (x) {
      return x.kind === step.kind && x.from === step.from && x.to === step.to;
    });
    var text = stalls ? consequence("This last step ends your turn on a position the game has had before (stalling, R13): it counts as a pass and", p.pass_would) : "";
    confirmThen(text, function () { sendAction("step", step); });
  }
  $("end-turn").addEventListener("click", function () {
    var p = st.state && st.state.passing;
    var text = p && p.end_would ? consequence("Ending the turn here repeats an earlier position (stalling, R13): it counts as a pass and", p.end_would) : "";
    confirmThen(text, function () { sendAction("end"); });
  });
  $("pass").addEventListener("click", function () {
    var p = st.state && st.state.passing;
    confirmThen(consequence("This pass", p && p.pass_would), function () { sendAction("pass"); });
  });
  $("stay").addEventListener("click", function () { sendAction("step", {kind: "stay"}); });
  $("show-marks").addEventListener("change", function (e) {
    st.showMarks = e.target.checked;
    $("marks-legend").hidden = !st.showMarks; // what the corners and rings mean
    render();
  });
  var sound = $("sound");
  if (sound) {
    try { sound.checked = localStorage.getItem("talu.sound") === "1"; } catch (err) { /* private mode */ }
    sound.addEventListener("change", function () {
      try { localStorage.setItem("talu.sound", sound.checked ? "1" : "0"); } catch (err) { /* ignore */ }
    });
  }
  var dlg = $("confirm-resign");
  $("resign").addEventListener("click", function () {
    if (dlg && dlg.showModal) dlg.showModal();
    else if (window.confirm("Resign this game?")) send({type: "resign", seq: st.seqBase + "-r"});
  });
  if (dlg) dlg.addEventListener("close", function () {
    if (dlg.returnValue === "resign") send({type: "resign", seq: st.seqBase + "-r"});
  });

  // For review.js: show a past position, or the live game again.
  T.game = {
    root: root,
    view: function () { return view; },
    state: function () { return st.state; },
    showFrame: function (f) { st.frame = f; render(); },
    live: function () { st.frame = null; render(); }
  };

  // first paint from the page's embedded state, then go live
  if (initial) {
    st.version = initial.version;
    st.state = initial.state;
    st.game = initial.game;
    render();
  }
  connect();
})();
