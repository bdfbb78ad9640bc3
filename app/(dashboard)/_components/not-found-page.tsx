import { MapPinOff, MessageSquareOff, SearchX, UserX, type LucideIcon } from "lucide-react";
import { NotFoundState } from "@/components/ui/empty-state";

export type NotFoundKind = "page" | "lead" | "conversation" | "subscription";

/* Every dashboard not-found.tsx in one table, so that they stay alike: an icon, a title and the way back. */
const PAGES: Record<NotFoundKind, { icon: LucideIcon; title: string; back: [href: string, label: string] }> = {
  page: { icon: MapPinOff, title: "Page not found", back: ["/", "Back to the dashboard"] },
  lead: { icon: UserX, title: "Lead not found", back: ["/leads", "Back to leads"] },
  conversation: {
    icon: MessageSquareOff,
    title: "Conversation not found",
    back: ["/conversations", "Back to conversations"],
  },
  subscription: { icon: SearchX, title: "Subscription not found", back: ["/settings/webhooks", "Back to webhooks"] },
};

/** The page's sentence (children) says what may have happened to what the address names. */
export function NotFoundPage({ kind, children }: { kind: NotFoundKind; children: React.ReactNode }) {
  const { icon: Icon, title, back } = PAGES[kind];
  return (
    <NotFoundState icon={<Icon className="size-6" aria-hidden />} title={title} backHref={back[0]} backLabel={back[1]}>
      {children}
    </NotFoundState>
  );
}
