// Amnesia Stories' answer timer: counts down to the end the server set (the same on every
// screen), and at zero only says so. It never sends an answer for anyone.
(function () {
  "use strict";

  function clock(s) { return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0"); }

  function start(el) {
    if (el.dataset.running) return;
    el.dataset.running = "1";
    var seconds = Number(el.dataset.seconds) || 0;
    var deadline = Number(el.dataset.ends) || Date.now();
    // A device clock behind the server's never shows more than the whole time.
    deadline = Math.min(deadline, Date.now() + seconds * 1000);
    var left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    var bar = el.querySelector("progress");
    var text = el.querySelector(".answer-timer-text");
    var wasDone = left === 0;
    function tick() {
      if (!el.isConnected) return;
      var remaining = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      var done = remaining === 0;
      if (bar) bar.value = remaining;
      el.classList.toggle("done", done);
      // The soft signal: a short flash when the time runs out on this screen.
      if (done && !wasDone) el.classList.add("ringing");
      wasDone = done;
      if (text) text.textContent = done ? text.dataset.doneText : text.dataset.waitText.replace("%s", clock(remaining));
      // Screen readers hear the end only, not every second.
      var alert = el.querySelector("[data-timer-alert]");
      if (alert && done && !alert.textContent && left > 0) alert.textContent = text ? text.dataset.doneText : "";
      if (!done) window.setTimeout(tick, 250);
    }
    tick();
  }

  function init() { document.querySelectorAll("[data-answer-timer]").forEach(start); }
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:load", init);
})();
