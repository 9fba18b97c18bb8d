// The contest table: the narrator's countdown (after which others may take control, unless
// the game master opens it early; it stands still while a contest is played), narration that rides along with the next move, and
// polling that never replaces the page while someone is tapping in a card or typing in a field
// other than the narration box (the box is the frame's: games/templatetags/moves.py).
(function () {
  "use strict";

  document.documentElement.classList.add("js");
  var OPENED = "contest-opened-";

  // -- the countdown -----------------------------------------------------------------------
  function lockTakers(panel, locked) {
    var box = panel.querySelector("[data-take-control]");
    if (!box) return;
    box.classList.toggle("js-locked", locked);
    box.querySelectorAll("form button").forEach(function (b) { b.disabled = locked; });
  }

  function startCountdown(panel) {
    var el = panel.querySelector("[data-countdown]");
    if (!el || el.dataset.running) return;
    el.dataset.running = "1";
    var seconds = Number(el.dataset.seconds) || 0;
    var left = Math.max(0, seconds - (Number(el.dataset.elapsed) || 0));
    var deadline = Date.now() + left * 1000;
    var bar = el.querySelector("progress");
    var text = el.querySelector(".countdown-text");
    function clock(s) { return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0"); }
    if (el.hasAttribute("data-paused")) {
      // A contest is being played: the narrator's time stands still (the server counts it
      // again from the move that ends the contest).
      if (bar) bar.value = left;
      if (text) text.textContent = text.dataset.pausedText.replace("%s", clock(Math.ceil(left)));
      return;
    }
    var opened = false;
    try { opened = window.sessionStorage.getItem(OPENED + el.dataset.key) === "1"; } catch (e) { /* ignore */ }
    function tick() {
      if (!el.isConnected) return;
      var remaining = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      if (bar) bar.value = remaining;
      var done = remaining === 0 || opened;
      el.classList.toggle("done", done);
      if (text) {
        text.textContent = done
          ? text.dataset.openText
          : text.dataset.waitText.replace("%s", clock(remaining));
      }
      lockTakers(panel, !done);
      if (!done) window.setTimeout(tick, 250);
    }
    panel.addEventListener("click", function (ev) {
      if (!ev.target.closest || !ev.target.closest("[data-unlock]")) return;
      opened = true;
      try { window.sessionStorage.setItem(OPENED + el.dataset.key, "1"); } catch (e) { /* ignore */ }
      tick();
    });
    tick();
  }

  // -- narration rides along with the next move ----------------------------------------------
  var kept = null;

  function narration() { return document.getElementById("narration"); }

  document.addEventListener("htmx:configRequest", function (ev) {
    var box = narration();
    var elt = ev.detail.elt;
    kept = box ? box.value : null;
    if (!box || !box.value.trim() || ev.detail.verb !== "post") return;
    var form = elt.closest ? elt.closest("form") : null;
    if (!form || form.hasAttribute("data-no-narrate") || !form.hasAttribute("data-narrate") && form.id !== "challenge-form") return;
    if (!("text" in ev.detail.parameters) || !ev.detail.parameters.text) {
      ev.detail.parameters.text = box.value;
    }
    sentText = box.value;
    kept = "";
  }, true);  // before the frame's draft keeper (static/js/table.js) looks for the text sent

  var sentText = "";
  document.addEventListener("htmx:afterSwap", function (ev) {
    var box = narration();
    // A refused move stored nothing: what was typed comes back to the box.
    var refused = ev.detail.xhr && ev.detail.xhr.status >= 400;
    if (refused && sentText) kept = sentText;
    if (box && kept && box.value.length < kept.length) box.value = kept;
    kept = null;
    sentText = "";
  });

  // -- polling: only when nothing is being typed or tapped in --------------------------------
  // (A veto here, not an hx-trigger filter: htmx compiles those with Function(), which the
  // Content Security Policy refuses.)
  function mayRefresh() {
    // The narration box never holds the table back: the frame carries its text and keyboard
    // into the new panel (static/js/live.js).
    var active = document.activeElement;
    var typing = active && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName);
    if (typing && !active.hasAttribute("data-draft-key")) return false;
    if (document.querySelector("#table-panel .pending")) return false;
    return !document.querySelector("details[open].vote-off, details[open].extra-points");
  }

  document.addEventListener("htmx:confirm", function (ev) {  // cancelled: the poll is not sent
    if (ev.target.hasAttribute && ev.target.hasAttribute("data-poll") && !mayRefresh()) {
      ev.preventDefault();
    }
  });

  function init() {
    var panel = document.getElementById("table-panel");
    if (panel) startCountdown(panel);
  }
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:load", init);
})();
