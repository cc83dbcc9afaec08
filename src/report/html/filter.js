// The check report's filters (game, verdict, clause) and the case a URL fragment names.
(function () {
  "use strict";
  var cases = Array.prototype.slice.call(document.querySelectorAll("article.case"));
  var game = document.getElementById("filter-game");
  var verdict = document.getElementById("filter-verdict");
  var clause = document.getElementById("filter-clause");
  var shown = document.getElementById("filter-count");

  function apply() {
    var wantGame = game.value, wantVerdict = verdict.value;
    var wantClause = clause.value.trim().toLowerCase();
    var count = 0;
    cases.forEach(function (article) {
      var clauses = (article.getAttribute("data-clauses") || "").toLowerCase().split(" ");
      var keep = (wantGame === "" || article.getAttribute("data-game") === wantGame) &&
        (wantVerdict === "" || article.getAttribute("data-verdict") === wantVerdict) &&
        (wantClause === "" || clauses.some(function (c) { return c.indexOf(wantClause) >= 0; }));
      article.classList.toggle("hidden", !keep);
      if (keep) { count += 1; }
    });
    shown.textContent = count + " of " + cases.length + " shown";
  }

  // The id a fragment names, or null when it is not one: a malformed `%` escape (`#case-%E0%A4%A`)
  // names no case, and must not stop the page's script.
  function named(hash) {
    try {
      return decodeURIComponent(hash.slice(1));
    } catch (malformed) {
      return null;
    }
  }

  function select() {
    var hash = window.location.hash;
    if (hash.indexOf("#case-") !== 0) { return; }
    var id = named(hash);
    var target = id === null ? null : document.getElementById(id);
    if (!target) { return; }
    cases.forEach(function (article) { article.classList.remove("selected"); });
    if (target.classList.contains("hidden")) {
      game.value = ""; verdict.value = ""; clause.value = ""; apply();
    }
    target.classList.add("selected");
    target.scrollIntoView();
  }

  [game, verdict].forEach(function (input) { input.addEventListener("change", apply); });
  clause.addEventListener("input", apply);
  window.addEventListener("hashchange", select);
  apply();
  select();
}());
