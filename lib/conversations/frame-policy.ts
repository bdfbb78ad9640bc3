import "server-only";
import { frameAncestors } from "./origins";
import { findWidget } from "./widget";

/*
 * Which sites may frame a widget's chat page: the app itself and the widget's allowed origins
 * (docs/chat-widget.md, "Allowed origins"); and the one other origin its images may come from, the
 * logo's. Asked by proxy.ts for every /chat/{widget_id} page, so the Content-Security-Policy that
 * refuses other sites leaves with the page itself.
 */

export type ChatPagePolicy = { frameAncestors: string; imageSources: string[] };

const REFUSED: ChatPagePolicy = { frameAncestors: "'none'", imageSources: [] };

/** The logo's origin as a CSP source; none for no logo (the settings only store https URLs). */
function logoSource(logoUrl: string): string[] {
  try {
    const url = new URL(logoUrl);
    return url.protocol === "https:" ? [url.origin] : [];
  } catch {
    return [];
  }
}

const CHAT_PAGE = /^\/chat\/([^/]+)\/?$/;

/**
 * The frame-ancestors source list and extra image sources for a chat page path, or null when the path is
 * not one. An unknown widget, or a lookup that fails, gets 'none': refusing a frame is always safe.
 */
export function chatPagePolicy(pathname: string): Promise<ChatPagePolicy> | null {
  const match = CHAT_PAGE.exec(pathname);
  if (!match) return null;
  let widgetId: string;
  try {
    widgetId = decodeURIComponent(match[1]!);
  } catch {
    return Promise.resolve(REFUSED);
  }
  return findWidget(widgetId).then(
    (widget) =>
      widget
        ? { frameAncestors: frameAncestors(widget.allowedOrigins), imageSources: logoSource(widget.logoUrl) }
        : REFUSED,
    () => REFUSED,
  );
}
