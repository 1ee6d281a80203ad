(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("page-data").textContent);
  var QS = DATA.questions;
  var DOI = /10\.\d{4,9}\/\S+/;
  var state = { at: 0, answers: {}, elapsed: {} };
  try {
    var saved = JSON.parse(window.localStorage.getItem(DATA.key) || "null");
    if (saved && typeof saved === "object") {
      state.answers = saved.answers && typeof saved.answers === "object" ? saved.answers : {};
      state.elapsed = saved.elapsed && typeof saved.elapsed === "object" ? saved.elapsed : {};
      state.at = typeof saved.at === "number" && saved.at >= 0 && saved.at < QS.length ? saved.at : 0;
    }
  } catch (e) { /* a damaged or foreign entry: start again */ }

  function save() {
    try { window.localStorage.setItem(DATA.key, JSON.stringify(state)); } catch (e) { /* storage off: answers live until the page closes */ }
  }
  function $(id) { return document.getElementById(id); }
  function answered() { var n = 0; for (var i = 0; i < QS.length; i++) { if (state.answers[QS[i].id]) n++; } return n; }

  function show() {
    var q = QS[state.at];
    $("qid").textContent = q.id + " (" + (state.at + 1) + " of " + QS.length + ")";
    var box = $("excerpt");
    box.textContent = "";
    var parts = q.excerpt.split("[CITATION]");
    for (var i = 0; i < parts.length; i++) {
      if (i > 0) { var m = document.createElement("mark"); m.className = "cit"; m.textContent = "[CITATION]"; box.appendChild(m); }
      box.appendChild(document.createTextNode(parts[i]));
    }
    var a = state.answers[q.id];
    $("answer").value = a && !a.gave_up ? a.answer : "";
    $("status").textContent = a ? (a.gave_up ? "given up" : "answered") : "";
    $("progress").textContent = "question " + (state.at + 1) + " of " + QS.length;
    var n = answered();
    $("answered").textContent = n + " of " + QS.length + " answered";
    $("done").hidden = n < QS.length;
    $("prev").disabled = state.at === 0;
    $("next").disabled = state.at === QS.length - 1;
    $("answer").focus();
  }

  function nextOpen() {
    for (var k = 1; k <= QS.length; k++) {
      var i = (state.at + k) % QS.length;
      if (!state.answers[QS[i].id]) return i;
    }
    return state.at;
  }

  function record(text, gaveUp) {
    var q = QS[state.at];
    state.answers[q.id] = { answer: gaveUp ? null : text, gave_up: gaveUp };
    state.at = nextOpen();
    save();
    show();
  }

  // Seconds on the question shown until it is answered, counted while the page is in view (kept across reloads).
  var last = Date.now();
  function tick() {
    var now = Date.now();
    var id = QS[state.at].id;
    if (document.visibilityState === "visible" && !state.answers[id]) {
      state.elapsed[id] = (state.elapsed[id] || 0) + Math.min(now - last, 5000) / 1000;
    }
    last = now;
  }
  window.setInterval(function () { tick(); save(); }, 1000);
  document.addEventListener("visibilitychange", function () { tick(); save(); });
  window.addEventListener("pagehide", function () { tick(); save(); });

  function move(step) { tick(); state.at = Math.max(0, Math.min(QS.length - 1, state.at + step)); save(); show(); }

  $("submit").addEventListener("click", function () {
    var text = $("answer").value.trim();
    if (!text) { $("status").textContent = "type a title or a DOI, or give up"; return; }
    tick();
    record(text, false);
  });
  $("answer").addEventListener("keydown", function (ev) { if (ev.key === "Enter") { ev.preventDefault(); $("submit").click(); } });
  $("giveup").addEventListener("click", function () { tick(); record(null, true); });
  $("prev").addEventListener("click", function () { move(-1); });
  $("next").addEventListener("click", function () { move(1); });

  function predictions() {
    var lines = [];
    for (var i = 0; i < QS.length; i++) {
      var q = QS[i], a = state.answers[q.id];
      if (!a) continue;
      var row = { id: q.id };
      var doi = a.gave_up ? null : DOI.exec(a.answer);
      if (doi) { row.dois = [doi[0].replace(/[.,;)\]]+$/, "")]; } else { row.titles = a.gave_up ? [] : [a.answer]; }
      row.seconds = Math.round((state.elapsed[q.id] || 0) * 10) / 10;
      row.gave_up = !!a.gave_up;
      lines.push(JSON.stringify(row));
    }
    return lines;
  }

  $("export").addEventListener("click", function () {
    tick(); save();
    var lines = predictions();
    if (!lines.length) { $("export-status").textContent = "nothing answered yet"; return; }
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([lines.join("\n") + "\n"], { type: "application/jsonl" }));
    a.download = "predictions.jsonl";
    document.body.appendChild(a);
    a.click();
    a.remove();
    $("export-status").textContent = "exported " + lines.length + " predictions";
  });

  show();
  document.body.setAttribute("data-ready", "1");
})();
