// The reading page: text size, light or dark, and the reader's place, kept on this device
// (localStorage) and nowhere else. Without JavaScript the controls stay hidden and the book
// reads as it is.
(function () {
  "use strict";
  var root = document.documentElement;
  var controls = document.querySelector("[data-reader]");
  if (!controls) return;
  var key = controls.dataset.reader; // one story: its place is its own
  var MIN = 1, MAX = 5, NORMAL = 3;

  function load(name) {
    try { return window.localStorage.getItem("amnesia-reader:" + name); } catch (e) { return null; }
  }
  function save(name, value) {
    try { window.localStorage.setItem("amnesia-reader:" + name, value); } catch (e) { /* private mode */ }
  }

  // -- text size and theme (for every story: a reader's eyes are the same) ------------
  var size = parseInt(load("size"), 10);
  if (!(size >= MIN && size <= MAX)) size = NORMAL;
  var sizeLabel = controls.querySelector("[data-reader-size-label]");
  function showSize() {
    root.dataset.readerSize = String(size);
    if (sizeLabel) sizeLabel.textContent = Math.round(100 * [0, 0.85, 0.93, 1, 1.15, 1.32][size]) + "%";
    controls.querySelector("[data-reader-smaller]").disabled = size <= MIN;
    controls.querySelector("[data-reader-larger]").disabled = size >= MAX;
  }
  var theme = load("theme");
  var themeButton = controls.querySelector("[data-reader-theme]");
  function currentTheme() {
    if (theme === "light" || theme === "dark") return theme;
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark";
  }
  function showTheme() {
    if (theme === "light" || theme === "dark") root.dataset.readerTheme = theme;
    var dark = currentTheme() === "dark";
    // A toggle keeps its name ("Dark"); its state says whether it is on.
    themeButton.setAttribute("aria-pressed", dark ? "true" : "false");
  }

  controls.addEventListener("click", function (ev) {
    var button = ev.target.closest("button");
    if (!button) return;
    if (button.hasAttribute("data-reader-smaller") && size > MIN) size -= 1;
    else if (button.hasAttribute("data-reader-larger") && size < MAX) size += 1;
    else if (button.hasAttribute("data-reader-theme")) theme = currentTheme() === "dark" ? "light" : "dark";
    else return;
    save("size", String(size));
    if (theme) save("theme", theme);
    showSize();
    showTheme();
  });

  // -- the place: the last passage or chapter whose top was on the screen ----------------
  var marks = Array.prototype.slice.call(document.querySelectorAll(".book [id]"));
  function place() {
    var found = null;
    for (var i = 0; i < marks.length; i++) {
      if (marks[i].getBoundingClientRect().top > 80) break;
      found = marks[i];
    }
    return found ? found.id : "";
  }
  var pending = null;
  window.addEventListener("scroll", function () {
    if (pending) return;
    pending = window.setTimeout(function () {
      pending = null;
      save("place:" + key, place());
    }, 250);
  }, { passive: true });

  var resumed = controls.querySelector("[data-reader-resumed]");
  var saved = load("place:" + key);
  var target = saved && !window.location.hash ? document.getElementById(saved) : null;
  if (target) {
    if (resumed) resumed.hidden = false;
    target.scrollIntoView();
    // The fonts and pictures arriving move the text: go back to the place once they have,
    // unless the reader has scrolled away meanwhile.
    var moved = false;
    ["wheel", "touchstart", "keydown"].forEach(function (name) {
      window.addEventListener(name, function () { moved = true; }, { once: true, passive: true });
    });
    var settle = function () {
      if (moved) return;
      var top = target.getBoundingClientRect().top;
      if (top > 120 || top < -120) target.scrollIntoView();
    };
    window.addEventListener("load", settle);
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(settle);
  }

  showSize();
  showTheme();
  controls.hidden = false;
})();
