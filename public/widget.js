/*
 * Chat widget loader (docs/chat-widget.md). Embed with
 *   <script src="{base_url}/widget.js" data-widget="wid_…" async></script>
 * It adds a launcher button to the page and opens the hosted chat ({base_url}/chat/{widget_id}) in a
 * floating frame. No framework and no globals: everything lives in this function and in a shadow root,
 * so the host page's styles and the widget's cannot reach each other. Included twice, it adds one launcher.
 */
(function () {
  "use strict";
  var doc = document;
  var MARK = "data-chat-widget";
  var script = doc.currentScript || doc.querySelector("script[data-widget][src*='widget.js']");
  if (!script || doc.documentElement.hasAttribute(MARK)) return;
  var widgetId = script.getAttribute("data-widget") || "";
  if (!/^wid_[0-9A-Za-z]{22}$/.test(widgetId)) return;
  var base;
  try {
    base = new URL(script.src, location.href);
  } catch {
    return;
  }
  doc.documentElement.setAttribute(MARK, widgetId);

  var CSS =
    ":host{all:initial}" +
    "*{box-sizing:border-box}" +
    ".launcher{position:fixed;right:20px;bottom:20px;z-index:2147483000;" +
    "width:56px;height:56px;border:0;border-radius:50%;" +
    "background:#4f46e5;color:#fff;cursor:pointer;display:flex;align-items:center;justify-content:center;" +
    "box-shadow:0 6px 20px rgba(24,24,27,.25);transition:transform .15s ease,background-color .15s ease}" +
    ".launcher:hover{background:#4338ca;transform:scale(1.05)}" +
    ".launcher:focus-visible,.close:focus-visible{outline:3px solid #a5b4fc;outline-offset:2px}" +
    ".panel{position:fixed;right:20px;bottom:20px;z-index:2147483001;" +
    "width:380px;height:min(640px,calc(100vh - 40px));" +
    "border-radius:16px;overflow:hidden;background:#fff;box-shadow:0 12px 40px rgba(24,24,27,.3);" +
    "opacity:0;transform:translateY(12px);transition:opacity .18s ease,transform .18s ease}" +
    ".panel.open{opacity:1;transform:none}" +
    ".panel[hidden]{display:none}" +
    "iframe{display:block;width:100%;height:100%;border:0;background:#fff}" +
    ".close{position:absolute;top:12px;right:10px;width:36px;height:36px;" +
    "border:0;border-radius:50%;background:transparent;" +
    "color:#fff;cursor:pointer;display:flex;align-items:center;justify-content:center}" +
    ".close:hover{background:rgba(255,255,255,.15)}" +
    "@media (max-width:480px){.panel{inset:0;width:100%;height:100%;border-radius:0}}" +
    "@media (prefers-reduced-motion:reduce){.launcher,.panel{transition:none}.launcher:hover{transform:none}}";
  var BUBBLE =
    '<svg width="26" height="26" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" ' +
    'stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">' +
    '<path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1.1-4.4A8 8 0 1 1 21 12z"/></svg>';
  var CROSS =
    '<svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.2" ' +
    'stroke-linecap="round" aria-hidden="true"><path d="M18 6 6 18M6 6l12 12"/></svg>';

  // Origin and path only: a page's query and fragment may carry tokens or personal data (docs/chat-widget.md).
  function originAndPath(href) {
    try {
      var url = new URL(href);
      if (url.protocol !== "http:" && url.protocol !== "https:") return "";
      var text = url.origin + url.pathname;
      return text.length <= 2048 ? text : url.origin + url.pathname.slice(0, 1024);
    } catch {
      return "";
    }
  }

  function mount() {
    var host = doc.createElement("div");
    host.setAttribute(MARK, widgetId);
    var root = host.attachShadow ? host.attachShadow({ mode: "open" }) : null;
    if (!root) return;
    // A constructed stylesheet is not subject to the host page's style-src; a <style> element is the fallback.
    if (
      "adoptedStyleSheets" in root &&
      typeof CSSStyleSheet === "function" &&
      "replaceSync" in CSSStyleSheet.prototype
    ) {
      var sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      root.adoptedStyleSheets = [sheet];
    } else {
      var style = doc.createElement("style");
      style.textContent = CSS;
      root.appendChild(style);
    }

    var launcher = doc.createElement("button");
    launcher.type = "button";
    launcher.className = "launcher";
    launcher.setAttribute("aria-label", "Open chat");
    launcher.setAttribute("aria-haspopup", "dialog");
    launcher.innerHTML = BUBBLE;

    var panel = doc.createElement("div");
    panel.className = "panel";
    panel.hidden = true;
    panel.setAttribute("role", "dialog");
    panel.setAttribute("aria-label", "Chat");

    var close = doc.createElement("button");
    close.type = "button";
    close.className = "close";
    close.setAttribute("aria-label", "Close chat");
    close.innerHTML = CROSS;

    var frame = null;
    var isOpen = false;

    function focusChat() {
      if (!frame) return;
      frame.focus();
      if (frame.contentWindow) frame.contentWindow.postMessage({ type: "chat-widget:focus" }, base.origin);
    }

    function open() {
      if (isOpen) return;
      isOpen = true;
      if (!frame) {
        // The frame is created on first open: a page view alone costs the chat nothing.
        frame = doc.createElement("iframe");
        frame.title = "Chat";
        frame.setAttribute("allow", "clipboard-write");
        frame.src =
          base.origin + "/chat/" + encodeURIComponent(widgetId) +
          "?embed=1&page_url=" + encodeURIComponent(originAndPath(location.href)) +
          "&referrer=" + encodeURIComponent(originAndPath(doc.referrer));
        frame.addEventListener("load", function () {
          if (isOpen) focusChat();
        });
        panel.insertBefore(frame, close);
      }
      panel.hidden = false;
      launcher.style.display = "none";
      launcher.setAttribute("aria-expanded", "true");
      // Let the panel render before it animates in (no animation when reduced motion is asked for).
      requestAnimationFrame(function () {
        panel.classList.add("open");
      });
      focusChat();
    }

    function shut() {
      if (!isOpen) return;
      isOpen = false;
      panel.classList.remove("open");
      panel.hidden = true;
      launcher.style.display = "";
      launcher.setAttribute("aria-expanded", "false");
      launcher.focus();
    }

    launcher.addEventListener("click", open);
    close.addEventListener("click", shut);
    doc.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && isOpen) shut();
    });
    // Escape pressed inside the frame arrives as a message, from that frame and the chat's origin only.
    window.addEventListener("message", function (event) {
      if (!frame || event.source !== frame.contentWindow || event.origin !== base.origin) return;
      if (event.data && event.data.type === "chat-widget:close") shut();
    });

    launcher.setAttribute("aria-expanded", "false");
    panel.appendChild(close);
    root.appendChild(launcher);
    root.appendChild(panel);
    doc.body.appendChild(host);
  }

  if (doc.body) mount();
  else doc.addEventListener("DOMContentLoaded", mount);
})();
