"use client";

import { FileJson } from "lucide-react";
import { useRouter } from "next/navigation";
import { DetailItem } from "@/components/ui/detail-item";
import { LogDetailDialog, LogHeaders, LogTextBlock } from "@/components/ui/log-view";
import type { DeliveryView } from "./deliveries-table";
import { StatusBadge } from "./status-badge";

export type DeliveryDetailView = DeliveryView & {
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
      <LogHeaders id="delivery-headers" title="Headers received" headers={delivery.headers} />
      <LogTextBlock
        id="delivery-body"
        title="Body"
        note={
          `${delivery.bodyBytes.toLocaleString("en-US")} ` +
          `bytes${delivery.bodyTruncated ? ", first 16 KiB shown" : ""}`
        }
        text={delivery.body}
        emptyText="(empty body)"
        copyName="Body"
      />
    </LogDetailDialog>
  );
}
