// Enter sends, Shift+Enter breaks a line; the question is echoed at once with a cancel; the
// newest card scrolls into view inside the conversation pane (never the page, so the header
// stays); focus returns to the box after every answer; a citation marker opens its source in
// place; a failed or hung request shows one error card with "Gửi lại"; a claim is copied
// with its citation. Everything else is htmx attributes in the template.
(function () {
  function form() { return document.getElementById("ask-form"); }
  function box() { return document.getElementById("question"); }
  function turns() { return document.getElementById("turns"); }
  var pending = null;  // { elt: the element that sent, question: its text, card: the echo }

  // Scroll the conversation pane (the desktop layout), or the page where the pane does not
  // scroll (a phone), so that `el` starts at the top; nothing else moves.
  function reveal(el, smooth) {
    var pane = turns();
    if (!pane || !el) return;
    var behavior = smooth ? "smooth" : "auto";
    if (pane.scrollHeight > pane.clientHeight && getComputedStyle(pane).overflowY !== "visible") {
      var top = el.getBoundingClientRect().top - pane.getBoundingClientRect().top + pane.scrollTop - 8;
      pane.scrollTo({ top: top, behavior: behavior });
    } else {
      window.scrollTo({ top: el.getBoundingClientRect().top + window.scrollY - 8, behavior: behavior });
    }
  }

  function focusBox() {
    var question = box();
    if (question && !question.disabled) question.focus({ preventScroll: true });
  }

  document.addEventListener("keydown", function (event) {
    var question = event.target;
    if (question.id !== "question" || event.key !== "Enter" || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    if (question.value.trim() !== "") form().requestSubmit();
  });

  function clearError() {
    document.querySelectorAll("#turns .turn-error").forEach(function (card) { card.remove(); });
  }

  function echo(question) {
    var article = document.createElement("article");
    article.className = "turn pending";
    var bubble = document.createElement("div");
    bubble.className = "bubble user";
    var who = document.createElement("span");
    who.className = "who";
    who.textContent = "Bạn";
    var text = document.createElement("p");
    text.textContent = question;
    bubble.append(who, text);
    var line = document.createElement("p");
    line.className = "progress-line";
    line.textContent = "Đang tra cứu trong Dược thư…";
    article.append(bubble, line);
    turns().appendChild(article);
    return article;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (!event.detail.target || event.detail.target.id !== "turns" || !elt.querySelector) return;
    var field = elt.querySelector("[name=question]");
    var question = field ? field.value.trim() : "";
    if (!question) return;
    clearError();
    var welcome = document.getElementById("welcome");
    if (welcome) welcome.hidden = true;
    pending = { elt: elt, question: question, card: echo(question) };
    reveal(pending.card, false);
  });

  function settle() {
    if (pending && pending.card) pending.card.remove();
    var was = pending;
    pending = null;
    return was;
  }

  // A question's request ends here, also when its form was replaced while it ran (the first
  // question of a page: htmx then reports on the nearest element still in the page).
  document.addEventListener("htmx:afterRequest", function (event) {
    var target = event.detail.target;
    if (!pending || !target || target.id !== "turns") return;
    if (event.detail.successful) {
      settle();
      var question = box();
      if (question && event.detail.elt.id === "ask-form") question.value = "";
      var all = turns().querySelectorAll(".turn");
      reveal(all[all.length - 1], true);
      focusBox();
    }
  });

  // A request that failed (a server error, a dropped connection, the timeout) shows one card
  // in Vietnamese with "Gửi lại"; a second failure replaces it. The question stays in the box.
  function failed(text) {
    var was = settle();
    var pane = turns();
    if (!pane) return;
    clearError();
    var question = was ? was.question : (box() ? box().value : "");
    var article = echo(question);
    article.className = "turn turn-error";
    article.querySelector(".progress-line").remove();
    var card = document.createElement("section");
    card.className = "card card-error";
    card.setAttribute("role", "alert");
    var message = document.createElement("p");
    message.textContent = text;
    var retry = document.createElement("button");
    retry.type = "button";
    retry.className = "retry";
    retry.textContent = "Gửi lại";
    retry.addEventListener("click", function () {
      var field = box();
      if (!field) return;
      field.value = question;
      article.remove();
      form().requestSubmit();
    });
    card.append(message, retry);
    article.appendChild(card);
    if (box() && !box().value.trim()) box().value = question;
    reveal(article, true);
    focusBox();
  }

  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    failed(status === 429
      ? "Bạn gửi quá nhanh; xin đợi một lát rồi gửi lại. Câu hỏi vẫn còn trong ô nhập."
      : status === 503
      ? "Hệ thống đang khởi động lại cơ sở dữ liệu; câu hỏi chưa được lưu. Câu hỏi vẫn còn trong ô nhập; xin gửi lại sau ít giây."
      : "Không trả lời được lúc này (lỗi máy chủ " + status + "). Câu hỏi vẫn còn trong ô nhập; xin gửi lại.");
  });
  document.addEventListener("htmx:sendError", function () {
    failed("Không kết nối được máy chủ. Câu hỏi vẫn còn trong ô nhập; kiểm tra mạng rồi gửi lại.");
  });
  document.addEventListener("htmx:timeout", function () {
    failed("Máy chủ trả lời quá lâu nên đã ngừng chờ. Câu hỏi vẫn còn trong ô nhập; xin gửi lại.");
  });
  document.addEventListener("htmx:sendAbort", function () {
    var was = settle();
    if (was && box() && !box().value.trim()) box().value = was.question;
    focusBox();
  });

  document.addEventListener("click", function (event) {
    if (event.target.closest("#cancel")) {
      if (pending) htmx.trigger(pending.elt, "htmx:abort");
      return;
    }
    var copy = event.target.closest("button.copy");
    if (copy) { copyClaim(copy); return; }
    var link = event.target.closest("a.cite");
    if (!link) return;
    // Open the source in place and scroll the pane to it; following the #hash would scroll
    // the whole page and push the header off the screen.
    event.preventDefault();
    var item = document.getElementById(link.getAttribute("href").slice(1));
    if (!item) return;
    for (var node = item; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
    var details = item.querySelector("details");
    if (details) details.open = true;
    reveal(item, true);
    var summary = item.querySelector("summary");
    if (summary) summary.focus({ preventScroll: true });
  });

  // "Liều … [1]" → "Liều … (Dược thư QG 2018: PARACETAMOL · Liều lượng và cách dùng · trang 11–12)".
  function copyClaim(button) {
    var claim = button.closest(".claim");
    var article = button.closest(".turn");
    var clone = claim.cloneNode(true);
    clone.querySelectorAll("a.cite, button.copy").forEach(function (n) { n.remove(); });
    var sources = [];
    claim.querySelectorAll("a.cite").forEach(function (link) {
      var item = article.querySelector(link.getAttribute("href"));
      var summary = item && item.querySelector("summary");
      if (!summary) return;
      var copySummary = summary.cloneNode(true);
      copySummary.querySelectorAll("code").forEach(function (n) { n.remove(); });
      sources.push(copySummary.textContent.replace(/^\s*\[\d+\]\s*/, "").replace(/\s+/g, " ").replace(/·\s+·/, "·").trim());
    });
    var text = clone.innerText.trim() + (sources.length ? " (Dược thư QG 2018: " + sources.join("; ") + ")" : "");
    function done() { button.textContent = "Đã chép"; button.classList.add("done"); }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { fallbackCopy(text); done(); });
    } else { fallbackCopy(text); done(); }
    button.dataset.copied = text;
  }

  function fallbackCopy(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.className = "visually-hidden";
    document.body.appendChild(area);
    area.select();
    try { document.execCommand("copy"); } catch (e) { /* the text stays selectable */ }
    area.remove();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var all = document.querySelectorAll("#turns .turn");
    if (all.length) reveal(all[all.length - 1], false);
  });
})();
