// Enter sends, Shift+Enter breaks a line; the newest card scrolls into view; a citation
// marker opens its source in place; a failed request shows an error card. Everything else
// is htmx attributes in the template.
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

  // A request that failed (a server error, a dropped connection, a timeout) shows a card in
  // Vietnamese; the question stays in the box to be sent again.
  function failed(event, text) {
    var turns = document.getElementById("turns");
    if (!turns) return;
    var card = document.createElement("article");
    card.className = "turn card card-error";
    card.setAttribute("role", "alert");
    card.textContent = text;
    turns.appendChild(card);
    card.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    var text = status === 429
      ? "Bạn gửi quá nhanh; xin đợi một lát rồi gửi lại. Câu hỏi vẫn còn trong ô nhập."
      : status === 503
      ? "Hệ thống đang khởi động lại cơ sở dữ liệu; câu hỏi chưa được lưu. Câu hỏi vẫn còn trong ô nhập; xin gửi lại sau ít giây."
      : "Không trả lời được lúc này (lỗi máy chủ " + status + "). Câu hỏi vẫn còn trong ô nhập; xin gửi lại.";
    failed(event, text);
  });

  document.addEventListener("htmx:sendError", function (event) {
    failed(event, "Không kết nối được máy chủ. Câu hỏi vẫn còn trong ô nhập; kiểm tra mạng rồi gửi lại.");
  });

  document.addEventListener("htmx:timeout", function (event) {
    failed(event, "Máy chủ trả lời quá lâu. Câu hỏi vẫn còn trong ô nhập; xin gửi lại.");
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
