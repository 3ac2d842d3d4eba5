/* The arbiter's tools (R39): the console's live list of games with their warning signs, and
   the arbiter panel of a game page (signs per turn, the actions). Actions on a game in play go
   over the game's websocket (client.js's socket, window.taluSend) as commands of the one
   command path; annul, after the game, over the REST API. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  function esc(t) { return String(t).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); }
  function csrf() {
    var m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }

  function signsHtml(g) {
    var s = g.signs, out = [];
    if (!s) {  // another game than talu: the book's warning signs (R12-R14) are talu's
      if (g.absence) out.push("R37 absence: " + absenceHtml(g.absence, performance.now(), g).replace(/<br>/g, " · "));
      out.push("Turn " + g.round + (g.to_move ? " · " + esc(seatWords(g, g.to_move)) + " to move" : ""));
      return out.map(function (x) { return "<p>" + x + "</p>"; }).join("");
    }
    out.push((s.flagged ? '<strong class="sign-hot">R14 flagged</strong> · ' : "R14 ") +
      "non-engaging in a row: I " + s.non_engaging_run.I + " · O " + s.non_engaging_run.O +
      (s.warned.length ? " · warned: " + s.warned.join(", ") : ""));
    var hot = Math.max(s.passes_in_a_row.I, s.passes_in_a_row.O, s.game_passes_in_a_row) >= 2;
    out.push((hot ? '<strong class="sign-hot">' : "<span>") + "R12 counting as passes in a row: I " +
      s.passes_in_a_row.I + "/3 · O " + s.passes_in_a_row.O + "/3 · the game " + s.game_passes_in_a_row + "/3" +
      (hot ? "</strong>" : "</span>"));
    out.push("R13 stalls: " + (s.stalls.length ? s.stalls.map(function (x) {
      return esc(x.turn) + " repeats " + esc(x.repeats);
    }).join("; ") : "none"));
    if (g.absence) out.push("R37 absence: " + absenceHtml(g.absence, performance.now(), g).replace(/<br>/g, " · "));
    if (s.turns.length) {
      out.push("Last turns: " + s.turns.map(function (t) {
        return esc(t.turn) + (t.counts_as_pass ? " (pass)" : "");
      }).join(" · "));
    }
    return out.map(function (x) { return "<p>" + x + "</p>"; }).join("");
  }

  // ------------------------------------------------------------------------------ console
  var T = window.Talu || {};
  var SIDE_WORDS = {I: "light", O: "dark"};
  // A seat in words: the row's players say their labels (any game); talu's I and O by name.
  function seatWords(g, seat) {
    var p = (g && g.players || []).filter(function (x) { return x.seat === seat; })[0];
    return p ? p.label : (SIDE_WORDS[seat] || seat);
  }
  // R36: each side's time left, the running one counted down from the poll's server time.
  function clocksHtml(c, since) {
    if (!c) return "untimed";
    return esc(c.label) + "<br>" + Object.keys(c.left).map(function (side) {
      var left = c.left[side];
      if (c.running === side) left = Math.max(0, left - (performance.now() - since));
      var text = T.clockText ? T.clockText(left, c.control) : Math.ceil(left / 1000) + " s";
      if (c.opening.indexOf(side) >= 0) text = "first turn " + text;
      var low = left < (c.control.indexOf("correspondence") === 0 ? 86400000 : 10000);
      return '<span class="' + (c.running === side ? "clock-running" : "") + (low ? " sign-hot" : "") +
        '" data-clock-of="' + side + '">' + side + " " + text + (c.running === side ? " ▸" : "") + "</span>";
    }).join("<br>");
  }
  // R37: who is gone, for how long, and whether the opponent may claim the game now.
  function absenceHtml(a, since, g) {
    var out = Object.keys(a).map(function (side) {
      var x = a[side];
      if (x.gone === null) return "";
      var gone = x.gone + (performance.now() - since), secs = Math.floor(gone / 1000);
      var words = secs < 120 ? secs + " s" : Math.floor(secs / 60) + " min";
      var claim = x.limit !== null && gone >= x.limit;
      return (claim ? '<strong class="sign-hot">' : "<span>") + esc(seatWords(g, side)) + " gone " + words +
        (claim ? " · claimable" : x.limit !== null ? " (claim after " + Math.round(x.limit / 1000) + " s)" : "") +
        (claim ? "</strong>" : "</span>");
    }).filter(Boolean);
    return out.length ? out.join("<br>") : "both connected";
  }
  var consoleEl = $("arbiter-console");
  if (consoleEl) {
    var games = null, fetched = 0;
    var render = function () {
      var body = $("console-games");
      if (!games) return;
      if (!games.length) {
        body.innerHTML = '<tr class="empty"><td colspan="8">No live game to arbitrate.</td></tr>';
        return;
      }
      body.innerHTML = games.map(function (g) {
        var s = g.signs;
        return '<tr data-game="' + g.id + '"><td><a href="' + g.url + '">' + esc(g.I) + " – " + esc(g.O) +
          "</a><br><small>" + esc(g.variant) + "</small></td><td>" + (g.event ? '<a href="' +
          esc(g.event.url) + '">' + esc(g.event.name) + "</a>: round " + g.event.round + ", board " +
          g.event.board + "<br>" : "") + "turn " + g.round +
          (g.to_move ? " · " + esc(seatWords(g, g.to_move)) + " to move" : "") + '</td><td class="console-clocks">' +
          clocksHtml(g.clock, fetched) + '</td><td class="console-absence">' + absenceHtml(g.absence, fetched, g) + "</td><td>" +
          (s ? (s.flagged ? '<strong class="sign-hot">flagged</strong><br>' : "") + "I " + s.non_engaging_run.I +
          " · O " + s.non_engaging_run.O + (s.warned.length ? "<br>warned: " + s.warned.join(", ") : "") +
          "</td><td>I " + s.passes_in_a_row.I + "/3 · O " + s.passes_in_a_row.O + "/3 · game " +
          s.game_passes_in_a_row + "/3</td><td>" + (s.stalls.length ? s.stalls.map(function (x) {
            return esc(x.turn) + " repeats " + esc(x.repeats);
          }).join("<br>") : "–") : "–</td><td>–</td><td>–") + "</td><td>" + g.arbiter.length + "</td></tr>";
      }).join("");
    };
    var poll = function () {
      fetch(consoleEl.dataset.state, {credentials: "same-origin"}).then(function (r) {
        return r.ok ? r.json() : null;
      }).then(function (data) {
        if (!data) return;
        games = data.games;
        fetched = performance.now();
        render();
      }).catch(function () {});
    };
    poll();
    setInterval(poll, 3000);
    // the running clocks and the absences tick between polls (their cells only: a full
    // render would take the focus from a link)
    setInterval(function () {
      (games || []).forEach(function (g) {
        var row = consoleEl.querySelector('tr[data-game="' + g.id + '"]');
        if (!row) return;
        row.querySelector(".console-clocks").innerHTML = clocksHtml(g.clock, fetched);
        row.querySelector(".console-absence").innerHTML = absenceHtml(g.absence, fetched, g);
      });
    }, 1000);
  }

  // ---------------------------------------------------------------------- the game page
  var tools = $("arbiter-tools");
  if (!tools) return;
  var n = 0, status = $("arb-status"), signsTimer = null;
  function say(text, bad) {
    status.textContent = text;
    status.classList.toggle("bad", !!bad);
  }
  function refreshSigns() {
    clearTimeout(signsTimer);
    signsTimer = setTimeout(function () {
      fetch(tools.dataset.signs, {credentials: "same-origin"}).then(function (r) {
        return r.ok ? r.json() : null;
      }).then(function (g) {
        if (!g) return;
        $("signs").innerHTML = signsHtml(g);
        var turnBox = $("arb-turn");  // talu's count as pass only: another game has none
        if (turnBox && g.signs.last_turn && !turnBox.value) turnBox.value = g.signs.last_turn;
      }).catch(function () {});
    }, 150);
  }
  function finished() {
    var s = window.taluState && window.taluState();
    return !!(s && s.outcome);
  }
  function sync() {
    var over = finished();
    tools.querySelectorAll("button[data-action]").forEach(function (b) {
      b.hidden = (b.dataset.action === "annul") ? !over : over;
    });
  }
  window.taluArbiter = function (m) {
    if (m.type === "update") { refreshSigns(); sync(); return; }
    if (m.type === "ack") say("Done: recorded as event " + m.version + " of the game.");
    else if (m.type === "rejected") say(m.reason || "Refused", true);
  };
  tools.addEventListener("click", function (e) {
    var b = e.target.closest("button[data-action]");
    if (!b) return;
    var action = b.dataset.action, reason = $("arb-reason").value.trim();
    if (!reason) { say("Every arbiter action needs a reason in words (R39).", true); $("arb-reason").focus(); return; }
    var side = $("arb-side").value, turn = $("arb-turn") ? $("arb-turn").value.trim() : "";
    if ((action === "forfeit" || action === "null" || action === "annul") &&
        !window.confirm(action === "forfeit" ? side + " loses by your decision. Sure?" :
                        action === "null" ? "The game ends null by your decision. Sure?" :
                        "Annul this game? It stops counting and ratings are recomputed.")) return;
    if (action === "annul") {
      fetch(tools.dataset.annul, {method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRFToken": csrf()},
        body: JSON.stringify({action: "annul", reason: reason})}).then(function (r) {
        return r.json().then(function (d) { say(r.ok ? "The game is annulled (R30)." : d.detail, !r.ok); });
      }).catch(function () { say("The server could not be reached.", true); });
      return;
    }
    var msg = {type: action, reason: reason, seq: "arb-" + Date.now() + "-" + (++n)};
    if (action === "warn" || action === "forfeit") msg.side = side;
    if (action === "count_as_pass") msg.turn = turn;
    // R38: a resumption at a set time (the field is the arbiter's local time)
    var at = $("arb-resume-at") && $("arb-resume-at").value;
    if (action === "resume" && at) msg.at = new Date(at).getTime();
    if (action === "add_time") {  // R39: seconds to the side's clock (the server checks them)
      msg.side = side;
      msg.seconds = Number($("arb-seconds").value);
      if (!Number.isInteger(msg.seconds) || msg.seconds < 1) {
        say("Add time needs the seconds to add, a whole number above 0.", true);
        $("arb-seconds").focus();
        return;
      }
    }
    say("Sending…");
    window.taluSend(msg);
  });
  refreshSigns();
  setTimeout(sync, 300);
})();
