/* The bell in the header (issue 39, registry/notices): the unread count of the player's
 * notices, rendered with the page. Live on the lobby page: its socket (/ws/lobby/) carries
 * {"type": "notification", "unread", "text", "url"}, which lobby.js hands on as the document
 * event "talu:notification". Every other page holds no socket of its own for this: the bell
 * asks notifications/unread.json once a minute (and when the tab comes back into view).
 * No inline script: the site's Content-Security-Policy. */
(function () {
  "use strict";
  var bell = document.querySelector("[data-bell]");
  if (!bell) return;
  var count = bell.querySelector("[data-bell-count]");
  var POLL = 60000;

  function show(d) {
    if (!d || typeof d.unread !== "number") return;
    var n = Math.max(0, d.unread | 0);
    count.textContent = String(n);
    count.hidden = n === 0;
    bell.setAttribute("aria-label", "Notifications, " + n + " unread");
    bell.title = n && d.text ? "Notifications: " + d.text : "Notifications";
  }

  function poll() {
    if (document.hidden || document.body.dataset.lobbyLive) return;  // the socket tells us
    fetch(bell.dataset.poll, {credentials: "same-origin",
                              headers: {"Accept": "application/json"}})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(show)
      .catch(function () {});  // offline for a moment: the next minute asks again
  }

  document.addEventListener("talu:notification", function (e) { show(e.detail); });
  document.addEventListener("visibilitychange", poll);
  setInterval(poll, POLL);
})();
