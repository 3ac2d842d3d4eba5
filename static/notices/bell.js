/* The bell in the header (issue 39, registry/notices): the unread count of the player's
 * notices, rendered with the page. Live on the lobby page: its socket (/ws/lobby/) carries
 * {"type": "notification", "unread", "text", "url"}, which lobby.js hands on as the document
 * event "talu:notification". Every other page holds no socket of its own for this: the bell
 * asks notifications/unread.json once a minute (and when the tab comes back into view), every
 * few seconds for a player entered in a running event (below: their round's start).
 * No inline script: the site's Content-Security-Policy. */
(function () {
  "use strict";
  var bell = document.querySelector("[data-bell]");
  if (!bell) return;
  var count = bell.querySelector("[data-bell-count]");
  var POLL = 60000;

  // A round of the player's event that starts while this page is open (issue 38, finding 3):
  // the same banner the server puts on every page, with a sound if the player wants one.
  // Entrants of a running event (the banner's marker, data-event-entrant) ask every few
  // seconds: a round's opening turn is short (R36, R41).
  var FAST = 5000, marker = document.querySelector("[data-event-entrant]");
  var seen = marker ? marker.dataset.game || "" : null;
  function roundStarted(r) {
    if (!r || r.game === seen) return;
    seen = r.game;
    if (location.pathname === r.url) return;  // the game itself is this page
    var old = document.querySelector("[data-testid=event-banner]");
    if (old) old.remove();
    var p = document.createElement("p"), a = document.createElement("a");
    p.className = "banner"; p.setAttribute("role", "status");
    p.setAttribute("data-testid", "event-banner");
    p.dataset.eventEntrant = ""; p.dataset.game = r.game;
    a.href = r.url; a.textContent = "Play it now";
    p.append(r.text + " ", a);
    var main = document.getElementById("main") || document.body;
    main.insertBefore(p, main.firstChild);
    if (window.TaluSound && window.TaluSound.wanted()) window.TaluSound.beep();
  }

  function show(d) {
    if (!d || typeof d.unread !== "number") return;
    if (d.round) roundStarted(d.round);
    if (d.fast && seen === null) seen = "";  // entered in a running event since the page
    // came: ask every few seconds from now on
    var n = Math.max(0, d.unread | 0);
    count.textContent = String(n);
    count.hidden = n === 0;
    bell.setAttribute("aria-label", "Notifications, " + n + " unread");
    bell.title = n && d.text ? "Notifications: " + d.text : "Notifications";
  }

  function poll() {
    var entrant = seen !== null;
    if (document.hidden || (document.body.dataset.lobbyLive && !entrant)) return;  // the
    // lobby's socket tells the count, and a hidden tab asks when it is seen again
    fetch(bell.dataset.poll, {credentials: "same-origin",
                              headers: {"Accept": "application/json"}})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(show)
      .catch(function () {});  // offline for a moment: the next round asks again
  }

  function loop() {
    poll();
    setTimeout(loop, seen !== null ? FAST : POLL);
  }

  document.addEventListener("talu:notification", function (e) { show(e.detail); });
  document.addEventListener("visibilitychange", poll);
  setTimeout(loop, seen !== null ? FAST : POLL);
})();
