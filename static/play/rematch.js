/* Rematch on the result screen (issue 24): the loser or the winner offers one (a challenge to
 * the same opponent, colours swapped, the form in game.html); the other player's finished
 * game page notices it (the lobby's state, polled) and offers to accept it in place. */
(function () {
  "use strict";
  var root = document.getElementById("game");
  var box = document.getElementById("rematch");
  var accept = document.getElementById("rematch-accept");
  // The computer offers no rematch: its game's button starts a new one at once.
  if (!root || !box || !accept || !root.dataset.side || root.dataset.computer) return;
  var me = root.dataset.me;
  var timer = null;
  function opponent() {
    var s = window.Talu && window.Talu.game && window.Talu.game.state();
    return s ? s : null;
  }
  function poll() {
    fetch("/lobby/state.json", {credentials: "same-origin"}).then(function (r) { return r.json(); })
      .then(function (d) {
        var mine = d.challenges.filter(function (c) { return c.opponent === me && c.creator !== me; })[0];
        if (mine) {
          accept.action = "/challenges/" + mine.id + "/accept/";
          accept.hidden = false;
          accept.querySelector("button").textContent = "Accept " + mine.creator + "'s rematch";
        }
      }).catch(function () {}).finally(function () { timer = setTimeout(poll, 3000); });
  }
  document.addEventListener("talu:render", function (e) {
    if (e.detail.state && e.detail.state.outcome && timer === null && opponent()) { timer = 0; poll(); }
  });
})();
