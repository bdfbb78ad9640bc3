"use client";

import { FileJson } from "lucide-react";
import { useRouter } from "next/navigation";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog, DialogBody, DialogContent } from "@/components/ui/dialog";
import { StatusBadge } from "./status-badge";
import { DetailItem } from "@/components/ui/detail-item";

export type DeliveryDetailView = {
  id: string;
  time: string;
  action: string | null;
  status: number;
  eventTitle: string | null;
  /** The occurrence of a series a cancel or delete acted on, in the account's zone. */
  occurrence: string | null;
  errorCode: string | null;
  latencyMs: number;
  body: string;
  bodyBytes: number;
  bodyTruncated: boolean;
  headers: Array<[string, string]>;
};

/** Opened by ?delivery=<id>, so a delivery can be linked to; closing removes the parameter. */
export function DeliveryDetailDialog({ delivery, closeHref }: { delivery: DeliveryDetailView; closeHref: string }) {
  const router = useRouter();
  return (
    <Dialog open onOpenChange={(open) => !open && router.replace(closeHref, { scroll: false })}>
      <DialogContent title="Delivery details" description={delivery.time} icon={<FileJson className="size-4" aria-hidden />} size="lg">
        <DialogBody>
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
            <DetailItem term="Status">
              <StatusBadge status={delivery.status} />
            </DetailItem>
            <DetailItem term="Action">{delivery.action ?? "—"}</DetailItem>
            <DetailItem term="Error code">{delivery.errorCode ? <code className="font-mono text-xs">{delivery.errorCode}</code> : "—"}</DetailItem>
            <DetailItem term="Latency">{delivery.latencyMs} ms</DetailItem>
          </dl>
          {delivery.eventTitle ? <p className="text-sm text-zinc-700">Event: {delivery.eventTitle}</p> : null}
          {delivery.occurrence ? <p className="text-sm text-zinc-700">Occurrence: {delivery.occurrence}</p> : null}
          <section aria-labelledby="delivery-headers">
            <h3 id="delivery-headers" className="mb-2 text-sm font-semibold text-zinc-900">
              Headers received
            </h3>
            <dl className="divide-y divide-zinc-100 rounded-lg ring-1 ring-zinc-200">
              {delivery.headers.map(([name, value]) => (
                <div key={name} className="grid grid-cols-[12rem_1fr] gap-3 px-3 py-2 text-xs">
                  <dt className="font-mono text-zinc-500">{name}</dt>
                  <dd className="font-mono break-all text-zinc-900">{value}</dd>
                </div>
              ))}
            </dl>
          </section>
          <section aria-labelledby="delivery-body">
            <div className="mb-2 flex items-center justify-between">
              <h3 id="delivery-body" className="text-sm font-semibold text-zinc-900">
                Body <span className="font-normal text-zinc-500">({delivery.bodyBytes.toLocaleString("en-US")} bytes{delivery.bodyTruncated ? ", first 16 KiB shown" : ""})</span>
              </h3>
              <CopyButton value={delivery.body} size="sm" toastMessage="Body copied" aria-label="Copy body" />
            </div>
            <pre className="max-h-80 overflow-auto rounded-lg bg-zinc-950 p-4 text-xs leading-5 text-zinc-100">
              <code>{delivery.body || "(empty body)"}</code>
            </pre>
          </section>
        </DialogBody>
      </DialogContent>
    </Dialog>
  );
}
