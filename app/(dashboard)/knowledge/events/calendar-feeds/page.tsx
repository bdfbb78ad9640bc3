import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { canManage, requireSession } from "@/lib/auth/session";
import { revealFeedUrl } from "@/lib/events/calendar-feed-token";
import { FollowSection } from "./_components/follow-section";
import { PublishSection } from "./_components/publish-section";
import { feedRows } from "./feed-rows";

export const metadata: Metadata = { title: "Calendar feeds" };

/*
 * Knowledge → Events → Calendar feeds (docs/calendar-feeds.md). "Publish your events" shows the account's
 * secret feed URL (created on the first visit; showing it is audited); "Follow a calendar" lists the
 * calendars the account follows, their state and sync log, and (owners and admins) manages them.
 */
export default async function CalendarFeedsPage() {
  const context = await requireSession();
  const [url, rows] = await Promise.all([revealFeedUrl(context), feedRows(context)]);
  return (
    <>
      <PageHeader
        title="Calendar feeds"
        description={
          "Publish this account's events as a calendar that Google Calendar, " +
          "Apple Calendar and Outlook keep in sync, and follow other calendars into it."
        }
      />
      <div className="space-y-6">
        <PublishSection url={url} canRotate={canManage(context)} />
        <FollowSection initialFeeds={rows} canManage={canManage(context)} />
      </div>
    </>
  );
}
