"use client";

import { FileText } from "lucide-react";
import { DetailItem } from "@/components/ui/detail-item";
import { LogDetailDialog, LogTextBlock } from "@/components/ui/log-view";
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
      <section aria-labelledby="attempt-request-headers">
        <h3 id="attempt-request-headers" className="mb-2 text-sm font-semibold text-zinc-900">
          Headers sent <span className="font-normal text-zinc-500">(signature masked)</span>
        </h3>
        <dl className="divide-y divide-zinc-100 rounded-lg ring-1 ring-zinc-200">
          {attempt.request.headers.map(([name, value]) => (
            <div key={name} className="grid gap-1 px-3 py-2 text-xs sm:grid-cols-[10rem_1fr] sm:gap-3">
              <dt className="font-mono text-zinc-500">{name}</dt>
              <dd className="font-mono break-all text-zinc-900">{value}</dd>
            </div>
          ))}
        </dl>
      </section>
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
