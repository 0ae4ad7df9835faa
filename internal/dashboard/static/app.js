// warden dashboard: the live view (server-sent events, filters, pause),
// copy buttons. Pages work without it; it only adds liveness.
"use strict";
document.documentElement.classList.add("js");

document.addEventListener("click", function (e) {
  var b = e.target.closest("button.copy");
  if (!b) return;
  var text = b.getAttribute("data-copy");
  var done = function () { b.textContent = "Copied"; setTimeout(function () { b.textContent = "Copy"; }, 1500); };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, function () { selectText(b); });
  } else {
    selectText(b);
  }
});

// selectText selects the command next to a copy button, for Ctrl+C where
// the clipboard API is not allowed (plain http on another host).
function selectText(b) {
  var code = b.parentNode.querySelector("code");
  if (!code) return;
  var r = document.createRange();
  r.selectNodeContents(code);
  var s = window.getSelection();
  s.removeAllRanges();
  s.addRange(r);
  b.textContent = "Press Ctrl+C";
}

(function live() {
  var list = document.getElementById("events");
  if (!list) return;
  var form = document.getElementById("filters");
  var status = document.getElementById("status");
  var count = document.getElementById("count");
  var empty = document.getElementById("empty");
  var pauseBtn = document.getElementById("pause");
  var MAX_ROWS = 1000;
  var lastId = parseInt(list.getAttribute("data-last-id"), 10) || 0;
  var paused = false;
  var held = [];
  var src = null;

  function filter() {
    var f = {};
    ["session", "event", "tool", "decision"].forEach(function (k) {
      f[k] = form.elements[k].value.trim();
    });
    return f;
  }

  function matches(el, f) {
    var d = el.dataset;
    if (f.session && d.session.indexOf(f.session) !== 0) return false;
    if (f.event && d.event.toLowerCase() !== f.event.toLowerCase()) return false;
    if (f.tool && d.tool.toLowerCase() !== f.tool.toLowerCase()) return false;
    if (f.decision && d.decision !== f.decision) return false;
    return true;
  }

  function refilter() {
    var f = filter();
    var rows = list.children, shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var ok = matches(rows[i], f);
      rows[i].hidden = !ok;
      if (ok) shown++;
    }
    count.textContent = shown + " of " + rows.length + " shown" + (held.length ? " · " + held.length + " held while paused" : "");
    empty.hidden = rows.length > 0;
    var q = new URLSearchParams();
    Object.keys(f).forEach(function (k) { if (f[k]) q.set(k, f[k]); });
    var url = "/live" + (q.toString() ? "?" + q.toString() : "");
    if (url !== location.pathname + location.search) history.replaceState(null, "", url);
  }

  function el(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined) n.textContent = text;
    return n;
  }

  // row builds the same markup as templates/live.html.
  function row(r) {
    var d = el("details", "ev");
    d.id = "ev-" + r.id;
    d.dataset.id = r.id;
    d.dataset.session = r.session;
    d.dataset.event = r.event;
    d.dataset.tool = r.tool;
    d.dataset.decision = r.decision;
    var s = el("summary");
    var t = el("time", null, r.time);
    t.setAttribute("datetime", r.stamp);
    s.appendChild(t);
    s.appendChild(el("span", "ev-name", r.event));
    s.appendChild(el("span", "ev-tool", r.tool));
    s.appendChild(el("span", "dec d-" + r.decision, r.decision));
    s.appendChild(el("code", "ev-sess", r.short));
    s.appendChild(el("span", "ev-rule", r.rule));
    d.appendChild(s);
    var body = el("div", "ev-body");
    if (r.reason) body.appendChild(el("p", "reason", r.reason));
    var dl = el("dl", "facts");
    (r.facts || []).forEach(function (kv) {
      dl.appendChild(el("dt", null, kv[0]));
      dl.appendChild(el("dd", null, kv[1]));
    });
    body.appendChild(dl);
    if (r.raw) body.appendChild(el("pre", "raw", r.raw));
    if (r.rule) {
      var p = el("p"), a = el("a", null, "explain this decision");
      a.href = "/decisions/explain/" + r.id;
      p.appendChild(a);
      body.appendChild(p);
    }
    d.appendChild(body);
    return d;
  }

  function add(r) {
    // Ids only grow: anything at or below the last one is a duplicate.
    if (r.id <= lastId) return;
    lastId = r.id;
    var n = row(r);
    n.hidden = !matches(n, filter());
    list.insertBefore(n, list.firstChild);
    while (list.children.length > MAX_ROWS) list.removeChild(list.lastChild);
  }

  function connect() {
    src = new EventSource("/live/stream?after=" + lastId);
    src.onopen = function () { status.textContent = paused ? "paused" : "live"; };
    src.onerror = function () {
      status.textContent = "reconnecting…";
      // The browser retries a dropped stream by itself (with Last-Event-ID);
      // after an error status it gives up, so start a new one from lastId.
      if (src.readyState === EventSource.CLOSED) {
        src.close();
        setTimeout(connect, 2000);
      }
    };
    src.addEventListener("problem", function (e) { status.textContent = "store problem: " + e.data; });
    // Another store answers now (a pool's shared store stopped or came
    // back): its ids are not lastId's, so load the page afresh.
    src.addEventListener("reload", function () { src.close(); window.location.reload(); });
    src.addEventListener("ev", function (e) {
      var r = JSON.parse(e.data);
      if (paused) held.push(r); else add(r);
      refilter();
    });
  }

  pauseBtn.addEventListener("click", function () {
    paused = !paused;
    pauseBtn.setAttribute("aria-pressed", String(paused));
    pauseBtn.textContent = paused ? "Resume" : "Pause";
    status.textContent = paused ? "paused" : "live";
    if (!paused) {
      held.forEach(add);
      held = [];
    }
    refilter();
  });
  form.addEventListener("input", refilter);
  form.addEventListener("submit", function (e) { e.preventDefault(); refilter(); });
  refilter();
  connect();
})();
