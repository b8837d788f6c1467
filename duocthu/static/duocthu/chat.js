// Enter sends, Shift+Enter breaks a line; the newest card scrolls into view; a citation
// marker opens its source in place. Everything else is htmx attributes in the template.
(function () {
  function form() { return document.getElementById("ask-form"); }

  document.addEventListener("keydown", function (event) {
    var box = event.target;
    if (box.id !== "question" || event.key !== "Enter" || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    if (box.value.trim() !== "") form().requestSubmit();
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target.id !== "turns") return;
    var question = document.getElementById("question");
    if (question) { question.value = ""; question.focus(); }
    var turns = event.detail.target.querySelectorAll(".turn");
    var newest = turns[turns.length - 1];
    if (newest) newest.scrollIntoView({ behavior: "smooth", block: "start" });
  });

  document.addEventListener("DOMContentLoaded", function () {
    var turns = document.querySelectorAll("#turns .turn");
    if (turns.length) turns[turns.length - 1].scrollIntoView({ block: "start" });
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest("a.cite");
    if (!link) return;
    var item = document.querySelector(link.getAttribute("href"));
    if (!item) return;
    for (var node = item; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
    var details = item.querySelector("details");
    if (details) details.open = true;
  });
})();
