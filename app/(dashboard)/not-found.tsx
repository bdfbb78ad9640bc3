import { MapPinOff } from "lucide-react";
import { NotFoundState } from "@/components/ui/empty-state";

/** An address inside the dashboard that names no page, shown in the app shell with the way home. */
export default function DashboardNotFound() {
  return (
    <NotFoundState
      icon={<MapPinOff className="size-6" aria-hidden />}
      title="Page not found"
      backHref="/"
      backLabel="Back to the dashboard"
    >
      There is no page at this address. It may have moved, or the link that brought you here is mistyped.
    </NotFoundState>
  );
}
