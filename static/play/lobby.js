/* The challenge form: the custom time field only when "custom" is chosen (R36's presets
 * otherwise). A static file: the site's Content-Security-Policy runs no inline script. */
(function () {
  "use strict";
  var time = document.getElementById("id_time"), custom = document.getElementById("id_custom_time");
  if (!time || !custom) return;
  var row = custom.closest("p");
  var show = function () { row.hidden = time.value !== "custom"; };
  time.addEventListener("change", show);
  show();
})();
/* The lobby: open a game of ours as soon as one starts (our challenge was accepted, or the
 * quick-pairing pool paired us), and keep the pool's counts and our wait up to date.
 * Live over the lobby's websocket (/ws/lobby/, play/live/lobby.py): "changed" makes us fetch
 * the lobby's state once, "paired" (a pool) and "started" (an event's round) open our game;
 * without the socket we poll instead.
 * Joining and cancelling stay on the page (fetch); leaving the page while waiting takes us out
 * of the pool at once (a beacon). A static file (no inline script: the site's
 * Content-Security-Policy forbids them). */
(function () {
  "use strict";
  var me = document.getElementById("lobby-script");
  var ids = document.getElementById("my-game-ids");
  if (!me || !ids) return;
  var known = JSON.parse(ids.textContent);
  var url = me.dataset.stateUrl;
  var joinForm = document.getElementById("pool-form");
  var leaveForm = document.getElementById("pool-leave");
  var box = document.getElementById("pairing");
  var variant = document.getElementById("id_pool_variant");
  var pools = [];
  var waiting = box && !box.hidden;
  var timer = null;
  var live = false;  // the lobby socket is open: no polling, only a slow safety refresh
  var waited = null;  // seconds waited at the last state, and when it came
  var waitedAt = 0;

  function text(sel, value) {
    var el = box.querySelector(sel);
    if (el) el.textContent = value;
  }

  function minutes(s) {
    var m = Math.floor(s / 60), r = s % 60;
    return m + ":" + (r < 10 ? "0" : "") + r;
  }

  function showCounts() {
    if (!joinForm) return;
    joinForm.querySelectorAll("button[data-tc]").forEach(function (b) {
      var p = pools.filter(function (q) {
        return q.variant === variant.value && q.time_control === b.dataset.tc &&
          (q.rated ? "1" : "0") === b.dataset.rated;
      })[0];
      var c = b.querySelector("[data-count]");
      if (p && c) c.textContent = p.waiting + " waiting";
    });
  }

  function showPairing(p) {
    if (!box) return;
    waiting = p.status === "waiting";
    box.hidden = !waiting;
    if (!waiting) return;
    text("[data-pool-label]", (p.pool.title || p.pool.variant) + " " + p.pool.time + " " +
      (p.pool.rated ? "rated" : "freeplay"));
    waited = p.waited_seconds;
    waitedAt = Date.now();
    text("[data-waited]", minutes(p.waited_seconds));
    text("[data-in-range]", p.in_range);
    text("[data-range]", p.range);
    text("[data-players]", p.players_waiting);
    // R47: the two who just played each other are never paired: say so, and what to do.
    var met = box.querySelector("[data-last-opponent]");
    if (met) {
      met.hidden = !p.last_opponent;
      if (p.last_opponent) {
        met.textContent = "";
        met.appendChild(el("strong", p.last_opponent.name));
        met.appendChild(document.createTextNode(" is waiting too, but you have just played " +
          "each other, and quick pairing never pairs the same two players twice in a row. To " +
          "play them again, offer a rematch from your last game or challenge them by name " +
          "below; or wait here for another player."));
      }
    }
    var hint = box.querySelector("[data-psf-hint]");
    if (hint) {
      hint.hidden = !p.psf;
      if (p.psf) {
        hint.textContent = "Your PSF is ~" + p.psf.psf + " (aNPc " + p.psf.anpc + "). " +
          "Against the weakest opponent your range takes now (" + p.psf.lowest + "), a game " +
          "at your aNPc changes your rating by " + (p.psf.change > 0 ? "+" : "") + p.psf.change + ".";
      }
    }
  }

  function el(tag, text, attrs) {
    var e = document.createElement(tag);
    if (text) e.textContent = text;
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }

  function list(id, items, empty, render) {
    var ul = document.getElementById(id);
    if (!ul) return;
    while (ul.firstChild) ul.removeChild(ul.firstChild);
    if (!items.length) { ul.appendChild(el("li", empty, {"class": "hint"})); return; }
    items.forEach(function (item) { ul.appendChild(render(item)); });
  }

  function challengeItem(c) {  // as templates/play/lobby.html renders one
    var li = el("li", c.creator + " · " + c.variant + " · ");
    li.appendChild(el("span", c.time, {"data-testid": "time"}));
    li.appendChild(document.createTextNode(" · " + (c.rated ? "rated" : "freeplay")));
    if (c.opponent) {
      li.appendChild(document.createTextNode(" · "));
      li.appendChild(el("strong", "for you"));
    }
    if (c.psf) {
      var hint = el("span", c.psf.opponent + " ", {"data-testid": "psf-" + c.creator});
      if (c.psf.below) hint.appendChild(el("strong", "below your PSF", {"class": "psf-below"}));
      hint.appendChild(document.createTextNode(" · at your aNPc " +
        (c.psf.change > 0 ? "+" : "") + c.psf.change));
      li.appendChild(document.createTextNode(" · "));
      li.appendChild(hint);
    }
    var token = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (token && me.dataset.acceptUrl) {
      var form = el("form", "", {method: "post", "class": "inline",
                                 action: me.dataset.acceptUrl.replace("/0/", "/" + c.id + "/")});
      form.appendChild(el("input", "", {type: "hidden", name: "csrfmiddlewaretoken",
                                        value: token.value}));
      form.appendChild(el("button", "Accept", {type: "submit",
                                               "data-testid": "accept-" + c.creator}));
      li.appendChild(document.createTextNode(" "));
      li.appendChild(form);
    }
    return li;
  }

  function liveItem(g) {
    var li = el("li");
    li.appendChild(el("a", g.title || (g.I + " (light) vs " + g.O + " (dark)"),
                      {href: g.url, "data-testid": "watch"}));
    li.appendChild(document.createTextNode(" · " + g.variant + " · " + g.time + " · " +
                                           (g.rated ? "rated" : "freeplay")));
    return li;
  }

  var first = true;  // the page as rendered is fresh: keep its lists until something changes
  function show(d) {
    var fresh = d.my_games.filter(function (g) { return known.indexOf(g.id) < 0; });
    if (fresh.length) { waiting = false; window.location.href = fresh[0].url; return true; }
    known = d.my_games.map(function (g) { return g.id; });
    pools = d.pools || pools;
    showCounts();
    if (!first) {
      list("challenges", d.challenges, "None right now.", challengeItem);
      list("live", d.live, "No live games.", liveItem);
    }
    first = false;
    if (d.pairing) showPairing(d.pairing);
    // the open tables and the pool for three (issue 37) are drawn by static/play/tables.js
    document.dispatchEvent(new CustomEvent("talu:lobby-state", {detail: d}));
    return false;
  }

  function poll() {
    clearTimeout(timer);
    fetch(url, {credentials: "same-origin"}).then(function (r) { return r.json(); })
      .then(function (d) { if (show(d)) return; schedule(); })
      .catch(schedule);
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(poll, live ? 30000 : (waiting ? 1000 : 3000));
  }

  var soon = null;
  function refreshSoon() {  // many pages hear one change: spread their fetches a little
    if (soon) return;
    soon = setTimeout(function () { soon = null; poll(); }, 50 + Math.random() * 250);
  }

  function connect() {
    if (!window.WebSocket) return;
    var ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") +
                           location.host + "/ws/lobby/");
    ws.onopen = function () { live = true; document.body.dataset.lobbyLive = "1"; poll(); };
    ws.onmessage = function (e) {
      var m;
      try { m = JSON.parse(e.data); } catch (err) { return; }
      // "paired": a pool paired us (R47); "started": an event's round started our game (R41)
      if ((m.type === "paired" || m.type === "started") && m.url) {
        waiting = false;
        window.location.href = m.url;
      }
      else if (m.type === "changed") refreshSoon();
      // a notice for us (issue 39): the header's bell (static/notices/bell.js) shows it
      else if (m.type === "notification") {
        document.dispatchEvent(new CustomEvent("talu:notification", {detail: m}));
      }
    };
    ws.onclose = function () {
      live = false;
      delete document.body.dataset.lobbyLive;
      schedule();
      setTimeout(connect, 5000);
    };
  }

  setInterval(function () {  // the wait ticks on between two states
    if (waiting && waited !== null && box) {
      text("[data-waited]", minutes(waited + Math.floor((Date.now() - waitedAt) / 1000)));
    }
  }, 1000);

  function post(form, submitter) {
    var data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    return fetch(form.action, {method: "POST", body: data, credentials: "same-origin",
                               headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (d) {
        var note = document.getElementById("pool-message");
        if (note) note.textContent = d.ok ? "" : d.message;
        if (d.pairing) showPairing(d.pairing);
        poll();
      });
  }

  if (joinForm) {
    joinForm.addEventListener("submit", function (e) {
      e.preventDefault();
      post(joinForm, e.submitter);
    });
    variant.addEventListener("change", showCounts);
  }
  if (leaveForm) {
    leaveForm.addEventListener("submit", function (e) {
      e.preventDefault();
      post(leaveForm);
    });
    window.addEventListener("pagehide", function () {
      if (waiting && navigator.sendBeacon) {
        var data = new FormData(leaveForm);
        data.append("beacon", "1");  // no message kept for the next page
        navigator.sendBeacon(me.dataset.leaveUrl, data);
      }
    });
  }
  // The challenge form speaks the chosen variant's words: "Play as" names its seats (tafl's
  // attackers and defenders, not talu's light and dark) and only its own options show.
  var seatsData = document.getElementById("variant-seats");
  function speakVariant(variantEl, sideEl, form) {
    var all = seatsData ? JSON.parse(seatsData.textContent) : {};
    var v = all[variantEl.value];
    if (!v) return;
    Array.prototype.forEach.call(sideEl.options, function (o) {
      if (o.value === "I") o.textContent = v.seats[0] + " (moves first)";
      if (o.value === "O") o.textContent = v.seats[1];
    });
    Array.prototype.forEach.call(form.querySelectorAll("input[name=options]"), function (box) {
      var shown = v.options.indexOf(box.value) >= 0;
      if (!shown) box.checked = false;
      var label = box.closest("label") || box;
      label.hidden = !shown;
    });
    var group = form.querySelector("#id_options");  // its label's <p> ends before the div
    if (group) {
      group.hidden = !v.options.length;
      var prev = group.previousElementSibling;
      if (prev && prev.tagName === "P" && prev.querySelector("label")) prev.hidden = group.hidden;
    }
  }
  // The challenge form and the computer's speak the chosen variant's words: "Play as" names
  // its seats (tafl's attackers and defenders, not talu's light and dark) and only its own
  // options show.
  [["id_variant", "id_side", "challenge-form"], ["id_computer_variant", "id_computer_side", "computer-form"]]
    .forEach(function (ids) {
      var v = document.getElementById(ids[0]), sd = document.getElementById(ids[1]),
        f = document.getElementById(ids[2]);
      if (!v || !sd || !f) return;
      var go = function () { speakVariant(v, sd, f); };
      v.addEventListener("change", go);
      go();
    });
  poll();
  connect();
})();
