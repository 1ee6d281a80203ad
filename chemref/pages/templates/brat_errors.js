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

  function apply() {
    var st = state();
    var shown = 0, errDocs = 0;
    docs.forEach(function (sec, i) {
      var d = DATA.docs[i];
      var mk = d.m.map(function (m) { return mentionKinds(m, st); });
      var errors = 0;
      mk.forEach(function (ks) { if (ks.indexOf("FP") >= 0 || ks.indexOf("FN") >= 0) { errors++; } });
      sec.querySelectorAll(".txt span.m").forEach(function (span) {
        var cls = {};
        span.getAttribute("data-m").split(" ").forEach(function (j) { mk[+j].forEach(function (k) { cls[k] = 1; }); });
        span.className = "m" + Object.keys(cls).map(function (k) { return " k-" + k; }).join("");
      });
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
    ids.forEach(function (j) {
      sec.querySelectorAll('.txt span.m[data-m~="' + j + '"]').forEach(function (s) { s.classList.toggle("hl", on); });
    });
  }
  document.addEventListener("mouseover", function (ev) {
    var span = ev.target.closest ? ev.target.closest(".txt span.m") : null;
    if (span && !span.title) {
      var sec = span.closest("section.doc");
      var d = DATA.docs[+sec.getAttribute("data-doc")];
      var st = state();
      span.title = span.getAttribute("data-m").split(" ").map(function (j) {
        var m = d.m[+j];
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
    var spans = sec.querySelectorAll('.txt span.m[data-m~="' + a.getAttribute("data-m") + '"]');
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
