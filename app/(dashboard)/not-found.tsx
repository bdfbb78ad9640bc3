import { NotFoundPage } from "@/app/(dashboard)/_components/not-found-page";

/** An address inside the dashboard that names no page, shown in the app shell with the way home. */
export default function DashboardNotFound() {
  return (
    <NotFoundPage kind="page">
      There is no page at this address. It may have moved, or the link that brought you here is mistyped.
    </NotFoundPage>
  );
}
