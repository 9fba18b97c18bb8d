// The error summary at the top of a form (playtests/_error_summary.html). Without script the
// browser focuses it through its autofocus attribute and its links jump to the fields; with
// script it is focused even where autofocus is not honoured (a page restored from history),
// and a link moves the focus into its field, not only the scroll position.
(function () {
  "use strict";

  function summary() {
    return document.querySelector("[data-error-summary]");
  }

  function focusSummary() {
    var box = summary();
    if (box && document.activeElement !== box) box.focus();
  }

  document.addEventListener("DOMContentLoaded", focusSummary);
  window.addEventListener("pageshow", focusSummary);

  document.addEventListener("click", function (ev) {
    var link = ev.target.closest && ev.target.closest("[data-error-summary] a[href^='#']");
    if (!link) return;
    var field = document.getElementById(link.getAttribute("href").slice(1));
    if (!field) return;
    ev.preventDefault();
    field.scrollIntoView({ block: "center" });
    field.focus();
  });
})();
