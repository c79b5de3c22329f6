// narateer serve: when the server says the campaign changed, fetch a fresh <main> and swap it in.
(function () {
  "use strict";
  var base = document.body.getAttribute("data-base") || "";
  var main = document.getElementById("main");
  if (!main || !window.EventSource || /\/stats$/.test(location.pathname)) { return; }
  var busy = false, again = false;
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(base + "/part", { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html !== null) { main.innerHTML = html; document.body.setAttribute("data-fresh", Date.now()); } })
      .catch(function () {})
      .then(function () { busy = false; if (again) { again = false; refresh(); } });
  }
  var events = new EventSource(base + "/events");
  events.addEventListener("change", refresh);
}());
