import { notFound } from "next/navigation";

/** Any dashboard address that names no page: the 404 inside the app shell (../not-found.tsx). */
export default function MissingPage(): never {
  notFound();
}
