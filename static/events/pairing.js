// The round being paired (issue 40): the worker pairs it while this page polls its state,
// shows the arbiter's progress, and reloads the page once the round is there (or the pairing
// failed: the page then says why). No request of the page waits for the pairing.
(function () {
  "use strict";
  var box = document.querySelector("[data-pairing-poll]");
  if (!box) {
    return;
  }
  var url = box.getAttribute("data-pairing-poll");
  var number = Number(box.getAttribute("data-number"));
  var bar = box.querySelector("[data-testid=pairing-bar]");
  var words = box.querySelector("[data-testid=pairing-progress]");
  var EVERY = 1000;

  function show(p) {
    if (!p.total) {
      return;
    }
    if (bar) {
      bar.max = p.total;
      bar.value = p.done;
    }
    if (words) {
      words.textContent = p.done + " of " + p.total + " players paired";
    }
  }

  function tick() {
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (state) {
        var p = state && state.pairing;
        if (state && (!p || p.number !== number || p.state === "failed")) {
          window.location.reload();  // paired (or refused): the page has it now
          return;
        }
        if (p) {
          show(p);
        }
        window.setTimeout(tick, EVERY);
      })
      .catch(function () { window.setTimeout(tick, EVERY * 3); });
  }

  window.setTimeout(tick, EVERY);
})();
