// Every page. The Content Security Policy allows no inline script, style or event handler, so
// htmx is told not to need them, and the few behaviours that were inline handlers live here,
// asked for with data attributes.
(function () {
  "use strict";

  // htmx would add an inline <style> for its request indicators (app.css has those rules) and
  // compile hx-trigger filters and hx-on with Function(): the policy refuses both.
  if (window.htmx) {
    window.htmx.config.includeIndicatorStyles = false;
    window.htmx.config.allowEval = false;
  }

  // <select data-autosubmit>: choosing sends the form (a <noscript> button does it without JS).
  document.addEventListener("change", function (ev) {
    var el = ev.target;
    if (el.matches && el.matches("[data-autosubmit]") && el.form) el.form.submit();
  });

  // <input data-select-on-focus>: a link to copy, selected whole at the first click or tab.
  document.addEventListener("focusin", function (ev) {
    var el = ev.target;
    if (el.matches && el.matches("[data-select-on-focus]")) el.select();
  });
  document.addEventListener("click", function (ev) {
    var el = ev.target;
    if (el.matches && el.matches("[data-select-on-focus]")) el.select();
    if (el.closest && el.closest("[data-print]")) window.print();
  });

  // <form data-confirm="question">: asks before sending.
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      ev.preventDefault();
    }
  });
})();
