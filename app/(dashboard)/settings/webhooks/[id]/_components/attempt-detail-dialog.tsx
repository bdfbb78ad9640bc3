"use client";

import { FileText } from "lucide-react";
import { DetailItem } from "@/components/ui/detail-item";
import { LogDetailDialog, LogHeaders, LogTextBlock } from "@/components/ui/log-view";
import { HttpStatus, OutcomeBadge } from "./attempt-badges";
import type { AttemptRow } from "./attempt-row";
import { ResendButton } from "./resend-button";

/** One attempt: what was sent (type, webhook-id), what came back (status, error, the first 4 KiB of the answer). */
export function AttemptDetailDialog({
  attempt,
  canManage,
  onClose,
}: {
  attempt: AttemptRow;
  canManage: boolean;
  onClose: () => void;
}) {
  return (
    <LogDetailDialog
      title="Delivery attempt"
      description={attempt.time}
      icon={<FileText className="size-4" aria-hidden />}
      onClose={onClose}
    >
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        <DetailItem term="Status">
          <OutcomeBadge outcome={attempt.outcome} />
        </DetailItem>
        <DetailItem term="HTTP status">
          <span className="flex items-center gap-1.5">
            <HttpStatus code={attempt.statusCode} />
            {attempt.statusText ? <span className="text-xs text-zinc-500">{attempt.statusText}</span> : null}
          </span>
        </DetailItem>
        <DetailItem term="Duration">{attempt.durationMs.toLocaleString("en-US")} ms</DetailItem>
        <DetailItem term="Attempt">{attempt.attempt}</DetailItem>
        <DetailItem term="Event type">
          <code className="font-mono text-xs">{attempt.type}</code>
        </DetailItem>
        <div className="col-span-2 sm:col-span-3">
          <DetailItem term="webhook-id">
            <code className="font-mono text-xs break-all">{attempt.messageId}</code>
          </DetailItem>
        </div>
      </dl>
      {attempt.error ? (
        <p role="note" className="rounded-lg bg-red-50 px-3 py-2.5 text-sm text-red-800 ring-1 ring-red-200 ring-inset">
          {attempt.error}
        </p>
      ) : null}
      {attempt.nextRetry ? (
        <p className="text-sm text-zinc-700">
          Next retry: {attempt.nextRetry.at} ({attempt.nextRetry.relative}).
        </p>
      ) : null}
      <LogHeaders
        id="attempt-request-headers"
        title="Headers sent"
        note="signature masked"
        headers={attempt.request.headers}
      />
      <LogTextBlock
        id="attempt-request-body"
        title="Payload sent"
        note={`${attempt.request.bytes.toLocaleString("en-US")} bytes`}
        text={attempt.request.body}
        emptyText="(empty body)"
        copyName="Payload"
      />
      <LogTextBlock
        id="attempt-response"
        title="Response"
        note="first 4 KiB"
        text={attempt.responseExcerpt}
        emptyText="(empty response)"
        copyName="Response"
        wrap
      />
      {(attempt.canResend || attempt.nextRetry) && canManage ? (
        <div className="flex justify-end">
          <ResendButton
            deliveryId={attempt.deliveryId}
            type={attempt.type}
            onDone={onClose}
            retry={!attempt.canResend}
          />
        </div>
      ) : null}
    </LogDetailDialog>
  );
}
