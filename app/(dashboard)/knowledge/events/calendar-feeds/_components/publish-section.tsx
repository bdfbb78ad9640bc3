"use client";

import { useState } from "react";
import { toast } from "sonner";
import { RotateConfirm } from "@/components/ui/alert-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { inputClasses } from "@/components/ui/field";
import { SectionHeading } from "@/components/ui/section-heading";
import { rotateFeedUrlAction } from "../actions";

const APPS = [
  { name: "Google Calendar", steps: "Other calendars → + → From URL, paste the feed URL, then Add calendar." },
  { name: "Apple Calendar", steps: "File → New Calendar Subscription…, paste the feed URL, then Subscribe." },
  { name: "Outlook", steps: "Add calendar → Subscribe from web, paste the feed URL, name it, then Import." },
];

/** "Publish your events": the secret feed URL, its copy button, its rotation and how to subscribe. */
export function PublishSection({ url: initialUrl, canRotate }: { url: string; canRotate: boolean }) {
  const [url, setUrl] = useState(initialUrl);
  const [justRotated, setJustRotated] = useState(false);

  const rotate = async () => {
    const result = await rotateFeedUrlAction({});
    if (!result.ok) {
      toast.error(result.error);
      return;
    }
    setUrl(result.data.url);
    setJustRotated(true);
    toast.success("Feed URL rotated. The old URL no longer works.");
  };

  return (
    <section aria-labelledby="publish-events" className="rounded-xl bg-white shadow-sm ring-1 ring-zinc-200">
      <div className="border-b border-zinc-200 px-6 py-4">
        <SectionHeading id="publish-events" title="Publish your events">
          Every event of this account, recurring series and cancellations included, as an iCalendar feed. Calendar apps
          check it for changes on their own.
        </SectionHeading>
      </div>

      <div className="space-y-5 px-6 py-5">
        <div className="space-y-1.5">
          <label htmlFor="calendar-feed-url" className="block text-sm font-medium text-zinc-800">
            Your feed URL
          </label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <input
              id="calendar-feed-url"
              readOnly
              value={url}
              className={`${inputClasses} min-w-0 flex-1 font-mono`}
              onFocus={(event) => event.currentTarget.select()}
            />
            <CopyButton value={url} toastMessage="Feed URL copied" aria-label="Copy feed URL" />
          </div>
          <p className="text-xs text-zinc-500">
            Anyone with this URL can read the account&apos;s events. Share it only with the calendars you subscribe.
          </p>
        </div>

        {justRotated ? (
          <p role="status" className="rounded-lg bg-indigo-50 px-4 py-3 text-sm text-indigo-900 ring-1 ring-indigo-200">
            This is the new feed URL. The old one answers 404 now: subscribe again with this one wherever you used it.
          </p>
        ) : null}

        <div>
          <h3 className="text-sm font-medium text-zinc-800">Subscribe in your calendar app</h3>
          <ul className="mt-2 space-y-2 text-sm text-zinc-700">
            {APPS.map((app) => (
              <li key={app.name}>
                <span className="font-medium text-zinc-900">{app.name}:</span> {app.steps}
              </li>
            ))}
          </ul>
          <p className="mt-2 text-xs text-zinc-500">
            Calendar apps refresh subscriptions on their own schedule, from every few minutes to about a day (Google).
          </p>
        </div>

        {canRotate ? (
          <div className="border-t border-zinc-100 pt-5">
            <RotateConfirm
              label="Rotate feed URL"
              title="Rotate the feed URL?"
              description={
                "A new URL is created and the current one stops working immediately: every calendar " +
                "subscribed to it gets 404 and stops updating until it is subscribed again with the new URL."
              }
              onConfirm={rotate}
            />
          </div>
        ) : (
          <p className="border-t border-zinc-100 pt-4 text-sm text-zinc-500">
            You have read-only access. Owners and admins can rotate the feed URL.
          </p>
        )}
      </div>
    </section>
  );
}
