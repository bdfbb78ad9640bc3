/* Failure notices (docs/overview.md, "Failure notices"): what the dashboard's banner shows. */

export type NoticeKind = "subscription_disabled" | "source_failing";

export type Notice = {
  id: string;
  kind: NoticeKind;
  targetId: string;
  targetLabel: string;
  message: string;
  createdAt: Date;
};

/** The page that fixes the problem a notice names; opening it closes the notice. */
export function noticeHref(notice: Pick<Notice, "kind" | "targetId">): string {
  return notice.kind === "subscription_disabled"
    ? `/settings/webhooks/${encodeURIComponent(notice.targetId)}`
    : `/knowledge/events/webhook?source=${encodeURIComponent(notice.targetId)}`;
}

/** The banner's first words: what the problem is about. */
export function noticeTitle(notice: Pick<Notice, "kind" | "targetLabel">): string {
  return notice.kind === "subscription_disabled"
    ? `The subscription to ${notice.targetLabel} was disabled.`
    : `The webhook source "${notice.targetLabel}" ${SOURCE_FAILING_TEXT}`;
}

const SOURCE_FAILING_TEXT = "has answered only errors for over an hour.";
