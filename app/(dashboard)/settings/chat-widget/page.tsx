import { Info } from "lucide-react";
import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { canManage, requireSession } from "@/lib/auth/session";
import { embedSnippet, hostedChatPath, hostedChatUrl } from "@/lib/conversations/embed";
import { getOrCreateWidget } from "@/lib/conversations/widget";
import { EmbedSnippet } from "./_components/embed-snippet";
import { WidgetSettingsForm } from "./_components/widget-settings-form";

export const metadata: Metadata = { title: "Chat widget" };

export default async function ChatWidgetPage() {
  const context = await requireSession();
  const manager = canManage(context);
  // Every account has a widget from its first visit here on; its id is public (it is in the snippet).
  const widget = await getOrCreateWidget(context.account.id);

  return (
    <>
      <PageHeader
        title="Chat widget"
        description={
          "Visitors of your website chat with an assistant that answers from your events, " +
          "and can ask for a person; their conversations arrive in Conversations."
        }
      />
      {!manager ? (
        <p className="mb-4 flex items-center gap-2 rounded-lg bg-zinc-100 px-3 py-2 text-sm text-zinc-700">
          <Info className="size-4 shrink-0 text-zinc-500" aria-hidden />
          You can view and copy the chat widget&apos;s snippet. Only owners and admins can change its settings.
        </p>
      ) : null}
      <EmbedSnippet
        snippet={embedSnippet(widget.id)}
        chatPath={hostedChatPath(widget.id)}
        chatUrl={hostedChatUrl(widget.id)}
      />
      <WidgetSettingsForm
        initial={{
          assistantName: widget.assistantName,
          greeting: widget.greeting,
          allowedOrigins: widget.allowedOrigins,
          businessName: widget.businessName,
          logoUrl: widget.logoUrl,
          brandColor: widget.brandColor,
          replyTime: widget.replyTime,
        }}
        canManage={manager}
      />
    </>
  );
}
