/* The game page's client, the same for every game: the websocket (docs/protocol.md: versions,
 * resync, seq and acks, rejections, slow_down, close codes), reconnects with backoff, the clocks
 * of every seat, offers (adjourn, resume; a null game or a draw as the variant allows), claims
 * (flag, absence), resignation, the move list, the result, the status line, the tab's title and
 * the turn's sound. The board itself is drawn by the game's renderer (static/games/<game>.js),
 * chosen by the board element's data-game.
 * Plain JS, no build step, no inline script (the site's CSP): window.TaluClient.
 *
 * The renderer contract. A game's file registers one object:
 *
 *   TaluClient.register("talu", {
 *     mount: function (element, view, api) {},  // once: draw the first view into element
 *     update: function (view, events) {},       // every redraw: a new view (events: the
 *                                               //   update's new events, [] for a redraw)
 *     destroy: function () {},                  // stop: remove listeners, empty element
 *     // optional:
 *     seatName: function (seat) {},             // "light"; default: the server's label
 *                                               //   (game.seats), else the seat's id
 *     toAct: function (view) {},                // seats that may act now; default:
 *                                               //   view.to_act, else [view.side_to_move]
 *     decisionText: function (d) {},            // an arbiter decision of the game's own in
 *                                               //   words (R34, R39), or null
 *     showFrame: function (frame) {},           // a past position for the review (review.js)
 *     notation: function (view) {},             // the move list's lines, each one turn of the
 *                                               //   review (default: view.notation, talu's)
 *     confirmText: function (command) {}        // the question "confirm my moves" asks
 *                                               //   before sending command ("" sends at once)
 *   });
 *
 * ``element`` is the board element (#board), ``view`` the server's state (update.state).
 * ``api`` is everything the renderer may ask of the client:
 *   api.seat            the viewer's seat, or null (a spectator, an arbiter)
 *   api.mayAct()        the viewer's seat may act now (the game live, no command pending)
 *   api.pending()       a command of the renderer's is on its way (not yet acknowledged)
 *   api.send(command)   a game command ({type: "step", step: {...}}): the client adds the
 *                       version and a seq, keeps it until acknowledged and resends it after a
 *                       reconnect; false (nothing sent) while another is pending
 *   api.redraw()        draw the page again (after a selection changed, say)
 *   api.refuse(text)    a refusal in words beside the board ("" clears it)
 *   api.announce(text)  an announcement above the controls ("" hides it)
 *   api.seatName(seat)  the seat in words
 * Match commands (resign, adjourn, resume, claims, flags) are the client's own; the game's
 * own buttons (talu: end turn, pass, stay) are the renderer's. docs/architecture.md, "The
 * board in the browser".
 */
(function () {
  "use strict";
  var T = window.Talu = window.Talu || {};
  var Client = window.TaluClient = window.TaluClient || {};
  Client.renderers = Client.renderers || {};
  // Other scripts of the page hear the socket's messages of a type (chat.js: "chat", ...):
  // TaluClient.on(type, fn); TaluClient.send(obj) sends on the socket (issue 39).
  var listeners = {};
  Client.on = function (type, fn) { (listeners[type] = listeners[type] || []).push(fn); };

  var root = document.getElementById("game");
  var boardEl = document.getElementById("board");
  var $ = function (id) { return document.getElementById(id); };
  var gameKey = boardEl ? boardEl.dataset.game || "talu" : null;
  var started = false;

  /* A game's renderer; the page's own game starts the client at once. */
  Client.register = function (key, renderer) {
    Client.renderers[key] = renderer;
    if (root && boardEl && key === gameKey && !started) start(renderer);
  };
  // A page whose game has no renderer still follows the game (clocks, result, moves).
  document.addEventListener("DOMContentLoaded", function () {
    if (root && boardEl && !started) start(null);
  });

  function start(renderer) {
    started = true;
    var mySeat = root.dataset.side || null;
    var initial = JSON.parse($("initial-state").textContent);
    var st = {
      version: -1, state: null, game: null, pending: null, frame: null, mounted: false, stopped: false,
      ws: null, retry: 0, seqBase: Math.random().toString(36).slice(2, 8), seqN: 0
    };
    var R = renderer || {mount: function () {}, update: function () {}, destroy: function () {}};
    // The move list's lines: the renderer's (one per move, each a turn of the review), else the
    // view's notation (talu's STGN lines, R15, whose turn lines review.js finds itself).
    T.notationLines = function (s) { return R.notation ? R.notation(s) : (s.notation || []); };
    T.lineIsTurn = function (line) { return R.notation ? true : !!T.parseLine(line); };

    // ------------------------------------------------------------------------------ seats
    // A seat in words: the renderer's, else the server's label (game.seats), else its id.
    function seatName(seat) {
      var n = R.seatName ? R.seatName(seat) : "";
      var g = st.game, spec = g && Array.isArray(g.seats) ? g.seats.filter(function (x) {
        return x && x.seat === seat;
      })[0] : null;
      return n || (spec && spec.label) || (seat === null || seat === undefined ? "" : String(seat));
    }
    // The game's seats in order: the server's list, else its players' or clocks' seats.
    function seats() {
      var g = st.game, s = st.state;
      if (g && Array.isArray(g.seats)) {
        return g.seats.map(function (x) { return typeof x === "object" ? x.seat : x; });
      }
      if (g && g.players) return Object.keys(g.players);
      return s && s.clock ? Object.keys(s.clock.remaining) : [];
    }
    function toAct(s) {
      if (!s || s.outcome) return [];
      if (R.toAct) return R.toAct(s) || [];
      if (Array.isArray(s.to_act)) return s.to_act;
      return s.side_to_move ? [s.side_to_move] : [];
    }
    function myTurn() {
      return !!(st.state && mySeat && toAct(st.state).indexOf(mySeat) >= 0);
    }
    function namesOf(list) { return list.map(seatName).join(" and "); }

    var api = {
      seat: mySeat,
      mayAct: function () { return myTurn(); },
      pending: function () { return !!st.pending; },
      send: function (command) {
        if (st.pending) return false;
        // "Confirm my moves" (issue 39, the account's setting: data-confirm-moves on <html>):
        // the renderer words the commands that need it (a tafl move; talu's end of a turn)
        var ask = document.documentElement.dataset.confirmMoves === "on" && R.confirmText ?
          R.confirmText(command) : "";
        if (ask && !window.confirm(ask)) return false;
        var m = {type: command.type, version: st.version, seq: st.seqBase + "-" + (++st.seqN)};
        Object.keys(command).forEach(function (k) { if (k !== "type") m[k] = command[k]; });
        st.pending = m;
        send(m);
        render();
        return true;
      },
      redraw: function () { render(); },
      refuse: function (text) { refuse(text); },
      announce: function (text) {
        var ann = $("announce");
        ann.hidden = !text;
        ann.textContent = text || "";
      },
      seatName: seatName
    };

    // ------------------------------------------------------------------------------ render
    function render(events) {
      var s = st.state, g = st.game;
      if (!s) return;
      root.dataset.version = st.version;
      root.dataset.toMove = toAct(s).join(" ");
      root.dataset.finished = s.outcome ? "1" : "";
      if (!st.mounted) {  // the first view: the renderer draws the board
        st.mounted = true;
        R.mount(boardEl, s, api);
      } else if (!st.frame) {
        R.update(s, events || []);
      }
      if (st.frame) { renderFrame(st.frame); return; }
      root.dataset.reviewing = "";
      // players: the viewer's seat at the bottom, the others above
      var all = seats(), bottom = mySeat && all.indexOf(mySeat) >= 0 ? mySeat : all[0];
      $("pl-top").innerHTML = all.filter(function (x) { return x !== bottom; }).map(playerLine)
        .filter(Boolean).join("<br>");
      $("pl-bottom").innerHTML = bottom === undefined ? "" : playerLine(bottom);
      // only a player of a live game has controls (finding 9)
      var playing = !!mySeat && !s.outcome;
      $("controls").hidden = !playing;
      $("board-hint").hidden = !playing;
      if ($("sound")) $("sound").parentNode.hidden = !playing; // no "my turn" left to ring for
      $("resign").disabled = !playing;
      // adjournment (R38): offer, accept, seal, resume
      var adj = s.adjournment, offer = s.offer;
      var theirs = offer && offer.side !== mySeat;
      // The computer never accepts an adjournment: no Adjourn button against it.
      $("adjourn").hidden = !mySeat || !!s.outcome || !!adj || root.dataset.computer === "1";
      $("adjourn").disabled = !!s.steps_used || (offer && offer.what === "adjourn" && !theirs);
      $("adjourn").textContent = offer && offer.what === "adjourn" && theirs ? "Accept adjournment" :
        (offer && offer.what === "adjourn" ? "Adjournment offered" : "Adjourn");
      $("resume").hidden = !mySeat || !!s.outcome || !(adj && adj.adjourned);
      $("resume").disabled = !!(offer && offer.what === "resume" && !theirs);
      $("resume").textContent = offer && offer.what === "resume" && theirs ? "Accept resumption" :
        (offer && offer.what === "resume" ? "Resumption offered" : "Resume");
      renderOffer(s, g);
      $("status").textContent = statusText(s);
      // R38: the resumption time the arbiter set, beside the game (the page's own until now)
      var resumeAt = !s.outcome && adj && adj.resume_at;
      $("resume-at").hidden = !resumeAt;
      if (resumeAt) $("resume-at").textContent = "Adjourned: play resumes at " + whenText(resumeAt) + ", the time the arbiter set (R38).";
      updateTitle();
      if (s.outcome && root.dataset.conn === "live") setConn("finished");
      renderDecisions(s);
      // the move list
      if (T.renderNotation) T.renderNotation(s);
      else $("stgn").textContent = T.notationLines(s).join("\n");
      $("stgn").scrollTop = $("stgn").scrollHeight;
      if (s.outcome) renderResult(s, g);
      tickClocks();
      document.dispatchEvent(new CustomEvent("talu:render", {detail: {state: s, game: g, side: mySeat}}));
    }

    // Offers between players (a null game, a draw; a takeback in a casual game, issue 39):
    // the buttons for the offers the game allows (game.offers), and the offer standing,
    // answered by the other player (Accept, Decline) or withdrawn by its maker. The computer
    // answers none: no buttons against it.
    var OFFER_WORDS = {"null": "a null game", draw: "a draw", takeback: "a takeback"};
    function renderOffer(s, g) {
      var allowed = (g && g.offers) || [], offer = s.offer, adj = s.adjournment;
      var agreeing = offer && OFFER_WORDS[offer.what] ? offer : null;
      var playing = !!mySeat && !s.outcome;
      Object.keys(OFFER_WORDS).forEach(function (w) {
        var b = $("offer-" + w);
        if (b) b.hidden = !playing || allowed.indexOf(w) < 0 || !!agreeing || !!adj ||
          root.dataset.computer === "1";
      });
      var box = $("offer-box");
      box.hidden = !agreeing || !!s.outcome;
      if (box.hidden) return;
      var made = agreeing.seats && agreeing.seats.length ? agreeing.seats : [agreeing.side];
      var mine = !!mySeat && made.indexOf(mySeat) >= 0, what = OFFER_WORDS[agreeing.what];
      var by = cap(seatName(agreeing.side)) + " (" + playerName(agreeing.side) + ")";
      if (agreeing.what === "takeback") {
        $("offer-text").textContent = mine ? "You asked to take back your last move. Your opponent decides; the request lapses when they move." :
          by + " asks to take back their last move (any move made since goes too).";
      } else {
        $("offer-text").textContent = mine ? "You offered " + what + ". Your opponent decides; the offer lapses when they move." :
          (mySeat ? by + " offers " + what + (agreeing.what === "null" ? " (no winner, not rated)" : "") + "." :
            by + " offers " + what + ".");
      }
      box.dataset.what = agreeing.what;
      $("offer-accept").hidden = $("offer-decline").hidden = !mySeat || mine;
      $("offer-accept").textContent = "Accept " + what;
      $("offer-withdraw").hidden = !mine;
    }

    function statusText(s) {
      var adj = s.adjournment, acting = toAct(s);
      if (s.outcome) return resultText(s.outcome);
      if (!mySeat) return cap(namesOf(acting)) + " to move";
      if (adj && adj.adjourned && adj.resume_at) return "Adjourned: play resumes at " + whenText(adj.resume_at) + " (set by the arbiter)";
      if (adj && adj.adjourned) return "Adjourned: the sealed turn is hidden until play resumes";
      if (adj && myTurn()) return "Seal your turn: only you will see it until play resumes";
      if (adj) return cap(seatName(adj.sealing)) + " is sealing the turn";
      if (myTurn()) return st.pending ? "Sending…" : "Your turn";
      return "Waiting for " + acting.map(function (x) { return seatName(x) + " (" + playerName(x) + ")"; }).join(" and ");
    }

    // The arbiter's decisions (R34, R39): every one, in words, on every board.
    function renderDecisions(s) {
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
    }
    // The same words as the rules core's describe: "Arbiter: dark forfeits (...)".
    function decisionText(d) {
      var own = R.decisionText ? R.decisionText(d) : null;
      if (own) return own;
      var seat = seatName(d.side), why = d.reason || "";
      if (d.action === "forfeit") return "Arbiter: " + seat + " forfeits (" + why + ")";
      if (d.action === "null") return "Arbiter: the game is null (" + why + ")";
      if (d.action === "add_time") return "Arbiter: " + T.amountText(d.seconds || 0) + " added to " + seat + "'s clock (" + why + ")";
      return "Arbiter: " + d.action + (why ? " (" + why + ")" : "");
    }
    window.taluDecisionText = decisionText;

    // The result, its rating changes and its records.
    function renderResult(s, g) {
      var res = $("result"), recs = $("records");
      res.hidden = false;
      res.textContent = resultText(s.outcome);
      res.dataset.reason = s.outcome.reason;
      var html = "";
      if (g && g.rating_changes) {
        seats().forEach(function (sd) {
          var c = g.rating_changes[sd];
          if (c) html += "<p>" + esc(g.players[sd].name) + " (" + c.model + "): " + c.old + " → " + c.new +
            (c.promoted_to ? " · promoted to S" + c.promoted_to + " (" + c.after + ")" : "") + "</p>";
        });
        // a change with a word of why (issue 39: "-14" alone read as arbitrary)
        if (Object.keys(g.rating_changes).length) html += '<p class="hint" data-testid="rating-why">' +
          '<a href="/rules/#ratings">Why these changes: how a rated game moves ratings</a></p>';
        // an aborted game has no result to record: its result line says so (R37)
        if (g.rated && !Object.keys(g.rating_changes).length && s.outcome.reason !== "aborted") html += g.archived === false ?
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
      if (rm) rm.hidden = !mySeat;
    }

    function playerName(seat) {
      var g = st.game;
      return g && g.players && g.players[seat] ? g.players[seat].name : seatName(seat);
    }
    function playerLine(seat) {
      var g = st.game;
      if (!g || !g.players || !g.players[seat]) return "";
      var p = g.players[seat];
      var turn = toAct(st.state).indexOf(seat) >= 0 ? ' <span class="to-move">to move</span>' : "";
      var clock = st.state && st.state.clock ?
        ' <span class="clock" data-clock="' + seat + '" data-testid="clock-' + seat + '" role="timer"></span>' : "";
      var dot = '<span class="dot piece-' + seat + '"></span> <a href="' + p.profile + '">' + esc(p.name) + "</a> ";
      if (p.computer) {  // the computer opponent: marked wherever it is shown (issue 25)
        return dot + '<span class="badge computer" data-testid="computer-' + seat + '">computer · level ' +
          p.computer.level + "</span> " + cap(seatName(seat)) + turn + clock;
      }
      // talu's stratum and rating (R23); another game's rating, nothing for a newcomer to it
      var rating = p.stratum != null ? p.stratum + " " + p.rating : p.rating;
      return dot + seatName(seat) + (rating != null ? " · " + rating : "") + turn + clock;
    }
    // Plain language: "Dark won: light resigned" (the words come from the rules core); a game
    // decided by the clock or aborted (R37) says so.
    function resultText(o) {
      var loser = o.loser || (o.winner && seats().length === 2 ?
        seats().filter(function (x) { return x !== o.winner; })[0] : null);
      if (o.detail === "arbiter") {  // R39: a forfeit or null decided by the arbiter
        if (!o.winner) return "Null game by the arbiter's decision: no winner";
        return cap(seatName(o.winner)) + " won: " + (loser ? "the arbiter forfeited " + seatName(loser) : "by the arbiter's decision");
      }
      if (o.reason === "aborted") return o.text || "Game aborted (no result, no rating change)";
      // The same words as the pages' (play/templatetags/talu_words.py): said of the loser.
      var cause = {time: "ran out of time", abandonment: "left the game",
        unplayed: "did not complete the opening turn in time (unplayed, not rated)"}[o.cause];
      if (o.winner && cause && loser) return cap(seatName(o.winner)) + " won: " + seatName(loser) + " " + cause;
      return o.text || (o.winner ? cap(seatName(o.winner)) + " won" : "Null game");
    }
    function cap(t) { return t ? t.charAt(0).toUpperCase() + t.slice(1) : t; }
    // R38: a resumption time (ms since the epoch) in the reader's own time and in UTC.
    function whenText(t) {
      var d = new Date(t);
      return d.toLocaleString() + " (" + d.toISOString().slice(0, 16).replace("T", " ") + " UTC)";
    }
    var esc = T.esc;

    // A past position chosen in the review (review.js) replaces the live one until it returns.
    function renderFrame(f) {
      root.dataset.reviewing = "1";
      if (R.showFrame) R.showFrame(f);
      $("controls").hidden = true;
      $("board-hint").hidden = true;
    }

    // ------------------------------------------------------------------------------ clocks
    // The server is the only timekeeper (R36): a frame carries each seat's time as of the
    // running clock's start (state.clock.since) and the server's time when it was sent; the
    // countdown runs from there on this page's monotonic clock, never on the computer's date.
    function serverNow() {
      return st.serverTime ? st.serverTime.server + (performance.now() - st.serverTime.local) : Date.now();
    }
    function timeLeft(c, seat) {
      var left = c.remaining[seat];
      if (c.running === seat) left -= Math.max(0, serverNow() - c.since);
      return Math.max(0, left);
    }
    function tickClocks() {
      var s = st.state, c = s && s.clock;
      if (!c) return;
      var corr = c.control.indexOf("correspondence") === 0;
      document.querySelectorAll("[data-clock]").forEach(function (el) {
        var seat = el.dataset.clock, left = timeLeft(c, seat);
        var opening = c.opening.indexOf(seat) >= 0;
        // Over (an abort, R37): a seat whose opening turn never ran shows its main time,
        // untouched; the one whose opening turn ran out says so.
        if (opening && s.outcome && left > 0 && c.main && c.main[seat] !== undefined) {
          opening = false;
          left = c.main[seat];
        }
        var text = T.clockText(left, c.control);
        // A seat yet to play its opening turn has that turn's own short limit (R36), waiting
        // or not: "0:30" alone read as all the time left of a 10+5 game.
        if (opening) text = s.outcome && left === 0 ? "first turn: time ran out" : "first turn " + text;
        if (c.periods && !opening && c.main[seat] === 0) text += " · " + c.periods[seat] + "×" + c.period / 1000 + "s";
        if (el.textContent !== text) el.textContent = text;
        el.classList.toggle("running", c.running === seat && !s.outcome);
        el.classList.toggle("low", !s.outcome && left < (corr ? 86400000 : 10000));
        el.setAttribute("aria-label", cap(seatName(seat)) + " clock: " + text);
      });
      // At zero, claim the flag once (the server checks it on its own clock; its worker flags
      // the game at the deadline anyway, R37).
      if (!s.outcome && c.running && mySeat && timeLeft(c, c.running) === 0 && st.flagged !== st.version) {
        st.flagged = st.version;
        send({type: "flag", seq: st.seqBase + "-flag-" + st.version});
      }
    }

    // R37: another player's every connection is gone: a claim once its limit has passed.
    function tickAbsence() {
      var a = st.absence, box = $("absence");
      if (!a || !st.state || st.state.outcome || !mySeat) { box.hidden = true; return; }
      var wait = Math.ceil((a.since + a.limit - serverNow()) / 1000);
      box.hidden = false;
      var who = cap(seatName(a.side));
      $("absence-text").textContent = wait > 0 ?
        who + " has left the game. You may claim it in " + wait + " s." :
        who + " has left the game. You may claim it now:";
      $("claim-win").hidden = $("claim-null").hidden = wait > 0;
    }

    // "Your turn" in the tab's title, and a sound if the player asked for one.
    var baseTitle = document.title, wasMyTurn = null;
    function updateTitle() {
      var mine = myTurn();
      document.title = (mine ? "● Your turn · " : "") + baseTitle;
      if (mine && wasMyTurn === false && $("sound") && $("sound").checked) beep();
      wasMyTurn = mine;
    }
    function beep() { if (window.TaluSound) window.TaluSound.beep(); }  // static/play/sound.js

    // ------------------------------------------------------------------------------ socket
    // Reconnects after any loss (a server process restarted, a proxy moved us, the network):
    // exponential backoff with jitter, so a restarted process is not hit by every client at
    // the same instant; the URL names our last version, so the first update fills what we
    // missed.
    function connect() {
      if (st.stopped) return;
      var proto = location.protocol === "https:" ? "wss://" : "ws://";
      // ack=inline: our command's ack comes inside the update that carries it (docs/protocol.md).
      var url = proto + location.host + root.dataset.ws + "?ack=inline";
      if (st.version >= 0) url += "&last_version=" + st.version;
      var ws = new WebSocket(url);
      st.ws = ws;
      setConn("connecting…");
      ws.onopen = function () {
        if (ws !== st.ws) return;
        setConn(navigator.onLine === false ? "offline" : liveLabel());
        if (st.pending) send(st.pending); // a resent command is acknowledged, never applied twice
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
      } else if (!st.ws && !st.stopped) {
        st.retry = 0;
        connect();
      }
    });
    function send(m) {
      if (st.ws && st.ws.readyState === 1 && navigator.onLine !== false) st.ws.send(JSON.stringify(m));
    }

    // The arbiter panel (arbiter.js) sends its actions on this socket and hears every message.
    window.taluSend = send;
    Client.send = send;
    window.taluState = function () { return st.state; };

    function acknowledged(seq) {
      if (st.pending && st.pending.seq === seq) { st.pending = null; refuse(""); }
    }
    function onMessage(m) {
      (listeners[m.type] || []).forEach(function (fn) { fn(m); });
      if (m.type === "notification") {  // the viewer's notices: the page's bell (issue 39)
        document.dispatchEvent(new CustomEvent("talu:notification", {detail: m}));
        return;
      }
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
          // The update that carries our own command acknowledges it too (docs/protocol.md).
          if (m.ack) acknowledged(m.ack.seq);
          if (m.from_version > st.version && st.version >= 0 && m.events.length) {
            send({type: "sync", last_version: st.version}); // a gap: ask for what we missed
            return;
          }
          if (m.version < st.version) return;
          st.version = m.version;
          st.state = m.state;
          st.game = m.game;
          if (m.server_time) st.serverTime = {server: m.server_time, local: performance.now()};
          render(m.events || []);
          break;
        case "ack":
          acknowledged(m.seq);
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
          // R37: another player's every connection is gone (since: null, back again).
          if (m.side !== mySeat) st.absence = m.since === null || m.limit === null ? null :
            {side: m.side, since: m.since, limit: m.limit};
          tickAbsence();
          break;
        case "error":
          // Over the socket's budget (docs/protocol.md): our command was not handled; send it
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

    // A refusal in words, beside the board, until the next accepted command (finding 2).
    var refuseTimer = null;
    function refuse(text) {
      var el = $("refusal");
      clearTimeout(refuseTimer);
      el.textContent = text ? cap(text.replace(/\.$/, "")) + "." : "";
      el.hidden = !text;
      if (text) refuseTimer = setTimeout(function () { el.hidden = true; el.textContent = ""; }, 12000);
    }

    // ------------------------------------------------------------------------------ match
    // Resignation, offers and claims: the same for every game (R37, R38).
    var sound = $("sound");
    if (sound) {
      // this browser's own choice, else the account's setting (static/play/sound.js)
      sound.checked = !!window.TaluSound && window.TaluSound.wanted();
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
    $("adjourn").addEventListener("click", function () { send({type: "adjourn", seq: st.seqBase + "-adj-" + st.version}); });
    $("resume").addEventListener("click", function () { send({type: "resume", seq: st.seqBase + "-res-" + st.version}); });
    ["null", "draw", "takeback"].forEach(function (w) {
      var b = $("offer-" + w);
      if (b) b.addEventListener("click", function () { send({type: "offer", what: w, seq: st.seqBase + "-off-" + st.version}); });
    });
    $("offer-accept").addEventListener("click", function () {
      var o = st.state && st.state.offer;
      if (o) send({type: "offer", what: o.what, seq: st.seqBase + "-acc-" + st.version});
    });
    $("offer-decline").addEventListener("click", function () { send({type: "decline", seq: st.seqBase + "-dec-" + st.version}); });
    $("offer-withdraw").addEventListener("click", function () { send({type: "decline", seq: st.seqBase + "-wd-" + st.version}); });
    $("claim-win").addEventListener("click", function () { send({type: "claim", result: "win", seq: st.seqBase + "-cw"}); });
    $("claim-null").addEventListener("click", function () { send({type: "claim", result: "null", seq: st.seqBase + "-cn"}); });
    var timers = [setInterval(tickClocks, 100), setInterval(tickAbsence, 500)];

    // For review.js: show a past position, or the live game again.
    T.game = {
      root: root,
      state: function () { return st.state; },
      showFrame: function (f) { st.frame = f; render(); },
      live: function () { st.frame = null; render(); }
    };
    // The page stops following the game: the socket closes, the renderer lets go of the board.
    Client.stop = function () {
      st.stopped = true;
      timers.forEach(clearInterval);
      var ws = st.ws;
      st.ws = null;
      if (ws) ws.close();
      if (st.mounted) R.destroy();
    };

    // first paint from the page's embedded state, then go live
    if (initial) {
      st.version = initial.version;
      st.state = initial.state;
      st.game = initial.game;
      render([]);
    }
    connect();
  }
})();
