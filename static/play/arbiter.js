/* The arbiter's tools (R39): the console's live list of games with their warning signs, and
   the arbiter panel of a game page (signs per turn, the actions). Actions on a game in play go
   over the game's websocket (board.js's socket, window.taluSend) as commands of the one
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
    if (s.turns.length) {
      out.push("Last turns: " + s.turns.map(function (t) {
        return esc(t.turn) + (t.counts_as_pass ? " (pass)" : "");
      }).join(" · "));
    }
    return out.map(function (x) { return "<p>" + x + "</p>"; }).join("");
  }

  // ------------------------------------------------------------------------------ console
  var consoleEl = $("arbiter-console");
  if (consoleEl) {
    var poll = function () {
      fetch(consoleEl.dataset.state, {credentials: "same-origin"}).then(function (r) {
        return r.ok ? r.json() : null;
      }).then(function (data) {
        if (!data) return;
        var body = $("console-games");
        if (!data.games.length) {
          body.innerHTML = '<tr class="empty"><td colspan="6">No live game to arbitrate.</td></tr>';
          return;
        }
        body.innerHTML = data.games.map(function (g) {
          var s = g.signs;
          return '<tr data-game="' + g.id + '"><td><a href="' + g.url + '">' + esc(g.I) + " – " + esc(g.O) +
            "</a><br><small>" + esc(g.variant) + "</small></td><td>" + g.round +
            (g.to_move ? " · " + g.to_move + " to move" : "") + "</td><td>" +
            (s.flagged ? '<strong class="sign-hot">flagged</strong><br>' : "") + "I " + s.non_engaging_run.I +
            " · O " + s.non_engaging_run.O + (s.warned.length ? "<br>warned: " + s.warned.join(", ") : "") +
            "</td><td>I " + s.passes_in_a_row.I + "/3 · O " + s.passes_in_a_row.O + "/3 · game " +
            s.game_passes_in_a_row + "/3</td><td>" + (s.stalls.length ? s.stalls.map(function (x) {
              return esc(x.turn) + " repeats " + esc(x.repeats);
            }).join("<br>") : "–") + "</td><td>" + g.arbiter.length + "</td></tr>";
        }).join("");
      }).catch(function () {});
    };
    setInterval(poll, 3000);
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
        if (g.signs.last_turn && !$("arb-turn").value) $("arb-turn").value = g.signs.last_turn;
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
    var side = $("arb-side").value, turn = $("arb-turn").value.trim();
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
    say("Sending…");
    window.taluSend(msg);
  });
  refreshSigns();
  setTimeout(sync, 300);
})();
