import "server-only";
import { frameAncestors } from "./origins";
import { findWidget } from "./widget";

/*
 * Which sites may frame a widget's chat page: the app itself and the widget's allowed origins
 * (docs/chat-widget.md, "Allowed origins"). Asked by proxy.ts for every /chat/{widget_id} page, so
 * the Content-Security-Policy that refuses other sites leaves with the page itself.
 */

const CHAT_PAGE = /^\/chat\/([^/]+)\/?$/;

/**
 * The frame-ancestors source list for a chat page path, or null when the path is not one. An unknown
 * widget, or a lookup that fails, gets 'none': refusing a frame is always safe.
 */
export function chatPageFrameAncestors(pathname: string): Promise<string> | null {
  const match = CHAT_PAGE.exec(pathname);
  if (!match) return null;
  let widgetId: string;
  try {
    widgetId = decodeURIComponent(match[1]!);
  } catch {
    return Promise.resolve("'none'");
  }
  return findWidget(widgetId).then(
    (widget) => (widget ? frameAncestors(widget.allowedOrigins) : "'none'"),
    () => "'none'",
  );
}
