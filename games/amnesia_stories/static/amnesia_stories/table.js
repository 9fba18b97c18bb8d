// Amnesia Stories: click the journey (or the deck) to fill the numbered selects in order.
// Everything also works without this file. (N, opening the next step of the reveal, is the
// reveal button's own shortcut: the step is opened on the server, for every screen.)
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // The buttons of a form that stand for cards, and the selects they fill.
  var KINDS = [
    { form: "[data-tell-form]", button: ".journey-card", target: "select[data-step-target]" },
    { form: "[data-deal-form]", button: ".deal-card", target: "select[data-deal-target]" },
  ];

  function mark(form, kind) {
    var chosen = {};
    form.querySelectorAll(kind.target).forEach(function (select, i) {
      if (select.value) chosen[select.value] = select.dataset.label || "#" + (i + 1);
    });
    form.querySelectorAll(kind.button).forEach(function (button) {
      var step = chosen[button.dataset.card];
      button.classList.toggle("is-chosen", !!step);
      button.setAttribute("aria-pressed", step ? "true" : "false");
      var badge = button.querySelector(".chosen-step");
      if (step && !badge) {
        badge = document.createElement("span");
        badge.className = "chosen-step";
        button.appendChild(badge);
      }
      if (badge) badge.textContent = step || "";
    });
  }

  document.addEventListener("click", function (ev) {
    KINDS.forEach(function (kind) {
      var button = ev.target.closest && ev.target.closest(kind.button);
      if (!button) return;
      var form = button.closest(kind.form);
      if (!form) return;
      var selects = Array.prototype.slice.call(form.querySelectorAll(kind.target));
      var card = button.dataset.card;
      var already = selects.filter(function (s) { return s.value === card; });
      if (already.length) {
        already.forEach(function (s) { s.value = ""; });
      } else {
        var free = selects.filter(function (s) {
          return !s.value && Array.prototype.some.call(s.options, function (o) { return o.value === card; });
        })[0];
        if (free) free.value = card;
      }
      mark(form, kind);
    });
  });

  document.addEventListener("change", function (ev) {
    KINDS.forEach(function (kind) {
      var form = ev.target.closest && ev.target.closest(kind.form);
      if (form && ev.target.matches(kind.target)) mark(form, kind);
    });
  });

  function init(root) {
    KINDS.forEach(function (kind) {
      (root || document).querySelectorAll(kind.form).forEach(function (form) { mark(form, kind); });
    });
  }
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (ev) { init(ev.target); });
})();
