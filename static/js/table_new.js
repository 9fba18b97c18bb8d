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

// The start player: the dropdown of the seats takes the names as they are typed (without this
// file it lists "Seat 1", "Seat 2"... and the form checks the number), and with a virtual
// deck the game's own draw leaves it to the app.
(function () {
  "use strict";

  function names() {
    var box = document.querySelector("textarea[name=players]");
    if (!box) return [];
    return box.value.split("\n").map(function (l) { return l.trim(); }).filter(function (l) { return l; });
  }

  function followPlayers() {
    var select = document.querySelector("select[data-start-seats]");
    if (!select) return;
    var list = names();
    for (var i = 0; i < select.options.length; i++) {
      var opt = select.options[i];
      if (!opt.value) continue;
      var n = Number(opt.value);
      if (!opt.dataset.seatLabel) opt.dataset.seatLabel = opt.textContent;
      var present = n <= list.length;
      opt.textContent = present ? n + ". " + list[n - 1] : opt.dataset.seatLabel;
      opt.hidden = list.length > 0 && !present;
      opt.disabled = list.length > 0 && !present;
    }
    if (select.selectedOptions.length && select.selectedOptions[0].disabled) select.value = "";
  }

  function followMethod() {
    var select = document.querySelector("select[data-start-seats]");
    var drawn = document.querySelector("[name=start_method]:checked");
    var mode = document.querySelector("[name=deck_mode]:checked");
    if (!select) return;
    // The app draws for a virtual deck: nothing to choose (the server ignores a choice).
    select.disabled = !!(drawn && drawn.value !== "choose" && (!mode || mode.value === "virtual"));
  }

  document.addEventListener("input", function (ev) {
    if (ev.target.name === "players") followPlayers();
  });
  document.addEventListener("change", function (ev) {
    if (ev.target.name === "start_method" || ev.target.name === "deck_mode") followMethod();
  });
  function init() { followPlayers(); followMethod(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
