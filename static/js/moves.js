// Every move a page sends carries an id made here (the form's hidden client_id input), so the
// server can tell a resend from a new move: a move sent again with the same id is answered
// with what was stored, never stored twice (games/services.py).
//
// A new id for each submission; but when a submission got no answer at all (the connection
// dropped), the form keeps its id, so sending it again is a resend of the same move.
// The server puts an id of its own in each form too: that one serves a page without script.
(function () {
  "use strict";

  function newId() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") {
      return window.crypto.randomUUID();
    }
    // randomUUID needs a secure context; a laptop served over plain http on the LAN has
    // getRandomValues all the same.
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  // Capture: runs before htmx reads the form's values for a boosted submission.
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    var input = form && form.querySelector && form.querySelector('input[name="client_id"]');
    if (!input) return;
    if (form.dataset.unanswered === "1") return; // a resend keeps the unanswered id
    input.value = newId();
  }, true);

  document.addEventListener("htmx:afterRequest", function (ev) {
    var elt = ev.detail && ev.detail.elt;
    var form = elt && (elt.tagName === "FORM" ? elt : elt.closest && elt.closest("form"));
    if (!form || !form.querySelector('input[name="client_id"]')) return;
    var xhr = ev.detail.xhr;
    if (!xhr || xhr.status === 0) {
      form.dataset.unanswered = "1";
    } else {
      delete form.dataset.unanswered;
    }
  });
})();
