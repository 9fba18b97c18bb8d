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

  // A request htmx sent that failed: the server refused it (429, too many tries) or could not
  // do it (503, the database busy; any other 5xx), or it never arrived (the connection lost).
  // htmx swaps nothing then (the pages' htmx-config), so the form keeps what was typed in it;
  // the reason goes just above that form, in the server's words when it sent some. A poll's
  // failure is not shown: the next poll tries again.
  function isPoll(elt) {
    if (elt.hasAttribute && elt.hasAttribute("data-poll")) return true; // live.js's refresh
    var trigger = elt.getAttribute && elt.getAttribute("hx-trigger");
    return !!trigger && /^\s*every\s/.test(trigger);
  }

  function serverReason(xhr) {
    var type = (xhr && xhr.getResponseHeader("Content-Type")) || "";
    if (type.indexOf("text/html") !== 0) return "";
    var doc = new DOMParser().parseFromString(xhr.responseText, "text/html");  // inert: no script runs
    var said = doc.querySelector("[data-request-error]");
    return said ? said.textContent.trim() : "";
  }

  function clearNotices() {
    document.querySelectorAll("[data-request-notice]").forEach(function (el) { el.remove(); });
  }

  function showNotice(elt, text) {
    clearNotices();
    var notice = document.createElement("p");
    notice.className = "flash flash--error request-notice";
    notice.setAttribute("role", "alert");
    notice.setAttribute("data-request-notice", "");
    notice.textContent = text;
    var anchor = (elt.closest && elt.closest("form")) || elt;
    if (anchor && anchor.parentNode && anchor !== document.body) {
      anchor.parentNode.insertBefore(notice, anchor);
    } else {
      (document.getElementById("main") || document.body).prepend(notice);
    }
  }

  document.addEventListener("htmx:responseError", function (ev) {
    if (isPoll(ev.target)) return;
    showNotice(ev.target, serverReason(ev.detail.xhr) || document.body.dataset.responseError);
  });
  document.addEventListener("htmx:sendError", function (ev) {
    if (isPoll(ev.target)) return;
    showNotice(ev.target, document.body.dataset.sendError);
  });
  document.addEventListener("htmx:afterRequest", function (ev) {
    if (ev.detail.successful) clearNotices();
  });
})();

// A refused move or form is answered 400 or 409 with the part of the page it came from, the
// reason and what was sent in it (games.answers), for htmx to swap in. Under DEBUG (make run
// serves with DEBUG=1) django-htmx's {% htmx_script %} adds its debug script, which replaces
// the whole document with any 400 answer, to show Django's error pages: the page lost its
// stylesheet, its title and what was typed. Such an answer is held back from that script: it
// goes on to htmx, which swaps it as on a site without DEBUG. (An answer that does not hold
// its target, a real error page, is left to the debug script.) The window's capture phase
// runs before the document's listener, whichever script was loaded first.
(function () {
  "use strict";

  window.addEventListener(
    "htmx:beforeOnLoad",
    function (ev) {
      var xhr = ev.detail && ev.detail.xhr;
      var target = ev.detail && ev.detail.target;
      if (!xhr || (xhr.status !== 400 && xhr.status !== 409) || !target || !target.id) return;
      var doc = new DOMParser().parseFromString(xhr.responseText || "", "text/html"); // inert
      if (doc.getElementById(target.id)) ev.stopPropagation();
    },
    true,
  );
})();
