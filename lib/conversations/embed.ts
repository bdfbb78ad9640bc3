import { appBaseUrl } from "@/lib/platform/http/app-url";

/*
 * Where a widget lives for the outside world: the tag a website pastes in (widget.js reads the widget id
 * from data-widget and opens the hosted chat page in a frame) and that hosted page itself.
 * See docs/chat-widget.md.
 */

export function hostedChatPath(widgetId: string): string {
  return `/chat/${widgetId}`;
}

export function hostedChatUrl(widgetId: string, baseUrl: string = appBaseUrl()): string {
  return `${baseUrl}${hostedChatPath(widgetId)}`;
}

export function embedSnippet(widgetId: string, baseUrl: string = appBaseUrl()): string {
  return `<script src="${baseUrl}/widget.js" data-widget="${widgetId}" async></script>`;
}
