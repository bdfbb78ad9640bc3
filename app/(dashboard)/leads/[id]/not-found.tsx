import { NotFoundPage } from "@/app/(dashboard)/_components/not-found-page";

export default function LeadNotFound() {
  return <NotFoundPage kind="lead">This lead does not exist in this account, or it was deleted.</NotFoundPage>;
}
