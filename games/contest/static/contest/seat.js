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
