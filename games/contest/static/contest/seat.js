// A seat's own page: a card is played in two steps, choose then confirm, so a stray tap on a
// phone plays nothing. Without this file the radio buttons and the "Play the chosen card"
// button do the same; with it, the button names the card ("Play 7♣") and takes the focus.
(function () {
  "use strict";

  function update(form, focus) {
    var button = form.querySelector(".confirm-card");
    if (!button) return;
    if (!button.dataset.plainLabel) button.dataset.plainLabel = button.textContent;
    var chosen = form.querySelector("input.card-choice:checked");
    button.disabled = !chosen;
    button.textContent = chosen
      ? (button.dataset.confirmTemplate || "{card}").replace("{card}", chosen.dataset.cardLabel || chosen.value)
      : button.dataset.plainLabel;
    if (chosen && focus) button.focus({ preventScroll: false });
  }

  document.addEventListener("change", function (ev) {
    var input = ev.target;
    if (!input.matches || !input.matches("input.card-choice")) return;
    var form = input.closest("form[data-confirm-card]");
    // a tap (pointer) goes on to the button; the arrow keys keep moving between the cards
    if (form) update(form, input.dataset.tapped === "1");
    input.dataset.tapped = "";
  });

  document.addEventListener("pointerdown", function (ev) {
    var label = ev.target.closest && ev.target.closest("form[data-confirm-card] label");
    var input = label && label.querySelector("input.card-choice");
    if (input) input.dataset.tapped = "1";
  });

  // The page refreshes itself every few seconds; not while a card is chosen and not yet
  // confirmed (the choice would vanish). A confirm sent to a table that moved on meanwhile
  // gets the write path's "the table moved on" answer.
  document.addEventListener("htmx:beforeRequest", function (ev) {
    var elt = ev.detail && ev.detail.elt;
    if (!elt || elt.tagName === "FORM" || !elt.hasAttribute("hx-trigger")) return;
    if (document.querySelector("form[data-confirm-card] input.card-choice:checked")) ev.preventDefault();
  });

  function init(root) {
    (root || document).querySelectorAll("form[data-confirm-card]").forEach(function (form) {
      update(form, false);
    });
  }
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (ev) { init(ev.target); });
})();

// The narrator's countdown on a phone, as on the laptop (contest/_clock.html: the server says
// how long the minute is and how much of it the moves' stored times have used), and a take of
// control before it is up asks first: the seed leaves the timing to the table's judgement. At
// a table that keeps the minute strictly the server refuses instead (games/contest/minute.py),
// and the form carries no question.
(function () {
  "use strict";

  function clock(s) { return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0"); }

  function remaining(el) {
    if (!el.dataset.deadline) {
      var left = Math.max(0, (Number(el.dataset.seconds) || 0) - (Number(el.dataset.elapsed) || 0));
      el.dataset.deadline = String(Date.now() + left * 1000);
    }
    return Math.max(0, Math.ceil((Number(el.dataset.deadline) - Date.now()) / 1000));
  }

  var timer = null;

  function tick() {
    window.clearTimeout(timer);
    var el = document.querySelector("#seat-panel [data-countdown]");
    if (!el) return;
    var bar = el.querySelector("progress");
    var text = el.querySelector(".countdown-text");
    var left = remaining(el);
    if (el.hasAttribute("data-paused")) {
      if (bar) bar.value = left;
      if (text) text.textContent = text.dataset.pausedText.replace("%s", clock(left));
      return;
    }
    if (bar) bar.value = left;
    el.classList.toggle("done", left === 0);
    if (text) {
      text.textContent = left === 0 ? text.dataset.openText : text.dataset.waitText.replace("%s", clock(left));
    }
    if (left > 0) timer = window.setTimeout(tick, 250);
  }

  document.addEventListener("click", function (ev) {
    var button = ev.target.closest && ev.target.closest("form[data-early-confirm] button");
    if (!button) return;
    var el = document.querySelector("#seat-panel [data-countdown]");
    if (!el || el.hasAttribute("data-paused")) return;
    var left = remaining(el);
    if (left === 0) return;
    var question = button.form.dataset.earlyConfirm.replace("%s", clock(left));
    if (!window.confirm(question)) {
      ev.preventDefault();
      ev.stopImmediatePropagation();
    }
  }, true);

  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:load", tick);
})();
