// A player's own answer page (phones mode): the numbers they have chosen but not sent stay on
// this phone, across a refusal (the referee's answer redraws the form empty: two steps on one
// number, say) and a reload mid-answer. They are kept in this browser only, under the seat's
// link and the turn (the form's data-keep-picks), never sent anywhere before the player sends
// them, and cleared once sent or judged: a page of this seat with no answer form for that key
// forgets it. The shared pass-the-laptop screen has no such form and never loads this file,
// so the next player there never sees them.
(function () {
  "use strict";

  function store() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  function read(key) {
    var s = store();
    if (!s) return null;
    try { return JSON.parse(s.getItem(key) || "null"); } catch (e) { return null; }
  }

  function save(form) {
    var s = store();
    if (!s) return;
    var picks = {};
    form.querySelectorAll("input[type=radio]:checked").forEach(function (input) {
      picks[input.name] = input.value;
    });
    try { s.setItem(form.dataset.keepPicks, JSON.stringify(picks)); } catch (e) { /* full */ }
  }

  function forget(prefix, keep) {
    var s = store();
    if (!s || !prefix) return;
    var gone = [];
    for (var i = 0; i < s.length; i++) {
      var key = s.key(i);
      if (key && key.indexOf(prefix) === 0 && key !== keep) gone.push(key);
    }
    gone.forEach(function (key) { s.removeItem(key); });
  }

  function restore() {
    var panel = document.getElementById("seat-panel");
    if (!panel) return;
    var form = panel.querySelector("form[data-keep-picks]");
    forget(panel.dataset.picksPrefix, form ? form.dataset.keepPicks : null);
    if (!form) return;
    var picks = read(form.dataset.keepPicks) || {};
    Object.keys(picks).forEach(function (name) {
      form.querySelectorAll("input[type=radio]").forEach(function (input) {
        if (input.name === name && input.value === String(picks[name])) input.checked = true;
      });
    });
  }

  document.addEventListener("change", function (ev) {
    var form = ev.target.closest && ev.target.closest("form[data-keep-picks]");
    if (form) save(form);
  });
  document.addEventListener("DOMContentLoaded", restore);
  document.addEventListener("htmx:afterSettle", restore);
})();
