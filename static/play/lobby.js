/* The lobby: open a game of ours as soon as one starts (our challenge was accepted).
 * A static file (no inline script: the site's Content-Security-Policy forbids them). */
(function () {
  "use strict";
  var me = document.getElementById("lobby-script");
  var ids = document.getElementById("my-game-ids");
  if (!me || !ids) return;
  var known = JSON.parse(ids.textContent);
  var url = me.dataset.stateUrl;
  function poll() {
    fetch(url, {credentials: "same-origin"}).then(function (r) { return r.json(); })
      .then(function (d) {
        var fresh = d.my_games.filter(function (g) { return known.indexOf(g.id) < 0; });
        if (fresh.length) { window.location.href = fresh[0].url; return; }
        known = d.my_games.map(function (g) { return g.id; });
      }).catch(function () {}).finally(function () { setTimeout(poll, 1500); });
  }
  poll();
})();
