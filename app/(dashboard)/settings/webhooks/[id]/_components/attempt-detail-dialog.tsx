"use client";

import { FileText } from "lucide-react";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog, DialogBody, DialogContent } from "@/components/ui/dialog";
import { HttpStatus, OutcomeBadge } from "./attempt-badges";
import type { AttemptRow } from "./delivery-attempts-table";
import { ResendButton } from "./resend-button";
import { DetailItem } from "@/components/ui/detail-item";

/** One attempt: what was sent (type, webhook-id), what came back (status, error, the first 4 KiB of the answer). */
export function AttemptDetailDialog({ attempt, canManage, onClose }: { attempt: AttemptRow; canManage: boolean; onClose: () => void }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title="Delivery attempt" description={attempt.time} icon={<FileText className="size-4" aria-hidden />} size="lg">
        <DialogBody>
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
          <section aria-labelledby="attempt-response">
            <div className="mb-2 flex items-center justify-between">
              <h3 id="attempt-response" className="text-sm font-semibold text-zinc-900">
                Response <span className="font-normal text-zinc-500">(first 4 KiB)</span>
              </h3>
              {attempt.responseExcerpt ? <CopyButton value={attempt.responseExcerpt} size="sm" toastMessage="Response copied" aria-label="Copy response" /> : null}
            </div>
            <pre className="max-h-72 overflow-auto rounded-lg bg-zinc-950 p-4 text-xs leading-5 whitespace-pre-wrap text-zinc-100">
              <code>{attempt.responseExcerpt || "(empty response)"}</code>
            </pre>
          </section>
          {attempt.canResend && canManage ? (
            <div className="flex justify-end">
              <ResendButton deliveryId={attempt.deliveryId} type={attempt.type} onDone={onClose} />
            </div>
          ) : null}
        </DialogBody>
      </DialogContent>
    </Dialog>
  );
}
