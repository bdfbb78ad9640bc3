import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { canManage, requireSession } from "@/lib/auth/session";
import { revealFeedUrl } from "@/lib/events/calendar-feed-token";
import { PublishSection } from "./_components/publish-section";

export const metadata: Metadata = { title: "Calendar feeds" };

/*
 * Knowledge → Events → Calendar feeds (docs/calendar-feeds.md). "Publish your events" shows the account's
 * secret feed URL (created on the first visit; showing it is audited); a section for following other
 * calendars goes below it.
 */
export default async function CalendarFeedsPage() {
  const context = await requireSession();
  const url = await revealFeedUrl(context);
  return (
    <>
      <PageHeader
        title="Calendar feeds"
        description="Publish this account's events as a calendar that Google Calendar, Apple Calendar and Outlook keep in sync."
      />
      <div className="space-y-6">
        <PublishSection url={url} canRotate={canManage(context)} />
      </div>
    </>
  );
}
