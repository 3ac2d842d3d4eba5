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
