// narateer serve --act: a form per verb, built from the verb's own parameters, for the Guide and for each
// player's own checks and reactions. Every action is a POST of the command line's words with the token in
// a header and a fresh nonce; the answer is the command line's words. Nothing from the server is ever put
// in the page as HTML.
(function () {
  "use strict";
  var panel = document.getElementById("act");
  if (!panel || !window.fetch) { return; }
  var where = panel.getAttribute("data-act"), token = panel.getAttribute("data-token");
  var actor = panel.getAttribute("data-actor");
  var box = document.getElementById("act-forms"), out = document.getElementById("act-result");
  var forms = [];

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function nonce() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function show(text, good) {
    out.textContent = text;
    out.className = "result " + (good ? "ok" : "bad");
    document.body.setAttribute("data-acted", Date.now());
  }
  // faces asked die by die on the page: `asked` holds the faces typed so far, each with the option of the die it
  // answers; the server names the next die it needs (nothing is written until the last one), and the same words
  // go again with one more face each time. A player is asked only for their own dice: the server rolls the others'.
  function post(path, body) {
    body.nonce = nonce();
    return fetch(where + path, {
      method: "POST", credentials: "omit", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-Narateer-Token": token },
      body: JSON.stringify(body)
    }).then(function (r) { return r.json(); });
  }
  function told(answer) {
    if (answer.wait) { show(answer.error, true); loadChoices(); return; }  // held: the Guide rolls another's die
    var said = [answer.words || "done"].concat(answer.stderr || []).join("\n");  // a warning, a secret's pointer
    show(answer.ok ? said : answer.error, answer.ok);
    loadChoices();
  }
  function failed() { show("the server did not answer: nothing is known to have been done", false); }
  function send(argv, asked) {
    show("\u2026", true);
    var body = { argv: argv };
    if (asked) { body.asked = asked; }
    return post("/act", body).then(function (answer) {
      if (asked && answer.ask) { return askDie(argv, asked, answer.ask, ""); }
      if (!answer.ok && answer.confirm) { return askForce(argv, asked, answer.confirm); }
      if (answer.wait) { closeAsk(); show(answer.error, true); loadChoices(); return; }  // held for the Guide's die
      if (asked && !answer.ok && asked.length) {  // the last face typed was refused: type that die again
        var last = asked.slice(0, -1);
        return send(argv, last).then(function () { noteAsk(answer.error); });
      }
      closeAsk();
      told(answer);
    }).catch(function () { closeAsk(); failed(); });
  }
  function closeAsk() { var old = document.getElementById("act-ask"); if (old) { old.parentNode.removeChild(old); } }
  function noteAsk(text) { var n = document.getElementById("act-ask-note"); if (n) { n.textContent = text; } }
  function askDie(argv, asked, wanted, note) {
    closeAsk();
    var form = el("form", { id: "act-ask", "class": "ask" });
    form.appendChild(el("p", { id: "act-ask-what" }, wanted.what + ": die " + wanted.number + " of " + wanted.count));
    var input = el("input", { id: "act-ask-face", type: "text", autocomplete: "off", "aria-label": "face" });
    form.appendChild(input);
    form.appendChild(el("button", { type: "submit", id: "act-ask-next" }, "Next die"));
    form.appendChild(el("p", { id: "act-ask-note", "class": "bad" }, note));
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      if (input.value.trim() !== "") { send(argv, asked.concat([{ option: wanted.option, face: input.value.trim() }])); }
    });
    out.parentNode.insertBefore(form, out);
    show("type the face of each die as the table rolls it", true);
    input.focus();
  }
  // a check with no chance to succeed is not rolled until the Guide (or the player) confirms it: the same words
  // then go again with --force, as at a terminal
  function askForce(argv, asked, question) {
    closeAsk();
    var form = el("form", { id: "act-ask", "class": "ask" });
    form.appendChild(el("p", { id: "act-ask-what" }, question));
    form.appendChild(el("button", { type: "submit", id: "act-ask-force" }, "Roll anyway"));
    var no = el("button", { type: "button", id: "act-ask-cancel" }, "Do not roll");
    form.appendChild(no);
    no.addEventListener("click", function () { closeAsk(); show("not rolled: nothing was written", true); });
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      send(argv.concat(["--force"]), asked);
    });
    out.parentNode.insertBefore(form, out);
    show(question, false);
  }
  function words(text) { return text.trim() === "" ? [] : text.trim().split(/\s+/); }

  function field(f) {
    var id = "f-" + f.name, wrap = el("label", { "for": id, "class": "field " + f.role });
    wrap.appendChild(el("span", { "class": "label" }, f.label));  // the verb's words for it, never its option
    var input;
    if (f.role === "flag") {
      input = el("input", { type: "checkbox", id: id });
    } else if (f.type === "choice") {
      input = el("select", { id: id });
      if (!f.required) { input.appendChild(el("option", { value: "" }, "")); }
      f.choices.forEach(function (c) { input.appendChild(el("option", { value: c }, c)); });
    } else {
      input = el("input", { type: f.type === "int" ? "number" : "text", id: id, autocomplete: "off" });
      if (/faces/.test(f.name)) { input.setAttribute("placeholder", "empty: roll for me"); }
    }
    input.setAttribute("data-name", f.name);
    if (f.required && f.role !== "flag") { input.required = true; }
    if (f.suggest && f.suggest.length) {  // what shell completion would offer: characters, skills, cards
      var list = el("datalist", { id: id + "-list" });
      f.suggest.forEach(function (v) { list.appendChild(el("option", { value: v })); });
      input.setAttribute("list", id + "-list");
      wrap.appendChild(list);
    }
    wrap.appendChild(input);
    if (f.help) { wrap.appendChild(el("small", { "class": "hint" }, f.help)); }  // a phone shows no hover title
    if (f.role === "argument" && actor && f.first) { input.value = actor; input.readOnly = true; }
    return wrap;
  }

  function argvOf(form, node, odds) {
    var argv = form.verb.split(" "), opts = [];
    form.fields.forEach(function (f) {
      if (f.name === "dry_run") { return; }
      var input = node.querySelector("[data-name='" + f.name + "']");
      if (!input) { return; }
      if (f.role === "flag") { if (input.checked) { opts.push(f.flag); } return; }
      var value = input.value;
      if (f.role === "argument") { argv = argv.concat(f.many ? words(value) : (value === "" ? [] : [value])); return; }
      (f.many ? words(value) : (value === "" ? [] : [value])).forEach(function (v) { opts.push(f.flag, v); });
    });
    if (odds) { opts.push("--dry-run"); }
    return argv.concat(opts);
  }

  function draw(form) {
    var node = el("form", { "class": "verb", id: "form-" + form.verb.replace(/ /g, "-") });
    node.appendChild(el("p", { "class": "quiet" }, form.help));
    var first = true, details = el("details", { "class": "more-options" }), more = el("div", { "class": "grid" });
    var folded = form.fields.filter(function (f) { return f.more && f.name !== "dry_run"; }).length;
    details.appendChild(el("summary", {}, "More options (" + folded + ")"));
    details.appendChild(more);
    form.fields.forEach(function (f) {
      if (f.name === "dry_run") { return; }
      if (f.role === "argument") { f.first = first; first = false; }
      // the verb's common options, and whatever it needs, stay in sight; the rarely given ones are one tap
      // away, under a "more" that starts closed (the server says which: a required field is never folded)
      (f.more ? more : node).appendChild(field(f));
    });
    if (folded) { node.appendChild(details); }
    var buttons = el("div", { "class": "buttons" });
    if (form.odds) {
      var odds = el("button", { type: "button", id: "act-odds" }, "Odds first");
      odds.addEventListener("click", function () { send(argvOf(form, node, true)); });
      buttons.appendChild(odds);
    }
    buttons.appendChild(el("button", { type: "submit", id: "act-run" }, form.rolls ? "Roll (empty faces: roll for me)" : "Run"));
    Object.keys(form.answer || {}).forEach(function (role) {
      // the Guide declares the rest; that role's own choices are left to its character's player
      var who = form.fields.filter(function (f) { return f.name === role; })[0];
      var called = who ? who.label.charAt(0).toLowerCase() + who.label.slice(1) : role;  // "the defender", in words
      var leave = el("button", { type: "button", id: "act-declare-" + role, "class": "declare" }, "Let the " + called + " answer");
      leave.addEventListener("click", function () {
        var skip = form.answer[role];
        show("\u2026", true);
        post("/declare", { role: role, argv: argvOf({ verb: form.verb, fields: form.fields.filter(function (f) { return skip.indexOf(f.name) < 0; }) }, node, false) })
          .then(function (answer) { told(answer); loadWaiting(); }).catch(failed);
      });
      buttons.appendChild(leave);
    });
    if (form.fields.some(function (f) { return f.name === "faces"; })) {
      var dieByDie = el("button", { type: "button", id: "act-ask-start" }, "Type faces die by die");
      dieByDie.addEventListener("click", function () {
        var argv = argvOf(form, node, false), at = argv.indexOf("--faces");
        if (at >= 0) { argv.splice(at, 2); }
        send(argv.concat(["--faces", "ask"]), []);
      });
      buttons.appendChild(dieByDie);
    }
    node.appendChild(buttons);
    node.addEventListener("submit", function (e) { e.preventDefault(); send(argvOf(form, node, false)); });
    return node;
  }

  // a player's own screen says whose turn it is and offers what the rules owe them now (a reaction);
  // a choice fills the form in, and the player types the faces and sends it
  function prefill(argv) {
    var pick = document.getElementById("act-verb"), at = -1;
    forms.forEach(function (f, i) { if (argv.slice(0, f.verb.split(" ").length).join(" ") === f.verb) { at = i; } });
    if (at < 0) { return; }
    pick.value = String(at);
    pick.dispatchEvent(new Event("change"));
    var form = forms[at], rest = argv.slice(form.verb.split(" ").length), args = form.fields.filter(function (f) { return f.role === "argument"; });
    var node = document.getElementById("act-form");
    for (var i = 0; i < rest.length; i++) {
      var f = null;
      if (rest[i].indexOf("--") === 0) {
        f = form.fields.filter(function (x) { return x.flag === rest[i]; })[0];
        if (f && f.role !== "flag") { i++; }
      } else { f = args.shift(); }
      var input = f && node.querySelector("[data-name='" + f.name + "']");
      if (input && f.role === "flag") { input.checked = true; } else if (input) { input.value = rest[i]; }
    }
  }
  var shown = "";
  function drawChoices(answer) {
    var holder = document.getElementById("act-now");
    if (!holder || !answer) { return; }
    var key = JSON.stringify(answer);
    if (key === shown) { return; }  // the same choices: keep what the player has typed
    shown = key;
    holder.textContent = "";
    holder.appendChild(el("p", { "class": "now" }, answer.now || ""));
    (answer.choices || []).forEach(function (c) {
      if (c.answer) { holder.appendChild(answerForm(c)); return; }
      if (c.face) { holder.appendChild(faceForm(c)); return; }  // their own die, after the Guide's
      if (!c.argv) { holder.appendChild(el("p", { "class": "choice held" }, c.text)); return; }  // said, not run
      var b = el("button", { type: "button", "class": "choice" }, c.text);
      b.addEventListener("click", function () { prefill(c.argv); });
      holder.appendChild(b);
    });
  }
  function answerForm(c) {
    var node = el("form", { "class": "verb answer", id: "act-answer" });
    node.appendChild(el("p", { "class": "choice" }, c.text));
    var own = { verb: "", fields: c.answer.fields };
    c.answer.fields.forEach(function (f) { node.appendChild(field(f)); });
    node.appendChild(el("button", { type: "submit", id: "act-answer-send" }, "Answer"));
    node.addEventListener("submit", function (e) {
      e.preventDefault();
      show("\u2026", true);
      post("/answer", { id: c.answer.id, argv: argvOf(own, node, false).filter(function (w) { return w !== ""; }) })
        .then(told).catch(failed);
    });
    return node;
  }
  function faceForm(c) {
    var node = el("form", { "class": "verb answer", id: "act-held" });
    node.appendChild(el("p", { "class": "choice" }, c.text));
    var face = el("input", { type: "text", id: "act-held-face", "aria-label": c.face.what, size: "4" });
    node.appendChild(face);
    node.appendChild(el("button", { type: "submit", id: "act-held-send" }, "Send"));
    node.addEventListener("submit", function (e) {
      e.preventDefault();
      show("\u2026", true);
      post("/face", { id: c.face.id, face: face.value.trim() }).then(told).catch(failed);
    });
    return node;
  }
  function loadChoices() {
    if (!actor) { return; }
    fetch(where + "/choices", { headers: { "X-Narateer-Token": token }, credentials: "omit", cache: "no-store" })
      .then(function (r) { return r.json(); }).then(drawChoices).catch(function () {});
  }

  function start(list) {
    forms = list;
    box.textContent = "";
    var pick = el("select", { id: "act-verb", "aria-label": "verb" });
    forms.forEach(function (f, i) { pick.appendChild(el("option", { value: String(i) }, f.verb)); });
    var holder = el("div", { id: "act-form" });
    function change() { holder.textContent = ""; if (forms.length) { holder.appendChild(draw(forms[+pick.value])); } }
    pick.addEventListener("change", change);
    if (actor) { box.appendChild(el("div", { id: "act-now", "class": "now" })); }
    box.appendChild(pick);
    if (actor && !forms.length) {  // nothing this game lets a player start alone: say so, not an empty list
      pick.hidden = true;
      box.appendChild(el("p", { id: "act-none" }, "Your Guide declares your actions; when one is left to you to answer, it appears here."));
    }
    if (!actor) {
      [["Undo the last action", ["undo"], "act-undo", "Take back the last logged action?"],
       ["Unveil every secret roll", ["unveil", "--all"], "act-unveil", "Publish every secret roll to the party? It cannot be sealed again."]]
        .forEach(function (b) {
          var button = el("button", { type: "button", id: b[2], "class": "host" }, b[0]);
          button.addEventListener("click", function () { if (window.confirm(b[3])) { send(b[1]); } });
          box.appendChild(button);
        });
      box.appendChild(el("div", { id: "act-waiting", "class": "waiting" }));
    }
    box.appendChild(holder);
    var rolling = forms.findIndex(function (f) { return f.rolls && !/ /.test(f.verb); });  // open on a roll, not on `new`
    if (rolling >= 0) { pick.value = String(rolling); }
    change();
    loadChoices();
    // the live view swapped in a fresh <main> (app.js marks it): the turn or the owed reactions may have moved
    new MutationObserver(loadChoices).observe(document.body, { attributes: true, attributeFilter: ["data-fresh"] });
    // a declaration the Guide leaves to this player changes no file, so no `change` event tells of it: look
    if (actor) { window.setInterval(loadChoices, 2000); } else { loadWaiting(); window.setInterval(loadWaiting, 2000); }
  }

  // the Guide's declarations still waiting for a player's answer (with the last refusal their answer met)
  var waitingShown = "";
  function loadWaiting() {
    if (actor) { return; }
    fetch(where + "/waiting", { headers: { "X-Narateer-Token": token }, credentials: "omit", cache: "no-store" })
      .then(function (r) { return r.json(); }).then(drawWaiting).catch(function () {});
  }
  function drawWaiting(list) {
    var holder = document.getElementById("act-waiting"), key = JSON.stringify(list);
    if (!holder || !Array.isArray(list) || key === waitingShown) { return; }
    waitingShown = key;
    holder.textContent = "";
    list.forEach(function (w) {
      if (w.die || w.asks) { holder.appendChild(dieRow(w)); return; }
      var row = el("p", { "class": "waiting-row" }, "waiting for " + w.who + ": " + w.argv.join(" ") + (w.error ? " (their last answer: " + w.error + ")" : "") + " ");
      var back = el("button", { type: "button", "class": "withdraw" }, "Withdraw");
      back.addEventListener("click", function () { post("/withdraw", { who: w.who }).then(function (a) { told(a); loadWaiting(); }).catch(failed); });
      row.appendChild(back);
      holder.appendChild(row);
    });
  }

  // a player's action held for another creature's die the Guide rolls: its face typed here runs it, once
  function dieRow(w) {
    var row = el("form", { "class": "waiting-row die", "data-id": w.id }), die = w.die || w.asks;
    row.appendChild(el("span", {}, w.who + ": " + w.argv.join(" ") + " \u2014 " + (w.die ? "roll " : "waiting for " + w.who + " to type ") +
      die.what + " (" + die.option + ", die " + die.number + " of " + die.count + ")" + (w.error ? " (refused: " + w.error + ")" : "") + " "));
    var face = el("input", { type: "text", "class": "guide-face", "aria-label": "face of " + die.what, size: "4" });
    if (w.die) {  // the player's own die is theirs to type, on their page
      row.appendChild(face);
      row.appendChild(el("button", { type: "submit", "class": "guide-roll" }, "Roll"));
    }
    var drop = el("button", { type: "button", "class": "dismiss" }, "Dismiss");
    drop.addEventListener("click", function () { post("/dismiss", { id: w.id }).then(function (a) { told(a); loadWaiting(); }).catch(failed); });
    row.appendChild(drop);
    row.addEventListener("submit", function (e) {
      e.preventDefault();
      show("\u2026", true);
      post("/roll", { id: w.id, face: face.value.trim() }).then(function (a) { told(a); loadWaiting(); }).catch(failed);
    });
    return row;
  }

  if (!actor && /[?&]token=/.test(location.search)) {  // the cookie holds it now: keep it out of the history
    window.history.replaceState(null, "", location.pathname);
  }
  fetch(where + "/forms", { headers: { "X-Narateer-Token": token }, credentials: "omit", cache: "no-store" })
    .then(function (r) { return r.json(); })
    .then(function (list) { if (Array.isArray(list)) { start(list); } else { show(list.error || "no forms", false); } })
    .catch(function () { show("could not load the verbs", false); });
}());
