"use client";

import { AlertTriangle } from "lucide-react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

/** A page that failed to load (for example while the database is unavailable): say so and offer a retry. */
export default function DashboardError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <EmptyState
      icon={<AlertTriangle className="size-6" aria-hidden />}
      title="This page could not be loaded"
      action={<Button onClick={reset}>Try again</Button>}
    >
      <p>
        Something went wrong on our side, or the service is briefly unavailable. Nothing you entered was lost; try again
        in a moment.
      </p>
    </EmptyState>
  );
}
