(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("page-data").textContent);
  var RECS = DATA.records;
  var PAGE = 60;
  var $ = function (id) { return document.getElementById(id); };
  var FIELDS = [
    ["good_question", "good question", [[true, "yes"], [false, "no"], [null, "undecidable"]]],
    ["author_named", "author named", [[true, "yes"], [false, "no"]]],
    ["function", "function", [["CLAIM", "CLAIM"], ["PASSING", "PASSING"]]],
    ["sentence_ok", "sentence ok", [[true, "yes"], [false, "no"]]]
  ];
  var REQUIRED = FIELDS.map(function (f) { return f[0]; });
  var labels = {};
  try { labels = JSON.parse(window.localStorage.getItem(DATA.key) || "{}") || {}; } catch (e) { labels = {}; }
  function save() {
    try { window.localStorage.setItem(DATA.key, JSON.stringify(labels)); } catch (e) { /* storage off: labels live until the page closes */ }
  }
  function complete(l) { return !!l && REQUIRED.every(function (k) { return Object.prototype.hasOwnProperty.call(l, k); }); }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function withCitation(parent, text) {
    var parts = text.split("[CITATION]");
    parts.forEach(function (p, i) {
      if (i) { parent.appendChild(el("mark", "cit", "[CITATION]")); }
      parent.appendChild(document.createTextNode(p));
    });
  }
  function sentenceOf(r) {
    if (r.s === 1) {
      var at = r.e.indexOf("[CITATION]");
      return { text: r.e.replace("[CITATION]", r.c), cs: at, ce: at + r.c.length };
    }
    return { text: r.s, cs: r.cs, ce: r.ce };
  }
  function fmt(x) { return typeof x === "number" ? x.toFixed(3) : "—"; }
  // a DOI or PMID as a link to its resolver (opens in a new tab); "—" when there is none
  function link(cls, id, base) {
    if (!id) { return el("span", cls, "—"); }
    var a = el("a", cls, String(id));
    a.href = base + String(id).split("/").map(encodeURIComponent).join("/");
    a.target = "_blank"; a.rel = "noopener noreferrer";
    return a;
  }

  function card(r) {
    var c = el("article", "card" + (r.r ? " rejected" : ""));
    c.setAttribute("data-id", r.i);
    var head = el("div", "head");
    head.appendChild(el("span", "status", r.r ? "rejected: " + r.r : "question"));
    head.appendChild(el("code", "", r.i));
    head.appendChild(el("span", "", "section: " + (r.sec || "—")));
    head.appendChild(el("span", "", "article: " + DATA.articles[r.a]));
    head.appendChild(el("span", "score", "score " + fmt(r.sc)));
    head.appendChild(el("span", "", "findability " + fmt(r.f)));
    c.appendChild(head);
    var ex = el("p", "excerpt");
    withCitation(ex, r.e);
    c.appendChild(ex);
    if (r.s !== undefined) {
      var s = sentenceOf(r);
      var sp = el("p", "sentence");
      sp.appendChild(el("span", "lbl", "sentence"));
      if (typeof s.cs === "number" && s.cs >= 0 && s.ce >= s.cs) {
        sp.appendChild(document.createTextNode(s.text.slice(0, s.cs)));
        sp.appendChild(el("mark", "src", s.text.slice(s.cs, s.ce)));
        sp.appendChild(document.createTextNode(s.text.slice(s.ce)));
      } else {
        sp.appendChild(document.createTextNode(s.text));
      }
      c.appendChild(sp);
    }
    var t = el("div", "target");
    t.appendChild(el("span", "lbl", "target"));
    if (r.t) {
      t.appendChild(el("span", "ttl", r.t));
    } else if (r.rf) {
      t.appendChild(el("span", "refs", "cites " + r.rf.length + " references (" +
                                       r.rf.map(function (x) { return x[0]; }).join(", ") + ")" +
                                       (r.c ? " as “" + r.c + "”" : "") + ", not one work"));
      var list = el("ol", "reflist");
      r.rf.forEach(function (x) {
        var li = el("li", "", x[0] + ": " + (x[1] || "(title not at hand)"));
        if (x[2]) { li.appendChild(document.createTextNode(" · DOI ")); li.appendChild(link("doi", x[2], "https://doi.org/")); }
        list.appendChild(li);
      });
      t.appendChild(list);
    } else {
      t.appendChild(el("span", "ttl", "(no title in the reference list)"));
    }
    if (r.au) { t.appendChild(document.createTextNode(" — " + r.au + (r.y ? " (" + r.y + ")" : ""))); }
    if (!r.rf) {  // several references: each DOI is in the list above
      t.appendChild(document.createTextNode(" · DOI "));
      t.appendChild(link("doi", r.d, "https://doi.org/"));
      t.appendChild(document.createTextNode(" · PMID "));
      t.appendChild(link("pmid", r.p, "https://pubmed.ncbi.nlm.nih.gov/"));
    }
    c.appendChild(t);
    var lab = el("div", "labels");
    var l = labels[r.i] || {};
    FIELDS.forEach(function (f) {
      var g = el("span", "field");
      g.appendChild(document.createTextNode(f[1]));
      f[2].forEach(function (opt) {
        var b = el("button", "", opt[1]);
        b.type = "button";
        b.setAttribute("data-field", f[0]);
        b.setAttribute("data-value", JSON.stringify(opt[0]));
        if (opt[0] === false || opt[0] === "PASSING") { b.classList.add("neg"); }
        if (Object.prototype.hasOwnProperty.call(l, f[0]) && l[f[0]] === opt[0]) { b.classList.add("on"); }
        g.appendChild(b);
      });
      lab.appendChild(g);
    });
    var note = el("input", "note");
    note.type = "text";
    note.placeholder = "note: why (especially for no)";
    note.value = l.note || "";
    lab.appendChild(note);
    lab.appendChild(el("span", "state", ""));
    c.appendChild(lab);
    paintState(c, r.i);
    return c;
  }
  function paintState(c, id) {
    var l = labels[id];
    var st = c.querySelector(".state");
    c.classList.toggle("done", complete(l));
    st.textContent = complete(l) ? "labelled" : (l ? "incomplete" : "");
    st.style.color = complete(l) ? "#2e8b57" : "#c77700";
  }

  var hay = null;
  function matches(r, q) {
    if (!q) { return true; }
    if (hay === null) { hay = {}; }
    var h = hay[r.i];
    if (h === undefined) { h = hay[r.i] = [r.i, r.e, r.t || "", r.au || "", r.d || ""].join("\n").toLowerCase(); }
    return h.indexOf(q) >= 0;
  }
  function num(id) { var v = $(id).value; return v === "" ? null : +v; }

  var filtered = [];
  var drawn = 0;
  function apply() {
    var reason = $("f-reason").value, section = $("f-section").value, article = $("f-article").value;
    var lo = num("f-min"), hi = num("f-max"), q = $("f-search").value.trim().toLowerCase();
    var lab = $("f-labelled").value;
    filtered = RECS.filter(function (r) {
      if (reason === "(kept)" && r.r) { return false; }
      if (reason === "(rejected)" && !r.r) { return false; }
      if (reason && reason.charAt(0) !== "(" && r.r !== reason) { return false; }
      if (section && r.sec !== section) { return false; }
      if (article !== "" && r.a !== +article) { return false; }
      if ((lo !== null || hi !== null) && typeof r.sc !== "number") { return false; }
      if (lo !== null && r.sc < lo) { return false; }
      if (hi !== null && r.sc > hi) { return false; }
      if (lab === "yes" && !labels[r.i]) { return false; }
      if (lab === "no" && labels[r.i]) { return false; }
      return matches(r, q);
    });
    $("cards").textContent = "";
    drawn = 0;
    more();
  }
  function more() {
    var box = $("cards");
    var frag = document.createDocumentFragment();
    var end = Math.min(filtered.length, drawn + PAGE);
    for (var k = drawn; k < end; k++) { frag.appendChild(card(filtered[k])); }
    box.appendChild(frag);
    drawn = end;
    $("more").hidden = drawn >= filtered.length;
    $("more").textContent = "show more (" + (filtered.length - drawn) + " left)";
    $("shown").textContent = filtered.length + " of " + RECS.length + " cards match" +
      (filtered.length > drawn ? " · " + drawn + " drawn" : "");
    document.body.setAttribute("data-ready", "1");
  }
  function counts() {
    var n = 0, done = 0;
    Object.keys(labels).forEach(function (id) { n++; if (complete(labels[id])) { done++; } });
    return [n, done];
  }
  function showCounts() {
    var c = counts();
    $("export-status").textContent = c[0] ? c[1] + " labelled" + (c[0] > c[1] ? ", " + (c[0] - c[1]) + " incomplete (not exported until every field is set)" : "") : "no labels yet";
  }

  $("cards").addEventListener("click", function (ev) {
    var b = ev.target.closest ? ev.target.closest("button[data-field]") : null;
    if (!b) { return; }
    var c = b.closest(".card");
    var id = c.getAttribute("data-id");
    var f = b.getAttribute("data-field");
    var v = JSON.parse(b.getAttribute("data-value"));
    var l = labels[id] || (labels[id] = {});
    if (Object.prototype.hasOwnProperty.call(l, f) && l[f] === v) { delete l[f]; } else { l[f] = v; }
    if (!Object.keys(l).length) { delete labels[id]; }
    c.querySelectorAll('button[data-field="' + f + '"]').forEach(function (x) {
      x.classList.toggle("on", !!labels[id] && Object.prototype.hasOwnProperty.call(labels[id], f) && JSON.stringify(labels[id][f]) === x.getAttribute("data-value"));
    });
    save(); paintState(c, id); showCounts();
  });
  $("cards").addEventListener("input", function (ev) {
    if (!ev.target.classList.contains("note")) { return; }
    var c = ev.target.closest(".card");
    var id = c.getAttribute("data-id");
    var l = labels[id] || (labels[id] = {});
    if (ev.target.value) { l.note = ev.target.value; } else { delete l.note; }
    if (!Object.keys(l).length) { delete labels[id]; }
    save(); paintState(c, id); showCounts();
  });

  var SHA = {};
  RECS.forEach(function (r) { if (r.h) { SHA[r.i] = r.h; } });
  function line(id, l) {
    var row = [["id", id], ["good_question", l.good_question], ["author_named", l.author_named],
               ["function", l["function"]], ["sentence_ok", l.sentence_ok], ["note", l.note || ""]];
    if (SHA[id]) { row.push(["excerpt_sha1", SHA[id]]); }  // which excerpt text was judged (stale labels show)
    return "{" + row.map(function (kv) { return JSON.stringify(kv[0]) + ": " + JSON.stringify(kv[1]); }).join(", ") + "}";
  }
  $("export").addEventListener("click", function () {
    var order = {};
    RECS.forEach(function (r, k) { order[r.i] = k; });
    var ids = Object.keys(labels).filter(function (id) { return complete(labels[id]); });
    ids.sort(function (a, b) { return (order[a] === undefined ? 1e9 : order[a]) - (order[b] === undefined ? 1e9 : order[b]); });
    var text = ids.map(function (id) { return line(id, labels[id]) + "\n"; }).join("");
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "application/jsonl" }));
    a.download = "labels.jsonl";
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 0);
    var c = counts();
    $("export-status").textContent = "exported " + ids.length + " label" + (ids.length === 1 ? "" : "s") +
      (c[0] > c[1] ? "; " + (c[0] - c[1]) + " incomplete left out" : "");
  });
  $("more").addEventListener("click", more);
  var timer = null;
  ["f-reason", "f-section", "f-article", "f-min", "f-max", "f-labelled"].forEach(function (id) { $(id).addEventListener("change", apply); });
  $("f-search").addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(apply, 150); });
  showCounts();
  apply();
})();
