/* The site's one sound (issue 38, finding 3; issue 39's setting): a short tone when it is
 * the player's turn (static/play/client.js) or their event round has started on any page
 * (static/notices/bell.js). Wanted when this browser said so on a game page (localStorage
 * "talu.sound", the game page's checkbox), else as the account's setting says (data-sound
 * on <html>, /accounts/settings/). Browsers play it only once the page has had a click or
 * a key: before that it stays silent, and the banner alone tells. No inline script: the
 * site's Content-Security-Policy. */
(function () {
  "use strict";
  var ctx = null;
  window.TaluSound = {
    wanted: function () {
      var saved = null;
      try { saved = localStorage.getItem("talu.sound"); } catch (err) { /* private mode */ }
      return saved !== null ? saved === "1" : document.documentElement.dataset.sound === "on";
    },
    beep: function () {
      try {
        var Ctx = window.AudioContext || window.webkitAudioContext;
        ctx = ctx || new Ctx();
        var o = ctx.createOscillator(), gn = ctx.createGain();
        o.frequency.value = 660; gn.gain.value = 0.08;
        o.connect(gn); gn.connect(ctx.destination);
        o.start(); o.stop(ctx.currentTime + 0.15);
        window.TaluSound.played = (window.TaluSound.played || 0) + 1;  // tests read it
      } catch (err) { /* no sound, no harm */ }
    }
  };
})();
