// Live pages: an element with data-poll="URL" data-version="V" asks URL?since=V every few
// seconds (data-poll-every, in milliseconds; 3000 unless said). The server answers 204 while
// the table is where the page saw it, which costs it almost nothing; when the table moved it
// answers 200, and this script fires "table-changed" on the element, whose own hx-get (with
// hx-trigger="table-changed") fetches the fresh panel. The new panel carries the new version.
// Nothing is asked while the page is hidden (a phone in a pocket); it asks at once on return.
//
// A refresh never takes away what someone is doing on the page: while a field of the panel
// has the keyboard, or holds a choice not yet sent (a half-filled pick, a ticked box), the
// refresh waits for a later poll (the server keeps answering "changed" until the page draws
// the new version). A narration box is the exception, since it may hold text for minutes:
// its text (autosaved as a draft anyway) is carried into the new panel when the box is
// still there, and the keyboard goes back to whatever control had it, a text field's caret
// and selection where they were. So a narration box with the keyboard never stops the page
// from following the table (only a word an input method is still composing waits).
//
// The push (games/push.py): the page also holds a websocket to its push address (data-push, or
// the poll's address with /push/ for /poll/), on which the server says {"version": V} whenever
// the table moves. A version newer than the page's fires "table-changed" as a poll's 200 does,
// under the same rules (mayRefresh). While the connection is open the polls slow down to one
// every PUSHED_EVERY (never stop: a push lost on the way is caught up); when it cannot be made
// or drops, the page says nothing and polls as before, and tries the connection again later.
// Every screen of a table hears a move's version in the same millisecond; each waits a moment
// drawn at random below PUSH_SPREAD before it fetches, so the table's five or six panels reach
// the server one after another instead of all at once, where they queued behind each other and
// the moves and pages of other tables behind them (docs/serving.md, "Spread"). bench/push.py
// reads PUSH_SPREAD from here, so its phones wait as the pages do.
(function () {
  "use strict";

  var DEFAULT_EVERY = 3000;
  var PUSHED_EVERY = 15000;
  var timer = null;
  var asking = false;
  var socket = null; // the open (or opening) connection
  var socketUrl = null; // its address
  var pushed = false; // whether it is open
  var pending = false; // a pushed version the page could not refresh to yet (someone typing)
  var latest = 0; // the newest version pushed
  var retry = null;
  var backoff = 1000;
  var fetching = 0; // when a refresh this script asked for went out (0: none in flight)
  var FETCH_GIVES_UP = 10000; // a refresh that never said it ended counts as ended after this
  var PUSH_SPREAD = 100; // milliseconds: a pushed version is fetched within this (above)
  var spread = null; // the wait before a pushed version is fetched

  function watched() {
    return document.querySelector("[data-poll][data-version]");
  }

  function schedule() {
    var el = watched();
    if (timer) window.clearTimeout(timer);
    timer = null;
    connect();
    if (!el || document.hidden) return;
    var every = parseInt(el.getAttribute("data-poll-every"), 10) || DEFAULT_EVERY;
    if (pushed) every = pending ? Math.min(every, 1000) : Math.max(every, PUSHED_EVERY);
    timer = window.setTimeout(ask, every);
  }

  // -- the push ---------------------------------------------------------------------------
  function pushUrl(el) {
    if (!el || !window.WebSocket) return null;
    var url = el.getAttribute("data-push");
    if (url === "") return null; // this page asked for polls alone
    if (!url) {
      url = el.getAttribute("data-poll") || "";
      if (!/\/poll\/(\?|$)/.test(url)) return null;
      url = url.replace(/\/poll\/(\?|$)/, "/push/$1");
    }
    var address = new URL(url, window.location.href);
    address.protocol = address.protocol === "https:" ? "wss:" : "ws:";
    return address.href;
  }

  function connect() {
    var url = pushUrl(watched());
    // Open, opening, or waiting to be tried again: nothing to do for the same address.
    if (url === socketUrl && (socket || retry)) return;
    if (socket) {
      var old = socket;
      socket = null;
      old.close();
    }
    socketUrl = null;
    pushed = false;
    latest = 0; // another table's versions, or none yet
    if (retry) window.clearTimeout(retry);
    retry = null;
    if (spread) window.clearTimeout(spread);
    spread = null;
    if (!url) return;
    var ws;
    try {
      ws = new window.WebSocket(url);
    } catch (e) {
      return; // polls alone
    }
    socket = ws;
    socketUrl = url;
    ws.onopen = function () {
      if (socket !== ws) return;
      pushed = true;
      backoff = 1000;
    };
    ws.onmessage = function (ev) {
      if (socket !== ws) return;
      var data;
      try {
        data = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      var version = data && data.version;
      if (typeof version !== "number") return;
      latest = Math.max(latest, version);
      if (spread) return; // the wait already running covers this version too
      spread = window.setTimeout(function () {
        spread = null;
        if (socket === ws) heard(latest);
      }, Math.random() * PUSH_SPREAD);
    };
    ws.onerror = function () { /* onclose follows: polls alone, said nowhere */ };
    ws.onclose = function () {
      if (socket !== ws) return;
      socket = null; // socketUrl stays: the address waits for its retry
      var was = pushed;
      pushed = false;
      // Polls at their own pace again, and the connection tried again later (a phone that
      // slept, a server restarted), less and less often while it keeps failing.
      retry = window.setTimeout(function () {
        retry = null;
        socketUrl = null;
        connect();
      }, backoff);
      backoff = Math.min(backoff * 2, 60000);
      if (was) schedule(); // the polls at their own pace again from now
    };
  }

  // Pushes are coalesced: a version heard while no fetch is in flight fetches the panel at once;
  // one heard while a fetch is in flight waits for it to end, and then one fetch (if the panel
  // it brought is still older than the newest version heard) covers every version heard
  // meanwhile. Never two fetches in flight, never a queue of them; a hidden page fetches
  // nothing until it is shown again.
  function heard(version) {
    var el = watched();
    if (!el || typeof version !== "number") return;
    latest = Math.max(latest, version);
    var seen = parseInt(el.getAttribute("data-version"), 10);
    if (!(latest > seen)) return;
    if (busy(el)) {
      pending = true; // the fetch in flight ends in htmx:afterRequest, which asks again
      return;
    }
    if (!document.hidden && el.isConnected && window.htmx && mayRefresh(el)) {
      pending = false;
      fetching = Date.now();
      window.htmx.trigger(el, "table-changed");
      return;
    }
    // Not now (someone typing, the page hidden): the polls catch up soon, or the page's return.
    pending = true;
    schedule();
  }

  function busy(el) {
    // The panel is being fetched already (a push's or a poll's refresh, or a move's answer).
    if (fetching && Date.now() - fetching > FETCH_GIVES_UP) fetching = 0;
    return !!fetching || !!el.closest(".htmx-request") || !!document.querySelector(".htmx-request");
  }

  function panelOf(el) {
    return el.closest(".table-panel") || document.body;
  }

  function editable(field) {
    if (field.tagName === "TEXTAREA" || field.tagName === "SELECT") return true;
    if (field.tagName !== "INPUT") return false;
    return !/^(hidden|submit|button|reset|image|checkbox|radio)$/.test(field.type);
  }

  function carried(field) {
    return field.tagName === "TEXTAREA" && !!field.dataset.draftKey;
  }

  var composing = false;
  document.addEventListener("compositionstart", function () { composing = true; });
  document.addEventListener("compositionend", function () { composing = false; });

  function unsent(field) {
    if (field.dataset.draftUrl) return false; // carried over (see carry), never a reason to wait
    if (field.tagName === "SELECT") {
      // With no option marked selected, a single select's default is its first option.
      var marked = false;
      for (var i = 0; i < field.options.length; i++) {
        if (field.options[i].defaultSelected) marked = true;
      }
      for (var j = 0; j < field.options.length; j++) {
        var option = field.options[j];
        var byDefault = marked || field.multiple ? option.defaultSelected : j === 0;
        if (option.selected !== byDefault) return true;
      }
      return false;
    }
    if (field.type === "checkbox" || field.type === "radio") {
      return field.checked !== field.defaultChecked;
    }
    if (/^(hidden|submit|button|reset|image)$/.test(field.type)) return false;
    return field.value !== field.defaultValue;
  }

  function mayRefresh(el) {
    // A page that carries what is typed across a refresh itself says so; a poll that swaps
    // only a part of the page waits only for what is typed in that part.
    if (el.hasAttribute("data-poll-carries-input")) return true;
    var target = el.getAttribute("hx-target");
    var root = (target && document.querySelector(target)) || panelOf(el);
    var active = document.activeElement;
    if (composing) return false; // a word still being composed (an IME) is never cut short
    // A narration box has the keyboard whenever someone narrates (a move puts it there): its
    // text, caret and focus are carried into the new panel (below), so the page keeps
    // following the table while someone types in it.
    if (active && root.contains(active) && editable(active) && !carried(active)) return false;
    var fields = root.querySelectorAll("input, select, textarea");
    for (var i = 0; i < fields.length; i++) {
      if (!fields[i].disabled && unsent(fields[i])) return false;
    }
    return true;
  }

  function ask() {
    var el = watched();
    if (!el || asking || document.hidden) return schedule();
    if (busy(el)) return schedule();
    var url = el.getAttribute("data-poll");
    var sep = url.indexOf("?") === -1 ? "?" : "&";
    asking = true;
    window
      .fetch(url + sep + "since=" + encodeURIComponent(el.getAttribute("data-version")), {
        credentials: "same-origin",
        cache: "no-store",
        headers: { Accept: "application/json" },
      })
      .then(function (response) {
        if (response.status === 404) {
          // The table is gone, or this link was revoked (a new one made): asking again would
          // only count as guessing. The page stays as it was; a reload shows the news.
          el.removeAttribute("data-poll");
          return;
        }
        if (response.status === 200 && el.isConnected && window.htmx && mayRefresh(el)) {
          if (busy(el)) return; // a refresh is on its way already
          fetching = Date.now();
          window.htmx.trigger(el, "table-changed");
        }
      })
      .catch(function () {
        // The connection dropped: the next poll tries again, and says nothing meanwhile.
      })
      .then(function () {
        asking = false;
        schedule();
      });
  }

  // -- a refresh keeps the narration and the keyboard -------------------------------------
  var kept = null;

  function fromPoll(ev) {
    var elt = (ev.detail.requestConfig && ev.detail.requestConfig.elt) || ev.detail.elt;
    return !!(elt && elt.hasAttribute && elt.hasAttribute("data-poll"));
  }

  function keyOf(control) {
    // What names the same control in the next panel: its id, else its form's action and its
    // own name and value (a move's button).
    if (control.id) return "#" + control.id;
    // A link is its address: every link has no name nor value, and a refresh once gave the
    // keyboard to the page's first link ("Skip to content") for any of them.
    var form = control.form ? control.form.getAttribute("action") : "";
    var href = control.tagName === "A" ? control.getAttribute("href") || "" : "";
    return [control.tagName, form, control.name || "", control.value || "", href].join("|");
  }

  function find(root, key) {
    var all = root.querySelectorAll("[id], button, input, select, textarea, a[href]");
    for (var i = 0; i < all.length; i++) {
      if (keyOf(all[i]) === key) return all[i];
    }
    return null;
  }

  document.addEventListener("htmx:beforeSwap", function (ev) {
    if (!fromPoll(ev)) return;
    // The panel came back after someone began something on the page (a pick, a ticked box)
    // while it was on its way: it waits, as a refresh asked for then would have (mayRefresh),
    // and the next poll asks again (the server says "changed" until the page draws it).
    var asker = (ev.detail.requestConfig && ev.detail.requestConfig.elt) || ev.detail.elt;
    if (ev.detail.shouldSwap && !mayRefresh(asker)) {
      ev.detail.shouldSwap = false;
      fetching = 0;
      pending = true;
      schedule();
      return;
    }
    var root = panelOf(ev.detail.target || document.body);
    var drafts = [];
    root.querySelectorAll("textarea[data-draft-key]").forEach(function (box) {
      if (box.value !== box.defaultValue) {
        drafts.push({ key: box.dataset.draftKey, value: box.value });
      }
    });
    var active = document.activeElement;
    var focus = active && active !== document.body && root.contains(active) ? keyOf(active) : null;
    var caret = null;
    if (focus && editable(active) && typeof active.selectionStart === "number") {
      caret = {
        start: active.selectionStart,
        end: active.selectionEnd,
        direction: active.selectionDirection || "none",
        scroll: active.scrollTop,
      };
    }
    kept = { drafts: drafts, focus: focus, caret: caret };
  });

  document.addEventListener("htmx:afterSwap", function (ev) {
    if (!kept || !fromPoll(ev)) return;
    var was = kept;
    kept = null;
    was.drafts.forEach(function (draft) {
      // The same box only (same scene, same turn): a draft for another is not this one's.
      document.querySelectorAll("textarea[data-draft-key]").forEach(function (box) {
        if (box.dataset.draftKey === draft.key) box.value = draft.value;
      });
    });
    if (was.focus) {
      var again = find(document.body, was.focus);
      if (again && again.focus) again.focus({ preventScroll: true });
      if (again && was.caret && typeof again.setSelectionRange === "function") {
        // The caret (or the selection) where it was, and the box scrolled as it was.
        var end = again.value.length;
        try {
          again.setSelectionRange(
            Math.min(was.caret.start, end), Math.min(was.caret.end, end), was.caret.direction
          );
        } catch (e) { /* a field with no caret */ }
        again.scrollTop = was.caret.scroll;
      }
    }
  });

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) return schedule();
    var el = watched();
    // Back in view: a version pushed while hidden is fetched at once, else a poll asks.
    if (el && latest > parseInt(el.getAttribute("data-version"), 10)) {
      schedule();
      heard(latest);
    } else {
      ask();
    }
  });
  // A swap brings a new panel (and with it the new version): count from there.
  document.addEventListener("htmx:afterSettle", function () {
    fetching = 0;
    pending = false;
    schedule();
    if (latest) heard(latest); // a version pushed while the panel was on its way
  });
  // A fetch that ended without a swap (an error, a dropped connection, a 204): the next may go,
  // and a version heard meanwhile is asked for by the next poll, within a second (a server in
  // trouble never gets a tight loop of fetches).
  document.addEventListener("htmx:afterRequest", function (ev) {
    if (ev.detail.successful && ev.detail.xhr && ev.detail.xhr.status !== 204) return;
    fetching = 0;
    if (pending) schedule();
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", schedule);
  } else {
    schedule();
  }
})();
