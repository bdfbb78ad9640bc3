"use client";

import { RefreshCw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { newestDeliveryAction } from "../actions";

const POLL_MS = 5_000;

/**
 * Polls for the newest delivery id and offers to show new ones, rather than moving rows under the
 * reader's cursor. `newestHref` is the first page with the current filters.
 */
export function NewDeliveriesNotice({
  sourceId,
  newestId,
  newestHref,
}: {
  sourceId: string;
  newestId: string | null;
  newestHref: string;
}) {
  const router = useRouter();
  const [arrived, setArrived] = useState(false);

  useEffect(() => {
    let stopped = false;
    const timer = setInterval(async () => {
      if (document.hidden) return;
      const result = await newestDeliveryAction({ sourceId }).catch(() => null);
      const latest = result?.ok ? result.data : newestId;
      if (!stopped && latest && latest !== newestId) setArrived(true);
    }, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [sourceId, newestId]);

  if (!arrived) return null;
  return (
    <div
      role="status"
      className={
        "flex items-center justify-between gap-3 rounded-lg bg-indigo-50 px-4 " +
        "py-2.5 text-sm text-indigo-900 ring-1 ring-indigo-200"
      }
    >
      <span>New deliveries have arrived.</span>
      <Button
        size="sm"
        variant="secondary"
        onClick={() => {
          setArrived(false);
          router.push(newestHref, { scroll: false });
          router.refresh();
        }}
      >
        <RefreshCw className="size-3.5" aria-hidden />
        Show newest
      </Button>
    </div>
  );
}
