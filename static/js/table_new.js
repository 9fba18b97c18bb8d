// The new-table form: the ruleset select and the option fields follow each other (choosing a
// ruleset fills the fields; changing a field selects the ruleset with exactly those options, or
// none), and the preset links fill the fields in place, keeping what was typed above them (the
// links and the form work without this file).
(function () {
  "use strict";

  function fields() { return document.querySelectorAll("[name^=opt_][data-default]"); }

  function valueOf(field) {
    if (field.type === "checkbox") return field.checked;
    var n = Number(field.value);
    return field.value !== "" && !isNaN(n) && typeof JSON.parse(field.dataset.default) === "number" ? n : field.value;
  }

  function current() {
    var values = {};
    fields().forEach(function (f) { values[f.name.slice(4)] = valueOf(f); });
    return values;
  }

  function same(a, b) {
    return Object.keys(a).every(function (k) { return !(k in b) || b[k] === a[k]; });
  }

  function syncRuleset() {
    var select = document.querySelector("select[name=ruleset]");
    if (!select) return;
    var values = current();
    var chosen = select.options[select.selectedIndex];
    if (chosen && chosen.dataset.options && same(values, JSON.parse(chosen.dataset.options))) return;
    select.value = "";
    for (var i = 0; i < select.options.length; i++) {
      var opt = select.options[i];
      if (opt.dataset.options && same(values, JSON.parse(opt.dataset.options))) { select.value = opt.value; return; }
    }
  }

  function isOption(el) { return el.name && el.name.indexOf("opt_") === 0; }

  document.addEventListener("change", function (ev) {
    var el = ev.target;
    if (isOption(el)) { syncRuleset(); return; }
    if (el.name !== "ruleset" || el.tagName !== "SELECT") return;
    var chosen = el.options[el.selectedIndex];
    if (!chosen || !chosen.dataset.options) return;
    var values = JSON.parse(chosen.dataset.options);
    fields().forEach(function (f) {
      var key = f.name.slice(4);
      if (!(key in values)) return;
      if (f.type === "checkbox") f.checked = !!values[key]; else f.value = values[key];
    });
  });
  document.addEventListener("input", function (ev) { if (isOption(ev.target)) syncRuleset(); });

  document.addEventListener("click", function (ev) {
    var link = ev.target.closest && ev.target.closest("[data-preset-options]");
    if (!link) return;
    var values = JSON.parse(link.dataset.presetOptions);
    fields().forEach(function (field) {
      var key = field.name.slice(4);
      var value = key in values ? values[key] : JSON.parse(field.dataset.default);
      if (field.type === "checkbox") field.checked = !!value;
      else field.value = value;
    });
    syncRuleset();
    ev.preventDefault();
  });
})();
