// An Amnesia seat page follows the table by itself (static/js/live.js): another player's
// suggestion redraws the panel. What this player was typing (a scene's narration, a
// suggestion, the stakes) must survive that redraw, so the text of every field marked
// data-keep is carried from the old panel into the new one when the new one has the same
// field (same data-keep key: the same scene) still empty. A move this page posts itself
// carries nothing over: its text has just been sent.
(function () {
  "use strict";

  var kept = null;

  document.addEventListener("htmx:beforeSwap", function (ev) {
    kept = null;
    var config = ev.detail.requestConfig;
    if (!config || config.verb !== "get") return;
    var fields = document.querySelectorAll("#seat-panel [data-keep]");
    if (!fields.length) return;
    kept = { values: {}, focused: null };
    fields.forEach(function (field) {
      if (field.value) kept.values[field.dataset.keep] = field.value;
      if (document.activeElement === field) kept.focused = field.dataset.keep;
    });
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (!kept) return;
    var state = kept;
    kept = null;
    document.querySelectorAll("#seat-panel [data-keep]").forEach(function (field) {
      var value = state.values[field.dataset.keep];
      if (value && !field.value) field.value = value;
      if (state.focused === field.dataset.keep) {
        field.focus();
        var end = field.value.length;
        try { field.setSelectionRange(end, end); } catch (e) { /* not a text field */ }
      }
    });
  });
})();
