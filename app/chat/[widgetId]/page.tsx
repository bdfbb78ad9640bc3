import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { sessionUrl } from "@/lib/conversations/visitor-input";
import { findWidget } from "@/lib/conversations/widget";
import { ChatWindow } from "./_components/chat-window";

/*
 * The hosted chat of one account's widget (docs/chat-widget.md): public, no session. widget.js opens it
 * in a frame with `embed=1` and the host page's URL and referrer, kept as the conversation's session data
 * once the visitor writes. Which sites may frame it is decided in proxy.ts.
 */

type Props = {
  params: Promise<{ widgetId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const widget = await findWidget((await params).widgetId);
  return {
    title: widget ? `Chat with ${widget.businessName || widget.assistantName}` : "Chat not found",
    robots: { index: false, follow: false },
  };
}

export default async function ChatPage({ params, searchParams }: Props) {
  const widget = await findWidget((await params).widgetId);
  if (!widget) notFound();
  const query = await searchParams;
  return (
    <ChatWindow
      widgetId={widget.id}
      assistantName={widget.assistantName}
      greeting={widget.greeting}
      businessName={widget.businessName}
      logoUrl={widget.logoUrl}
      brandColor={widget.brandColor}
      embedded={first(query.embed) === "1"}
      pageUrl={sessionUrl(first(query.page_url))}
      referrer={sessionUrl(first(query.referrer))}
    />
  );
}
