(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("page-data").textContent);
  var docs = Array.prototype.slice.call(document.querySelectorAll("section.doc"));
  var links = Array.prototype.slice.call(document.querySelectorAll("#index a"));
  var $ = function (id) { return document.getElementById(id); };
  var SIDES = ["", "gold", "prediction", "gold and prediction"];

  function state() {
    return {
      ev: $("ent-view") ? +$("ent-view").value : -1,
      rv: $("rel-view") ? +$("rel-view").value : -1,
      et: $("ent-type").value, rt: $("rel-type").value,
      show: { TP: $("show-TP").checked, FP: $("show-FP").checked, FN: $("show-FN").checked },
      errorsOnly: $("errors-only").checked
    };
  }
  function kindsOf(kind) { return kind ? kind.split(" ") : []; }
  function visibleKinds(kind, st) { return kindsOf(kind).filter(function (k) { return st.show[k]; }); }
  function mentionKinds(m, st) {
    if (st.et && m[0] !== st.et) { return []; }
    if (st.ev < 0) { return ["arg"]; }
    return visibleKinds(m[2][st.ev], st);
  }
  function relationKinds(r, st) {
    if (st.rt && r[0] !== st.rt) { return null; }
    if (st.rv < 0) { return null; }
    var k = r[1][st.rv];
    if (!k) { return null; }  /* not judged by this report (an inferred link of an expanded report) */
    return visibleKinds(k, st);
  }
  function countsText(d, st) {
    var parts = [];
    var views = [];
    if (st.ev >= 0) { views.push(DATA.views.entities[st.ev]); }
    if (st.rv >= 0) { views.push(DATA.views.relations[st.rv]); }
    views.forEach(function (v) {
      var c = d.c[v];
      if (c) { parts.push(v.split("/")[0] + " tp " + c[0] + " · fp " + c[1] + " · fn " + c[2]); }
    });
    return parts.join("   |   ");
  }

  function frags(m) {
    return m[3] ? m[3].split(";").map(function (f) { var p = f.split("-"); return [+p[0], +p[1]]; }) : [];
  }
  /* a segment starting at o is covered by a fragment [s, e) when s <= o < e (segments are cut at every
     boundary): one sweep over the fragments' ends per document, counting the visible kinds */
  function colour(sec, d, mk) {
    if (!d.spans) {
      d.spans = Array.prototype.slice.call(sec.querySelectorAll(".txt span.m"));
      d.ev = [];
      d.m.forEach(function (m, i) {
        frags(m).forEach(function (f) { if (f[0] < f[1]) { d.ev.push([f[0], 1, i], [f[1], -1, i]); } });
      });
      d.ev.sort(function (a, b) { return a[0] - b[0]; });
    }
    var ev = d.ev, count = {}, j = 0;
    d.spans.forEach(function (span) {
      var o = +span.getAttribute("data-o");
      while (j < ev.length && ev[j][0] <= o) {
        var ks = mk[ev[j][2]];
        for (var q = 0; q < ks.length; q++) { count[ks[q]] = (count[ks[q]] || 0) + ev[j][1]; }
        j++;
      }
      var cls = "m";
      for (var k in count) { if (count[k] > 0) { cls += " k-" + k; } }
      span.className = cls;
    });
  }
  function covering(d, o) {
    var out = [];
    d.m.forEach(function (m, i) {
      if (frags(m).some(function (f) { return f[0] <= o && o < f[1]; })) { out.push(i); }
    });
    return out;
  }
  function spansOf(sec, m) {
    var fs = frags(m);
    return Array.prototype.filter.call(sec.querySelectorAll(".txt span.m"), function (s) {
      var o = +s.getAttribute("data-o");
      return fs.some(function (f) { return f[0] <= o && o < f[1]; });
    });
  }

  function apply() {
    var st = state();
    var shown = 0, errDocs = 0;
    docs.forEach(function (sec, i) {
      var d = DATA.docs[i];
      var mk = d.m.map(function (m) { return mentionKinds(m, st); });
      var errors = 0;
      mk.forEach(function (ks) { if (ks.indexOf("FP") >= 0 || ks.indexOf("FN") >= 0) { errors++; } });
      colour(sec, d, mk);
      sec.querySelectorAll(".mlist li").forEach(function (li) {
        var ks = mk[+li.getAttribute("data-mi")];
        var badge = li.querySelector(".badge");
        badge.textContent = ks.join(" ");
        badge.className = "badge" + (ks.length ? " b-" + ks[ks.length - 1] : "");
        li.hidden = ks.length === 0;
      });
      sec.querySelectorAll(".rels li").forEach(function (li) {
        var ks = relationKinds(d.r[+li.getAttribute("data-r")], st);
        var visible = ks !== null && ks.length > 0;
        li.hidden = !visible;
        if (visible) {
          if (ks.indexOf("FP") >= 0 || ks.indexOf("FN") >= 0) { errors++; }
          var badge = li.querySelector(".badge");
          var words = ks.map(function (k) { return k === "TP" ? "matched" : k === "FP" ? "spurious" : "missing"; });
          badge.textContent = words.join(" / ");
          badge.className = "badge b-" + ks[ks.length - 1];
        }
      });
      sec.querySelector(".counts").textContent = countsText(d, st);
      var visible = !st.errorsOnly || errors > 0;
      sec.hidden = !visible;
      links[i].hidden = !visible;
      links[i].lastChild.textContent = errors ? String(errors) : "";
      if (visible) { shown++; }
      if (errors) { errDocs++; }
    });
    $("shown").textContent = shown + " of " + docs.length + " documents shown (" + errDocs + " with errors)";
    document.body.setAttribute("data-ready", "1");
  }

  function highlight(sec, ids, on) {
    var d = DATA.docs[+sec.getAttribute("data-doc")];
    ids.forEach(function (j) {
      spansOf(sec, d.m[+j]).forEach(function (s) { s.classList.toggle("hl", on); });
    });
  }
  document.addEventListener("mouseover", function (ev) {
    var span = ev.target.closest ? ev.target.closest(".txt span.m") : null;
    if (span && !span.title) {
      var sec = span.closest("section.doc");
      var d = DATA.docs[+sec.getAttribute("data-doc")];
      var st = state();
      span.title = covering(d, +span.getAttribute("data-o")).map(function (j) {
        var m = d.m[j];
        var k = st.ev >= 0 ? (m[2][st.ev] || "") : "";
        return (k ? k + " " : "") + m[0] + " [" + m[3] + "] in " + SIDES[m[1]];
      }).join("\n");
    }
    var li = ev.target.closest ? ev.target.closest(".rels li") : null;
    if (li) { highlight(li.closest("section.doc"), [li.getAttribute("data-a"), li.getAttribute("data-b")], true); }
  });
  document.addEventListener("mouseout", function (ev) {
    var li = ev.target.closest ? ev.target.closest(".rels li") : null;
    if (li) { highlight(li.closest("section.doc"), [li.getAttribute("data-a"), li.getAttribute("data-b")], false); }
  });
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest ? ev.target.closest(".rels a[data-m]") : null;
    if (!a) { return; }
    var sec = a.closest("section.doc");
    var spans = spansOf(sec, DATA.docs[+sec.getAttribute("data-doc")].m[+a.getAttribute("data-m")]);
    spans.forEach(function (s) { s.classList.add("flash"); });
    setTimeout(function () { spans.forEach(function (s) { s.classList.remove("flash"); }); }, 1500);
  });
  ["ent-view", "rel-view", "ent-type", "rel-type", "show-TP", "show-FP", "show-FN", "errors-only"].forEach(function (id) {
    var el = $(id);
    if (el) { el.addEventListener("change", function () { document.querySelectorAll(".txt span.m[title]").forEach(function (s) { s.removeAttribute("title"); }); apply(); }); }
  });
  // the sticky controls bar: the index and the link targets start below it, whatever its height
  function barHeight() {
    document.documentElement.style.setProperty("--bar", $("controls").offsetHeight + "px");
  }
  window.addEventListener("resize", barHeight);
  apply();
  window.requestAnimationFrame(barHeight);  // measured with the first layout, not in a forced one before it
})();
