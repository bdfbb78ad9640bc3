import { NotFoundPage } from "@/app/(dashboard)/_components/not-found-page";

export default function SubscriptionNotFound() {
  return (
    <NotFoundPage kind="subscription">
      This subscription does not exist in this account, or it was deleted (perhaps by the tool that created it).
    </NotFoundPage>
  );
}
