// The character form: a running count of the points still to spread (the server checks the
// sum anyway).
(function () {
  "use strict";
  var NAMES = ["brains", "muscle", "moves", "coolness"];

  function update() {
    var out = document.getElementById("points-left");
    if (!out) return;
    var used = NAMES.reduce(function (sum, n) {
      var el = document.querySelector("[name=" + n + "]");
      return sum + (parseInt(el && el.value, 10) || 0);
    }, 0);
    out.textContent = out.dataset.text.replace("%s", Number(out.dataset.total) - used);
  }

  document.addEventListener("input", function (ev) {
    if (NAMES.indexOf(ev.target.name) !== -1) update();
  });
  document.addEventListener("DOMContentLoaded", update);
})();
