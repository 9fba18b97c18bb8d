// The live table: keyboard shortcuts and a narration draft that survives a reload or a
// dropped connection (kept in this browser at once, and saved to the server when it can).
(function () {
  "use strict";

  function typing(el) {
    return el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable);
  }

  function visible(el) {
    return !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  }

  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "Escape" && typing(document.activeElement)) {
      document.activeElement.blur();
      return;
    }
    if (typing(document.activeElement)) return;
    var key = ev.key.toLowerCase();
    var focus = document.querySelector('[data-focus-key="' + key + '"]');
    if (focus && visible(focus)) {
      ev.preventDefault();
      focus.focus();
      return;
    }
    var targets = document.querySelectorAll('[data-shortcut="' + key + '"]');
    for (var i = 0; i < targets.length; i++) {
      var el = targets[i];
      if (!el.disabled && visible(el)) {
        ev.preventDefault();
        el.click();
        return;
      }
    }
  });

  var timers = new WeakMap();

  function setupDraft(area) {
    if (area.dataset.draftReady) return;
    area.dataset.draftReady = "1";
    var key = area.dataset.draftKey;
    var status = area.form && area.form.querySelector(".draft-status");
    var saved = null;
    try { saved = window.localStorage.getItem(key); } catch (e) { /* private mode */ }
    if (saved && saved.length > area.value.length) area.value = saved;
    area.addEventListener("input", function () {
      try { window.localStorage.setItem(key, area.value); } catch (e) { /* full or private */ }
      clearTimeout(timers.get(area));
      timers.set(area, setTimeout(function () { pushDraft(area, status); }, 800));
    });
    if (area.form) {
      area.form.addEventListener("htmx:afterRequest", function (ev) {
        if (ev.detail.successful) {
          try { window.localStorage.removeItem(key); } catch (e) { /* ignore */ }
        }
      });
    }
  }

  function pushDraft(area, status) {
    var url = area.dataset.draftUrl;
    if (!url) return;
    var token = document.querySelector("[name=csrfmiddlewaretoken]");
    var body = new FormData();
    body.append("text", area.value);
    fetch(url, {
      method: "POST",
      body: body,
      headers: { "X-CSRFToken": token ? token.value : "" },
      credentials: "same-origin",
    }).then(function (r) {
      if (status) status.textContent = r.ok ? status.dataset.saved || "Draft saved." : "";
    }).catch(function () {
      if (status) status.textContent = "Offline: the draft is kept in this browser.";
    });
  }

  function init(root) {
    (root || document).querySelectorAll("textarea[data-draft-key]").forEach(setupDraft);
  }

  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (ev) { init(ev.target); });
})();

// Projector view: big type, nothing but the table; remembered per browser.
(function () {
  "use strict";
  var KEY = "amnesia-projector";
  function apply(on) {
    document.documentElement.classList.toggle("projector", on);
    document.querySelectorAll(".projector-toggle").forEach(function (b) {
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }
  function stored() {
    try { return window.localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }
  document.addEventListener("click", function (ev) {
    var button = ev.target.closest && ev.target.closest(".projector-toggle");
    if (!button) return;
    var on = !document.documentElement.classList.contains("projector");
    try { window.localStorage.setItem(KEY, on ? "1" : "0"); } catch (e) { /* ignore */ }
    apply(on);
  });
  document.addEventListener("DOMContentLoaded", function () { apply(stored()); });
  document.addEventListener("htmx:load", function () { apply(stored()); });
})();
