/* The chat beside a game (issue 39; docs/protocol.md, "Chat"): the viewer's one channel (a
 * player's is the players', anyone else's the spectators'), its recent messages from the page
 * (#chat-initial), new ones over the game's socket (TaluClient.on / TaluClient.send, the
 * hook of static/play/client.js), the input with its counter, refusals in words, report and
 * mute on each message, and messages a moderator hides vanishing at once.
 * Plain JS, no inline script (the site's CSP); every text shown through textContent.
 */
(function () {
  "use strict";
  var panel = document.getElementById("chat");
  var Client = window.TaluClient;
  if (!panel || !Client || !Client.on) return;
  var $ = function (id) { return document.getElementById(id); };
  var init = JSON.parse($("chat-initial").textContent);
  var log = $("chat-log"), form = $("chat-form"), input = $("chat-input");
  var count = $("chat-count"), refusal = $("chat-refusal"), mutedBox = $("chat-muted");
  var muted = {}, lastSent = "";
  (init.muted || []).forEach(function (n) { muted[n.toLowerCase()] = n; });

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function timeOf(ms) {
    var d = new Date(ms);
    return ("0" + d.getHours()).slice(-2) + ":" + ("0" + d.getMinutes()).slice(-2);
  }
  function atBottom() { return log.scrollHeight - log.scrollTop - log.clientHeight < 40; }

  // ------------------------------------------------------------------ messages
  function add(m) {
    if (!m || log.querySelector('[data-id="' + m.id + '"]')) return;
    var follow = atBottom();
    var li = el("li", "chat-msg");
    li.dataset.id = m.id;
    li.dataset.user = m.user;
    li.hidden = !!muted[m.user.toLowerCase()];
    var head = el("span", "chat-head");
    head.appendChild(el("time", "chat-time", timeOf(m.at)));
    head.appendChild(el("strong", "chat-user", m.user));
    li.appendChild(head);
    li.appendChild(el("span", "chat-text", m.text));
    if (init.me && m.user !== init.me) {
      var acts = el("span", "chat-acts");
      var rep = el("button", "link chat-report", "report");
      rep.type = "button";
      rep.setAttribute("aria-label", "Report this message by " + m.user);
      rep.addEventListener("click", function () { reportForm(li, m); });
      var mute = el("button", "link chat-mute", "mute");
      mute.type = "button";
      mute.setAttribute("aria-label", "Mute " + m.user);
      mute.addEventListener("click", function () {
        Client.send({type: "mute", user: m.user, muted: true});
      });
      acts.appendChild(rep);
      acts.appendChild(mute);
      li.appendChild(acts);
    }
    log.appendChild(li);
    while (log.children.length > 200) log.removeChild(log.firstChild);
    if (follow || m.user === init.me) log.scrollTop = log.scrollHeight;
    empty();
  }
  function empty() {
    var any = Array.prototype.some.call(log.children, function (li) { return !li.hidden; });
    $("chat-empty").hidden = any;
  }

  // A report of a message or of its writer, with a reason (a report of what one cannot see
  // is refused by the server, in words).
  function reportForm(li, m) {
    var old = li.querySelector("form");
    if (old) { old.remove(); return; }
    var f = el("form", "chat-report-form");
    f.setAttribute("aria-label", "Report");
    var which = "chat-rw-" + m.id;
    [["message", "this message"], ["player", "the player " + m.user]].forEach(function (o, i) {
      var lab = el("label", "chat-choice"), r = el("input");
      r.type = "radio"; r.name = which; r.value = o[0]; r.checked = i === 0;
      lab.appendChild(r);
      lab.appendChild(document.createTextNode(" " + o[1]));
      f.appendChild(lab);
    });
    var reason = el("input", "chat-reason");
    reason.maxLength = 300;
    reason.required = true;
    reason.placeholder = "why (for the moderators)";
    reason.setAttribute("aria-label", "Reason for the report");
    var send = el("button", "", "Send report");
    send.type = "submit";
    f.appendChild(reason);
    f.appendChild(send);
    f.addEventListener("submit", function (e) {
      e.preventDefault();
      var what = f.querySelector('input[name="' + which + '"]:checked').value;
      var msg = {type: "report", reason: reason.value};
      if (what === "message") msg.message = m.id; else msg.player = m.user;
      Client.send(msg);
      f.remove();
    });
    li.appendChild(f);
    reason.focus();
  }

  function say(text, ok) {
    refusal.textContent = text;
    refusal.hidden = !text;
    refusal.classList.toggle("chat-ok", !!ok);
  }

  function renderMuted() {
    var names = Object.keys(muted).map(function (k) { return muted[k]; });
    mutedBox.textContent = "";
    mutedBox.hidden = !names.length;
    if (!names.length) return;
    mutedBox.appendChild(document.createTextNode("Muted: "));
    names.forEach(function (n) {
      var b = el("button", "link", n + " (unmute)");
      b.type = "button";
      b.addEventListener("click", function () { Client.send({type: "mute", user: n, muted: false}); });
      mutedBox.appendChild(b);
      mutedBox.appendChild(document.createTextNode(" "));
    });
  }
  function applyMutes() {
    Array.prototype.forEach.call(log.children, function (li) {
      li.hidden = !!muted[(li.dataset.user || "").toLowerCase()];
    });
    renderMuted();
    empty();
  }

  // ------------------------------------------------------------------ the socket
  Client.on("chat", function (m) {
    add(m.message);
    if (m.message && m.message.user === init.me && m.message.text === lastSent) lastSent = "";
  });
  Client.on("chat_hidden", function (m) {
    var li = log.querySelector('[data-id="' + m.id + '"]');
    if (li) li.remove();
    empty();
  });
  Client.on("chat_refused", function (m) {
    if (m.of === "chat" && lastSent && !input.value) { input.value = lastSent; counter(); }
    lastSent = "";
    say(m.message.charAt(0).toUpperCase() + m.message.slice(1).replace(/\.$/, "") + ".");
  });
  Client.on("reported", function (m) {
    say(m.message !== undefined ? "Thank you: the message is reported to the moderators." :
      "Thank you: " + m.player + " is reported to the moderators.", true);
  });
  Client.on("muted", function (m) {
    if (m.muted) muted[m.user.toLowerCase()] = m.user; else delete muted[m.user.toLowerCase()];
    applyMutes();
  });

  // Back after a lost socket: what was said or hidden meanwhile, from the server.
  var welcomed = false;
  Client.on("welcome", function () {
    if (!welcomed) { welcomed = true; return; }
    if (!window.fetch || !panel.dataset.url) return;
    fetch(panel.dataset.url, {credentials: "same-origin"}).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (d) {
      if (!d) return;
      log.textContent = "";
      (d.messages || []).forEach(add);
      empty();
    }).catch(function () { /* the next reconnect tries again */ });
  });

  // ------------------------------------------------------------------ the input
  function counter() {
    var n = input.value.length;
    count.textContent = n + "/" + init.max;
    count.classList.toggle("chat-count-high", n > init.max - 20);
  }
  input.addEventListener("input", function () { counter(); say(""); });
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var text = input.value.trim();
    if (!text) return;
    if (text.length > init.max) {  // the server says the same; no need to send it
      say("A chat message is at most " + init.max + " characters; this one has " + text.length + ".");
      return;
    }
    lastSent = text;
    Client.send({type: "chat", text: text});
    input.value = "";
    counter();
  });

  // A report of one of the game's players, chat or no chat.
  var others = init.players || [];
  if (init.me && others.length) {
    var pick = $("chat-player");
    others.forEach(function (n) { pick.appendChild(el("option", "", n)); });
    $("chat-report-player").hidden = false;
    $("chat-player-form").addEventListener("submit", function (e) {
      e.preventDefault();
      var why = $("chat-player-reason");
      Client.send({type: "report", player: pick.value, reason: why.value});
      why.value = "";
      $("chat-report-player").open = false;
    });
  }

  if (init.off || init.login) {
    form.hidden = true;
    $("chat-note").textContent = init.off ? init.off.charAt(0).toUpperCase() + init.off.slice(1) + "." :
      "Log in to chat.";
    $("chat-note").hidden = false;
  }
  (init.messages || []).forEach(add);
  counter();
  renderMuted();
  empty();
})();
