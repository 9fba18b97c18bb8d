// An Amnesia seat page follows the table by itself (static/js/live.js): another player's
// suggestion redraws the panel. What this player was typing (a scene's narration, a
// suggestion, the stakes) must survive that redraw, so the text of every field marked
// data-keep is carried from the old panel into the new one when the new one has the same
// field (same data-keep key: the same scene) still empty. A move this page posts itself
// carries nothing over: its text has just been sent.
//
// A redraw may also bring a panel without the field: a paid suggestion stops the scene for
// the narrator's answer, a challenge may follow, and only then does the scene (and its
// narration box) come back. A reload, or the page opened again from its link, starts from
// nothing too. So what is typed is also kept in this browser (localStorage, under the seat's
// link: the panel's data-keep-prefix) until it is sent, and put back into the same field,
// still empty, whenever it shows again. It is never sent anywhere before the player sends
// it; a scene's text is forgotten once another scene has begun (data-keep-part).
(function () {
  "use strict";

  var kept = null;

  function store() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  function panel() {
    return document.getElementById("seat-panel");
  }

  function storedKey(field) {
    var p = panel();
    var prefix = p && p.dataset.keepPrefix;
    return prefix ? prefix + field.dataset.keep : null;
  }

  function remember(field) {
    var s = store();
    var key = storedKey(field);
    if (!s || !key) return;
    try {
      if (field.value) s.setItem(key, field.value);
      else s.removeItem(key);
    } catch (e) { /* full, or storage refused: the in-page carry still works */ }
  }

  function forgetSent(form) {
    var s = store();
    if (!s || !form || !form.querySelectorAll) return;
    form.querySelectorAll("[data-keep]").forEach(function (field) {
      var key = storedKey(field);
      if (key) s.removeItem(key);
    });
  }

  function restore() {
    var p = panel();
    var s = store();
    if (!p || !s || !p.dataset.keepPrefix) return;
    var prefix = p.dataset.keepPrefix;
    var current = prefix + (p.dataset.keepPart || "");
    // Another scene's text (this seat's only): it was sent, or its scene is over.
    var gone = [];
    for (var i = 0; i < s.length; i++) {
      var key = s.key(i);
      if (key && key.indexOf(prefix) === 0 && key.indexOf(current) !== 0) gone.push(key);
    }
    gone.forEach(function (key) { s.removeItem(key); });
    p.querySelectorAll("[data-keep]").forEach(function (field) {
      var key = storedKey(field);
      var value = key && s.getItem(key);
      if (value && !field.value) field.value = value;
    });
  }

  document.addEventListener("input", function (ev) {
    var field = ev.target;
    if (field && field.dataset && field.dataset.keep && field.closest("#seat-panel")) {
      remember(field);
    }
  });

  document.addEventListener("htmx:afterRequest", function (ev) {
    // A move this page sent and the table took: its text is in the log now. A refusal (4xx),
    // a stale page (409) or a dropped connection keeps it, to be sent again.
    var config = ev.detail.requestConfig;
    var xhr = ev.detail.xhr;
    if (!config || config.verb !== "post" || !xhr || xhr.status < 200 || xhr.status >= 300) {
      return;
    }
    var elt = config.elt || ev.detail.elt;
    forgetSent(elt && elt.closest ? elt.closest("form") || elt : elt);
  });

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
    restore();
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

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", restore);
  else restore();
})();
