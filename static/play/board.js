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
  function fileName(i) { return String.fromCharCode(65 + i); }
  function squareName(f, r) { return fileName(f) + (r + 1); }
  function parseSquare(sq) { return [sq.charCodeAt(0) - 65, parseInt(sq.slice(1), 10) - 1]; }

  // Own home row at the bottom: I (rank 1 home) sees rank N at the top; O sees rank 1 at the
  // top with files mirrored. Spectators see I's view.
  function layout(files, ranks) {
    var rows = [];
    var flip = mySide === "O";
    for (var y = 0; y < ranks; y++) {
      var row = [];
      for (var x = 0; x < files; x++) {
        var f = flip ? files - 1 - x : x;
        var r = flip ? y : ranks - 1 - y;
        row.push(squareName(f, r));
      }
      rows.push(row);
    }
    return rows;
  }

  var built = null; // "files x ranks" the grid was built for
  var cells = {};

  function buildBoard(files, ranks) {
    var key = files + "x" + ranks;
    if (built === key) return;
    built = key;
    boardEl.innerHTML = "";
    cells = {};
    boardEl.style.setProperty("--files", files);
    var rows = layout(files, ranks);
    rows.forEach(function (row, y) {
      var tr = document.createElement("div");
      tr.className = "row";
      tr.setAttribute("role", "row");
      row.forEach(function (sq, x) {
        var fr = parseSquare(sq);
        var b = document.createElement("button");
        b.type = "button";
        b.className = "sq " + ((fr[0] + fr[1]) % 2 === 0 ? "light" : "dark"); // R1: A1 light
        b.dataset.square = sq;
        b.setAttribute("role", "gridcell");
        b.tabIndex = -1;
        b.dataset.x = x; b.dataset.y = y;
        if (y === rows.length - 1) b.dataset.file = sq[0];
        if (x === 0) b.dataset.rank = sq.slice(1);
        tr.appendChild(b);
        cells[sq] = b;
      });
      boardEl.appendChild(tr);
    });
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
    var pieces = {};
    s.board.I.forEach(function (q) { pieces[q] = "I"; });
    s.board.O.forEach(function (q) { pieces[q] = "O"; });
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
    Object.keys(cells).forEach(function (sq) {
      var b = cells[sq];
      var p = pieces[sq] || "";
      var cls = ["sq", b.classList.contains("light") ? "light" : "dark"];
      if (p) cls.push("has-" + p);
      if (st.selected === sq) cls.push("selected");
      if (dests[sq]) cls.push("dest");
      if (targets[sq]) cls.push("target");
      if (exitSq[sq]) cls.push("exit");
      if (movable[sq]) cls.push("movable");
      if (ovI[sq]) cls.push("ov-I");
      if (ovO[sq]) cls.push("ov-O");
      if (thr[sq]) cls.push("threatened");
      if (honor[sq] || inv[sq]) cls.push("invader");
      b.className = cls.join(" ");
      b.dataset.piece = p;
      b.innerHTML = p ? '<span class="piece piece-' + p + '" aria-hidden="true"></span>' : "";
      var label = sq + (p ? ", " + (p === "I" ? "light" : "dark") + " piece" : ", empty");
      if (dests[sq]) label += ", move here";
      if (targets[sq]) label += ", capture";
      if (exitSq[sq]) label += ", exit here";
      if (thr[sq]) label += ", threatened";
      if (honor[sq]) label += ", invader (honor rule)";
      b.setAttribute("aria-label", label);
    });
    // players, top and bottom
    var bottomSide = mySide === "O" ? "O" : "I", topSide = bottomSide === "I" ? "O" : "I";
    $("pl-top").innerHTML = playerLine(topSide);
    $("pl-bottom").innerHTML = playerLine(bottomSide);
    // counter, buttons
    var mine = myTurn() && !st.pending;
    $("counter").textContent = s.outcome ? "" :
      "Round " + s.round + " · " + s.side_to_move + " to move · step " + s.steps_used + "/" + s.steps_per_turn +
      " (" + s.steps_left + " left)";
    $("end-turn").disabled = !(mine && hasKind("end"));
    $("pass").disabled = !(mine && hasKind("pass"));
    $("stay").hidden = !(mine && hasKind("stay"));
    $("resign").disabled = !!s.outcome || !mySide;
    // adjournment (R38): offer, accept, seal, resume
    var adj = s.adjournment, offer = s.offer;
    var theirs = offer && offer.side !== mySide;
    $("adjourn").hidden = !mySide || !!s.outcome || !!adj;
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
    else if (!mySide) status = (s.side_to_move === "I" ? "I (light)" : "O (dark)") + " to move";
    else if (s.adjournment && s.adjournment.adjourned) status = "Adjourned: the sealed turn is hidden until play resumes";
    else if (s.adjournment && myTurn()) status = "Seal your turn: only you will see it until play resumes";
    else if (s.adjournment) status = s.adjournment.sealing + " is sealing the turn";
    else if (myTurn()) status = st.pending ? "Sending…" : "Your turn";
    else status = "Waiting for " + s.side_to_move;
    $("status").textContent = status;
    // honor rule announcement
    var ann = $("announce");
    if (!s.outcome && s.honor_targets && s.honor_targets.length) {
      var mover = s.side_to_move;
      ann.hidden = false;
      ann.textContent = mover === mySide
        ? "Honor rule: the invader on " + s.honor_targets.join(", ") + " stands on your home row. Capture it this turn or lose by invasion."
        : "Honor rule: " + mover + " must capture the invader on " + s.honor_targets.join(", ") + " this turn.";
    } else if (!s.outcome && s.flagged) {
      ann.hidden = false;
      ann.textContent = "Non-engagement: warned players' non-engaging turns now count as passes (R14).";
    } else {
      ann.hidden = true;
      ann.textContent = "";
    }
    // notation
    var lines = s.notation.slice();
    if (!s.outcome && s.open_turn && s.open_turn.text) {
      lines.push(pad3(s.round) + " " + s.side_to_move + ": " + s.open_turn.text + " …");
    }
    $("stgn").textContent = lines.join("\n");
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
    }
    tickClocks();
  }

  function playerLine(side) {
    var g = st.game;
    if (!g) return "";
    var p = g.players[side];
    var turn = st.state && st.state.side_to_move === side ? " ◀" : "";
    var clock = st.state && st.state.clock ?
      ' <span class="clock" data-clock="' + side + '" data-testid="clock-' + side + '" role="timer"></span>' : "";
    return '<span class="dot piece-' + side + '"></span> <a href="' + p.profile + '">' + esc(p.name) + "</a> " +
      side + " · " + p.stratum + " " + p.rating + turn + clock;
  }
  function resultText(o) {
    var why = {elimination: "elimination", invasion: "invasion", forfeit: "forfeit (three passes)",
      "null": "passing conventions", decision: "decision"}[o.reason] || o.reason;
    var cause = {time: "on time", resignation: "by resignation", abandonment: "by abandonment"}[o.cause];
    var d = o.detail ? " (" + o.detail + ")" : "";
    if (o.reason === "aborted") return "Game aborted" + d + ": no result, no rating change";
    if (o.winner && cause) return o.winner + " won " + cause + d;
    return o.winner ? o.winner + " won by " + why + d : "Null game" + d + ": no winner";
  }

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
  function clockText(ms, c) {
    if (ms >= 86400000) {
      var d = Math.floor(ms / 86400000), h = Math.floor(ms % 86400000 / 3600000);
      return d + "d " + h + "h";
    }
    var t = Math.ceil(ms / 1000);
    if (ms < 10000 && c.control.indexOf("correspondence") !== 0) return (ms / 1000).toFixed(1);
    var hh = Math.floor(t / 3600), mm = Math.floor(t % 3600 / 60), ss = t % 60;
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return (hh ? hh + ":" + two(mm) : mm) + ":" + two(ss);
  }
  function tickClocks() {
    var s = st.state, c = s && s.clock;
    if (!c) return;
    var corr = c.control.indexOf("correspondence") === 0;
    document.querySelectorAll("[data-clock]").forEach(function (el) {
      var side = el.dataset.clock, left = timeLeft(c, side);
      var opening = c.opening.indexOf(side) >= 0;
      var text = clockText(left, c);
      if (opening && c.running === side) text = "first turn " + text;
      if (c.periods && !opening && c.main[side] === 0) text += " · " + c.periods[side] + "×" + c.period / 1000 + "s";
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("running", c.running === side && !s.outcome);
      el.classList.toggle("low", !s.outcome && left < (corr ? 86400000 : 10000));
      el.setAttribute("aria-label", (side === "I" ? "I (light)" : "O (dark)") + " clock: " + text);
    });
    // At zero, claim the flag once (the server checks it on its own clock; its worker flags
    // the game at the deadline anyway, R37).
    if (!s.outcome && c.running && mySide && timeLeft(c, c.running) === 0 && st.flagged !== st.version) {
      st.flagged = st.version;
      send({type: "flag", seq: st.seqBase + "-flag-" + st.version});
    }
  }
  setInterval(tickClocks, 100);

  function tickAbsence() {
    var a = st.absence, box = $("absence");
    if (!a || !st.state || st.state.outcome || !mySide) { box.hidden = true; return; }
    var wait = Math.ceil((a.since + a.limit - serverNow()) / 1000);
    box.hidden = false;
    var who = a.side === "I" ? "I (light)" : "O (dark)";
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
  function set(list) { var o = {}; (list || []).forEach(function (x) { o[x] = true; }); return o; }
  function pad3(n) { var t = String(n); while (t.length < 3) t = "0" + t; return t; }
  function esc(t) { return String(t).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); }

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
      setConn("live");
      if (st.pending) send(st.pending); // a resent step is acknowledged, never applied twice
    };
    ws.onmessage = function (e) {
      var m;
      try { m = JSON.parse(e.data); } catch (err) { return; }
      onMessage(m);
    };
    ws.onclose = function (e) {
      if (e.code === 4404) { setConn("no such game"); return; }
      setConn("reconnecting…");
      var base = Math.min(15000, 500 * Math.pow(2, st.retry++));
      setTimeout(connect, base / 2 + Math.random() * base / 2);
    };
  }
  function setConn(t) { $("conn").textContent = t; root.dataset.conn = t; }
  function send(m) {
    if (st.ws && st.ws.readyState === 1) st.ws.send(JSON.stringify(m));
  }

  function onMessage(m) {
    switch (m.type) {
      case "welcome":
        st.retry = 0; // really in: the next loss starts the backoff again from short
        $("spectators").textContent = m.spectators;
        break;
      case "update":
        // The update that carries our own step acknowledges it too (docs/protocol.md).
        if (m.ack && st.pending && st.pending.seq === m.ack.seq) st.pending = null;
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
        if (st.pending && st.pending.seq === m.seq) st.pending = null;
        render();
        break;
      case "rejected":
        if (typeof m.seq === "string" && m.seq.indexOf("-flag-") > 0) {
          // our clock ran a little ahead of the server's: claim again in a second
          setTimeout(function () { st.flagged = null; }, 1000);
          break;
        }
        if (st.pending && st.pending.seq === m.seq) st.pending = null;
        flash(m.reason || "Refused");
        if (m.code === "stale") send({type: "sync", last_version: st.version});
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
        flash(m.message);
        break;
    }
  }

  var flashTimer = null;
  function flash(text) {
    var el = $("status");
    el.textContent = text;
    el.classList.add("flash");
    clearTimeout(flashTimer);
    flashTimer = setTimeout(function () { el.classList.remove("flash"); render(); }, 2500);
  }

  function sendAction(type, step) {
    if (!myTurn() || st.pending) return;
    var m = {type: type, version: st.version, seq: st.seqBase + "-" + (++st.seqN)};
    if (step) m.step = {kind: step.kind, from: step.from, to: step.to};
    st.pending = m;
    st.selected = null;
    send(m);
    render();
  }

  // ---------------------------------------------------------------------------------- input
  function activate(sq) {
    if (!myTurn() || st.pending) return;
    var ex = exits().filter(function (x) { return x.to === sq; })[0];
    if (ex) { sendAction("step", ex); return; }
    if (st.selected) {
      var hit = stepsFrom(st.selected).filter(function (x) { return x.to === sq; })[0];
      if (hit) { sendAction("step", hit); return; }
    }
    if (st.selected === sq) st.selected = null;
    else st.selected = stepsFrom(sq).length ? sq : null;
    render();
  }

  var drag = null;
  boardEl.addEventListener("pointerdown", function (e) {
    var b = e.target.closest(".sq");
    if (!b || !myTurn()) return;
    if (stepsFrom(b.dataset.square).length) drag = {from: b.dataset.square, x: e.clientX, y: e.clientY};
  });
  document.addEventListener("pointerup", function (e) {
    if (!drag) return;
    var from = drag.from, moved = Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) > 8;
    drag = null;
    if (!moved) return;
    var el = document.elementFromPoint(e.clientX, e.clientY);
    var b = el && el.closest ? el.closest(".sq") : null;
    if (!b) return;
    st.selected = from;
    suppressClick = true;
    activate(b.dataset.square);
  });
  var suppressClick = false;
  boardEl.addEventListener("click", function (e) {
    var b = e.target.closest(".sq");
    if (!b) return;
    if (suppressClick) { suppressClick = false; return; }
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

  $("end-turn").addEventListener("click", function () { sendAction("end"); });
  $("pass").addEventListener("click", function () { sendAction("pass"); });
  $("stay").addEventListener("click", function () { sendAction("step", {kind: "stay"}); });
  $("show-marks").addEventListener("change", function (e) { st.showMarks = e.target.checked; render(); });
  var dlg = $("confirm-resign");
  $("resign").addEventListener("click", function () {
    if (dlg && dlg.showModal) dlg.showModal();
    else if (window.confirm("Resign this game?")) send({type: "resign", seq: st.seqBase + "-r"});
  });
  if (dlg) dlg.addEventListener("close", function () {
    if (dlg.returnValue === "resign") send({type: "resign", seq: st.seqBase + "-r"});
  });

  // first paint from the page's embedded state, then go live
  if (initial) {
    st.version = initial.version;
    st.state = initial.state;
    st.game = initial.game;
    render();
  }
  connect();
})();
