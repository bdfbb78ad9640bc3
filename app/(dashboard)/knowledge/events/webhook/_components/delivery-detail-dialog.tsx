"use client";

import { FileJson } from "lucide-react";
import { useRouter } from "next/navigation";
import { DetailItem } from "@/components/ui/detail-item";
import { LogDetailDialog, LogTextBlock } from "@/components/ui/log-view";
import { StatusBadge } from "./status-badge";

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
    <LogDetailDialog
      title="Delivery details"
      description={delivery.time}
      icon={<FileJson className="size-4" aria-hidden />}
      onClose={() => router.replace(closeHref, { scroll: false })}
    >
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        <DetailItem term="Status">
          <StatusBadge status={delivery.status} />
        </DetailItem>
        <DetailItem term="Action">{delivery.action ?? "—"}</DetailItem>
        <DetailItem term="Error code">
          {delivery.errorCode ? <code className="font-mono text-xs">{delivery.errorCode}</code> : "—"}
        </DetailItem>
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
      <LogTextBlock
        id="delivery-body"
        title="Body"
        note={`${delivery.bodyBytes.toLocaleString("en-US")} bytes${delivery.bodyTruncated ? ", first 16 KiB shown" : ""}`}
        text={delivery.body}
        emptyText="(empty body)"
        copyName="Body"
      />
    </LogDetailDialog>
  );
}
