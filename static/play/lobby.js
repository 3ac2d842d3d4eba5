// The lobby, for a logged-in player: open a game of ours as soon as one starts (our challenge
// was accepted). A file of its own, not an inline script: the site's Content-Security-Policy
// runs scripts from the site's static files only (issue 27). The script tag carries the state
// URL and the games already known (data-state, data-known).
(function () {
  "use strict";
  var me = document.currentScript;
  var stateUrl = me.dataset.state;
  var known = (me.dataset.known || "").split(" ").filter(function (id) { return id; });
  function poll() {
    fetch(stateUrl, {credentials: "same-origin"}).then(function (r) { return r.json(); })
      .then(function (d) {
        var ids = d.my_games.map(function (g) { return g.id; });
        var fresh = d.my_games.filter(function (g) { return known.indexOf(g.id) < 0; });
        if (fresh.length) { window.location.href = fresh[0].url; return; }
        known = ids;
      }).catch(function () {}).finally(function () { setTimeout(poll, 1500); });
  }
  poll();
})();
