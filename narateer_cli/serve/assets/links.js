// narateer serve --act: the Guide's "Copy link" buttons. The clipboard API needs a secure context (a page at the
// machine's LAN address over http is not one), so the link's own field is selected and copied as a fallback.
(function () {
  "use strict";
  function told(button, words) {
    var out = button.parentNode.querySelector(".link-copied");
    if (out) { out.textContent = words; }
  }
  function byField(button) {
    var field = button.parentNode.querySelector(".link-url");
    if (!field) { return false; }
    field.focus();
    field.select();
    try { return document.execCommand("copy"); } catch (e) { return false; }
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest(".link-copy") : null;
    if (!button) { return; }
    var link = button.getAttribute("data-link") || "";
    function fallback() { told(button, byField(button) ? "Copied" : "Select the link and copy it"); }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(link).then(function () { told(button, "Copied"); }, fallback);
    } else {
      fallback();
    }
  });
}());
