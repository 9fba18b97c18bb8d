// The live table: keyboard shortcuts and a narration draft that survives a reload or a
// dropped connection (kept in this browser at once, and saved to the server when it can).
(function () {
  "use strict";

  // Where a letter is text: a radio or a checkbox (the keyboard may sit on one after a move)
  // takes no letters, so the shortcuts still work there.
  var NOT_TEXT = /^(radio|checkbox|button|submit|reset|range|color|file)$/;
  function typing(el) {
    if (!el) return false;
    if (el.tagName === "INPUT") return !NOT_TEXT.test(el.type);
    return el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable;
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

  // A draft save still waiting (or on its way) when a move is sent would put the narration
  // the move just stored back into the box, and it would go out again with the next move:
  // a move cancels them, and each save says which move its page showed, so that the server
  // drops one that a narrated move has overtaken (games.services.save_draft).
  var pending = [];
  var inFlight = [];

  function cancelDrafts() {
    pending.forEach(clearTimeout);
    pending = [];
    inFlight.forEach(function (c) { c.abort(); });
    inFlight = [];
  }

  function pageSeq() {
    var panel = document.getElementById("table-panel");
    return panel ? panel.dataset.seq || "" : "";
  }

  function setupDraft(area) {
    if (area.dataset.draftReady) return;
    area.dataset.draftReady = "1";
    var key = area.dataset.draftKey;
    var status = area.form && area.form.querySelector(".draft-status");
    var saved = null;
    try { saved = window.localStorage.getItem(key); } catch (e) { /* private mode */ }
    // Only into a box as the page drew it (a reload, a dropped connection): a box a refresh
    // has just carried the text into (static/js/live.js) holds the newest text already, and
    // may have been typed in before this runs (a refresh settles a moment after its swap).
    if (saved && area.value === area.defaultValue && saved.length > area.value.length) {
      area.value = saved;
    }
    area.addEventListener("input", function () {
      try { window.localStorage.setItem(key, area.value); } catch (e) { /* full or private */ }
      var seq = pageSeq();
      cancelDrafts();
      pending.push(setTimeout(function () { pushDraft(area, status, seq); }, 800));
    });
  }

  // A move that carried the box's text (from any control): the browser's copy goes too.
  var sent = [];
  document.addEventListener("htmx:configRequest", function (ev) {
    if (ev.detail.verb === "get") return;
    cancelDrafts();
    var text = ev.detail.parameters && ev.detail.parameters.text;
    sent = [];
    document.querySelectorAll("textarea[data-draft-key]").forEach(function (area) {
      if (text && area.value.trim() && String(text).trim() === area.value.trim()) {
        sent.push(area.dataset.draftKey);
      }
    });
  });
  document.addEventListener("htmx:afterRequest", function (ev) {
    if (!ev.detail.successful || ev.detail.requestConfig && ev.detail.requestConfig.verb === "get") return;
    sent.forEach(function (key) {
      try { window.localStorage.removeItem(key); } catch (e) { /* ignore */ }
    });
    sent = [];
  });

  function pushDraft(area, status, seq) {
    var key = area.dataset.draftKey;
    if (!area.isConnected) {
      // The table moved on while this was typed, and its refresh carried the text into a new
      // box (static/js/live.js): save from that one.
      var boxes = document.querySelectorAll("textarea[data-draft-key]");
      area = null;
      for (var i = 0; i < boxes.length; i++) {
        if (boxes[i].dataset.draftKey === key) area = boxes[i];
      }
      if (!area) return;
      status = area.form && area.form.querySelector(".draft-status");
      seq = pageSeq(); // the same scene's box still: what it holds was never sent
    }
    var url = area.dataset.draftUrl;
    if (!url) return;
    var token = document.querySelector("[name=csrfmiddlewaretoken]");
    var body = new FormData();
    body.append("text", area.value);
    body.append("seq", seq);
    var control = window.AbortController ? new AbortController() : null;
    if (control) inFlight.push(control);
    fetch(url, {
      method: "POST",
      body: body,
      headers: { "X-CSRFToken": token ? token.value : "" },
      credentials: "same-origin",
      signal: control ? control.signal : undefined,
    }).then(function (r) {
      if (status) status.textContent = r.ok ? status.dataset.saved || "Draft saved." : "";
    }).catch(function (e) {
      if (e && e.name === "AbortError") return;
      if (status) status.textContent = "Offline: the draft is kept in this browser.";
    });
  }

  function init(root) {
    (root || document).querySelectorAll("textarea[data-draft-key]").forEach(setupDraft);
  }

  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (ev) { init(ev.target); });

  // Back or Forward that brings this page out of the browser's memory would show the table as
  // it was when the page was left: ask the server for it as it is now.
  window.addEventListener("pageshow", function (ev) {
    if (ev.persisted) window.location.reload();
  });
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
