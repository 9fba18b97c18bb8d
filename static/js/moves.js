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

// After a move the panel is drawn anew, and the button that was pressed is gone: without this
// the keyboard would fall back to <body>, ten Tabs away from the moves, and a screen reader
// would hear nothing. The keyboard goes to the first legal move or the narration box; a live
// region, which stays on the page while panels come and go, reads what just happened (each
// panel says it in its [data-announce] element). A poll that brought someone else's move
// announces it too, but leaves the keyboard where it is.
(function () {
  "use strict";

  var PANELS = ["table-panel", "seat-panel"];

  function announcer() {
    var el = document.getElementById("move-announcer");
    if (!el && document.body) {
      el = document.createElement("div");
      el.id = "move-announcer";
      el.className = "visually-hidden";
      el.setAttribute("role", "status");
      el.setAttribute("aria-live", "polite");
      document.body.appendChild(el);
    }
    return el;
  }

  function panel() {
    for (var i = 0; i < PANELS.length; i++) {
      var el = document.getElementById(PANELS[i]);
      if (el) return el;
    }
    return null;
  }

  function requester(ev) {
    // The element that asked (a poll's hidden element, a move's form): htmx names the swapped
    // panel as the event's element, and the asker only in the request's config.
    return (ev.detail.requestConfig && ev.detail.requestConfig.elt) || ev.detail.elt;
  }

  function isPoll(elt) {
    // live.js's refresh (data-poll), or an older "every Ns" poll.
    if (elt && elt.hasAttribute && elt.hasAttribute("data-poll")) return true;
    var trigger = elt && elt.getAttribute && elt.getAttribute("hx-trigger");
    return !!trigger && /^\s*every\s/.test(trigger);
  }

  function shown(el) {
    return !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  }

  function firstMove(root) {
    // The game over, there is no move left: the way on (the book, the impressions) instead.
    var scope = root.querySelector("[data-next-steps]") || root.querySelector(".actions") || root;
    var controls = scope.querySelectorAll(
      "textarea, select, button, input:not([type=hidden]), a[href]"
    );
    for (var i = 0; i < controls.length; i++) {
      var el = controls[i];
      if (el.disabled || el.closest("header, [hidden]") || !shown(el) || holds(el)) continue;
      return el;
    }
    return null;
  }

  function holds(el) {
    // A field that would hold every later refresh back while it has the keyboard (live.js):
    // a select, a line to type in. The narration box does not (live.js carries it across).
    // Given one, the laptop stopped following a challenge played on the phones after the
    // game master stated one side's stakes on it (the first move there is the "Side" select):
    // the keyboard goes to the first button or link instead.
    if (el.tagName === "SELECT") return true;
    if (el.tagName === "TEXTAREA") return !el.dataset.draftKey;
    if (el.tagName !== "INPUT") return false;
    return !/^(submit|button|reset|image|checkbox|radio)$/.test(el.type);
  }

  // Kept on each request (a poll may run while a move is on its way).
  document.addEventListener("htmx:beforeRequest", function (ev) {
    var root = panel();
    if (ev.detail.xhr) ev.detail.xhr.seqBefore = root ? root.dataset.seq : null;
  });

  // Once settled: htmx has made the new panel's forms live by then.
  document.addEventListener("htmx:afterSettle", function (ev) {
    var root = panel();
    var xhr = ev.detail.xhr;
    if (!root || !xhr) return;
    // A refresh brought by the poll leaves the keyboard where it is: given to a field (the
    // first move may be a select), it would hold every later refresh back (live.js).
    var byHand = !isPoll(requester(ev));
    var moved = root.dataset.seq !== xhr.seqBefore;
    var said = root.querySelector("[data-announce]");
    var alert = root.querySelector("[role=alert]");
    var live = announcer();
    if (live && (moved || alert)) {
      // Emptied first, so that the same sentence twice is read twice.
      live.textContent = "";
      var text = alert ? alert.textContent.trim() : said ? said.textContent.trim() : "";
      window.setTimeout(function () { live.textContent = text; }, 50);
    }
    var lost = !document.activeElement || document.activeElement === document.body ||
      !document.activeElement.isConnected;
    if (byHand && lost) {
      var target = firstMove(root);
      if (target) target.focus();
    }
  });

  document.addEventListener("DOMContentLoaded", announcer);
})();

// A refused move is answered with the panel again, holding the reason and what was sent
// (games.answers): the pages' htmx-config swaps 400 and 409 in. An answer of those codes that
// holds no panel (the site refusing what it cannot read at all, a NUL in a text: the reason
// alone, amnesia_site.errors) would swap an empty panel in, and the page would lose its moves
// and what was typed. It is taken as the error it is instead: nothing is swapped, the form
// keeps what was typed, and site.js says the server's reason above it.
(function () {
  "use strict";

  document.addEventListener("htmx:beforeSwap", function (ev) {
    var xhr = ev.detail.xhr;
    var target = ev.detail.target;
    if (!xhr || (xhr.status !== 400 && xhr.status !== 409) || !target || !target.id) return;
    var doc = new DOMParser().parseFromString(xhr.responseText || "", "text/html"); // inert
    if (doc.getElementById(target.id)) return;
    ev.detail.shouldSwap = false;
    ev.detail.isError = true;
  });
})();

// The form that sent a refused move (data-refused, games.refill) may sit in a folded part of
// the page (a <details>: "Make a new character", "Teams"): opened, with the folded parts
// inside it that hold something chosen, so what was kept is in sight beside the reason.
(function () {
  "use strict";

  function filled(details) {
    var controls = details.querySelectorAll("input, select, textarea");
    for (var i = 0; i < controls.length; i++) {
      var el = controls[i];
      if (el.type === "checkbox" || el.type === "radio") {
        if (el.checked) return true;
      } else if ((el.tagName === "TEXTAREA" || el.type === "text") && el.value) {
        return true;
      }
    }
    return false;
  }

  function openRefused() {
    document.querySelectorAll("form[data-refused]").forEach(function (form) {
      for (var el = form.parentElement; el; el = el.parentElement) {
        if (el.tagName === "DETAILS") el.open = true;
      }
      form.querySelectorAll("details").forEach(function (details) {
        if (filled(details)) details.open = true;
      });
    });
  }

  document.addEventListener("htmx:afterSettle", openRefused);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", openRefused);
  } else {
    openRefused();
  }
})();
