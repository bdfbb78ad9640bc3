import { NotFoundPage } from "@/app/(dashboard)/_components/not-found-page";

export default function ConversationNotFound() {
  return <NotFoundPage kind="conversation">This conversation does not exist in this account.</NotFoundPage>;
}
