// Live pages: an element with data-poll="URL" data-version="V" asks URL?since=V every few
// seconds (data-poll-every, in milliseconds; 3000 unless said). The server answers 204 while
// the table is where the page saw it, which costs it almost nothing; when the table moved it
// answers 200, and this script fires "table-changed" on the element, whose own hx-get (with
// hx-trigger="table-changed") fetches the fresh panel. The new panel carries the new version.
// Nothing is asked while the page is hidden (a phone in a pocket); it asks at once on return.
(function () {
  "use strict";

  var DEFAULT_EVERY = 3000;
  var timer = null;
  var asking = false;

  function watched() {
    return document.querySelector("[data-poll][data-version]");
  }

  function schedule() {
    var el = watched();
    if (timer) window.clearTimeout(timer);
    timer = null;
    if (!el || document.hidden) return;
    var every = parseInt(el.getAttribute("data-poll-every"), 10) || DEFAULT_EVERY;
    timer = window.setTimeout(ask, every);
  }

  function busy(el) {
    // The panel is being fetched already (this poll's refresh, or a move's answer).
    return !!el.closest(".htmx-request") || !!document.querySelector(".htmx-request");
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
        if (response.status === 200 && el.isConnected && window.htmx) {
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

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) ask();
    else schedule();
  });
  // A swap brings a new panel (and with it the new version): count from there.
  document.addEventListener("htmx:afterSettle", schedule);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", schedule);
  } else {
    schedule();
  }
})();
