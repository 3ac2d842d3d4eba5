// The lobby's tables of more than two seats and its pool for three (issue 37), beside
// lobby.js: the open tables drawn again from each lobby state (lobby.js sends it as the
// event "talu:lobby-state"), as templates/play/lobby_table_row.html draws them; the table
// form's seats follow the chosen game; the wait in the pool for three ticks on, and leaving
// the page takes the player out of that pool (as the two-player pool's does). No inline
// script (the CSP): the seats come in the JSON block "table-seats".
(function () {
  "use strict";
  var me = document.getElementById("tables-script");
  if (!me) return;
  var seatsEl = document.getElementById("table-seats");
  var seats = seatsEl ? JSON.parse(seatsEl.textContent) : {};
  var tableUrl = me.dataset.tableUrl;  // "/tables/0/take/": the id and the action replaced

  function csrf() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function el(tag, text, attrs) {
    var e = document.createElement(tag);
    if (text) e.textContent = text;
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }

  function form(table, action, seat, button, extra) {
    var f = el("form", "", {method: "post", "class": "inline",
                           action: tableUrl.replace("/0/take/", "/" + table + "/" + action + "/")});
    f.appendChild(el("input", "", {type: "hidden", name: "csrfmiddlewaretoken", value: csrf()}));
    if (seat) f.appendChild(el("input", "", {type: "hidden", name: "seat", value: seat}));
    if (extra) { f.appendChild(extra); f.appendChild(document.createTextNode(" ")); }
    f.appendChild(button);
    return f;
  }

  function tableItem(t) {  // as templates/play/lobby_table_row.html draws one
    var li = el("li", "", {id: "table-" + t.id, "data-table": String(t.id)});
    li.appendChild(el("strong", t.title));
    li.appendChild(document.createTextNode(" · " + t.time + " · " +
                                           (t.rated ? "rated" : "casual") + " · by " + t.creator));
    var ul = el("ul", "", {"class": "table-seats"});
    t.seats.forEach(function (s) {
      var item = el("li", s.label + ": ", {"data-seat": s.seat});
      if (s.open) item.appendChild(el("em", "open"));
      else item.appendChild(document.createTextNode(s.who));
      item.appendChild(document.createTextNode(" "));
      if (s.may_take) {
        item.appendChild(form(t.id, "take", s.seat, el("button", "Take this seat",
          {type: "submit", "data-testid": "take-" + t.id + "-" + s.seat})));
      }
      if (s.may_give) {
        var level = el("select", "", {name: "level", "aria-label": "The computer's level"});
        t.levels.forEach(function (n) { level.appendChild(el("option", "level " + n, {value: n})); });
        item.appendChild(form(t.id, "computer", s.seat, el("button", "Give to the computer",
          {type: "submit", "data-testid": "give-" + t.id + "-" + s.seat}), level));
      }
      if (s.may_take_back) {
        item.appendChild(form(t.id, "take-back", s.seat, el("button", "take back",
          {type: "submit", "class": "link", "data-testid": "back-" + t.id + "-" + s.seat})));
      }
      if (s.may_leave) {
        item.appendChild(form(t.id, "leave", "", el("button", "leave",
          {type: "submit", "class": "link", "data-testid": "leave-" + t.id})));
      }
      ul.appendChild(item);
    });
    li.appendChild(ul);
    if (t.mine) {
      li.appendChild(form(t.id, "close", "", el("button", "close the table",
        {type: "submit", "class": "link", "data-testid": "close-" + t.id})));
    }
    return li;
  }

  var box = document.getElementById("three-state");
  var waited = null, waitedAt = 0, fillIn = null;

  function showThree(p) {
    if (!box) return;
    var waiting = p.status === "waiting";
    box.hidden = !waiting;
    if (!waiting) { waited = null; return; }
    var set = function (sel, v) { var e = box.querySelector(sel); if (e) e.textContent = v; };
    set("[data-three-label]", p.title + " " + p.time);
    set("[data-three-players]", p.players_waiting);
    waited = p.waited_seconds; waitedAt = Date.now();
    fillIn = p.fill_in_seconds === undefined ? null : p.fill_in_seconds;
    var fill = box.querySelector("[data-three-fill]");
    if (fill) fill.hidden = fillIn === null;
    tick();
  }

  function tick() {
    if (!box || waited === null) return;
    var gone = Math.floor((Date.now() - waitedAt) / 1000);
    var w = box.querySelector("[data-three-waited]");
    if (w) w.textContent = waited + gone;
    var f = box.querySelector("[data-three-fill-in]");
    if (f && fillIn !== null) f.textContent = Math.max(0, fillIn - gone);
  }
  setInterval(tick, 1000);

  document.addEventListener("talu:lobby-state", function (e) {
    var d = e.detail || {};
    var list = document.getElementById("tables");
    if (list && d.tables) {
      list.textContent = "";
      if (!d.tables.length) list.appendChild(el("li", "No open tables.", {"class": "hint"}));
      d.tables.forEach(function (t) { list.appendChild(tableItem(t)); });
    }
    if (d.three) showThree(d.three);
  });

  // The table form: "Your seat" names the chosen game's seats; the custom time only when asked.
  var variant = document.getElementById("id_table_variant");
  var seat = document.getElementById("id_table_seat");
  if (variant && seat) {
    variant.addEventListener("change", function () {
      seat.textContent = "";
      (seats[variant.value] || []).forEach(function (s) {
        seat.appendChild(el("option", s[1], {value: s[0]}));
      });
    });
  }
  var time = document.getElementById("id_table_time");
  var custom = document.getElementById("id_table_custom");
  if (time && custom) {
    var row = custom.parentNode;
    var showCustom = function () { row.hidden = time.value !== "custom"; };
    time.addEventListener("change", showCustom);
    showCustom();
  }

  var leave = document.getElementById("three-leave");
  if (leave && box) {
    window.addEventListener("pagehide", function () {
      if (!box.hidden && navigator.sendBeacon) {
        var data = new FormData(leave);
        data.append("beacon", "1");
        navigator.sendBeacon(me.dataset.threeLeaveUrl, data);
      }
    });
  }
})();
