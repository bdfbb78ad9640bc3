"use client";

import { TriangleAlert } from "lucide-react";
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useState } from "react";

export type BannerNotice = { id: string; title: string; message: string; href: string };

/*
 * The account's failure notices, above every dashboard page, until an owner opens the page that fixes the
 * problem (that page closes the notice on the server). The layout is not rendered again on every
 * navigation, so a notice whose page has been opened in this visit also hides here at once.
 */
export function NoticeBanner({ notices }: { notices: BannerNotice[] }) {
  const pathname = usePathname();
  const search = useSearchParams();
  const [opened, setOpened] = useState<string[]>([]);
  const here = (href: string) => {
    const url = new URL(href, "http://dashboard.invalid");
    return url.pathname === pathname && [...url.searchParams].every(([key, value]) => search.get(key) === value);
  };
  const current = notices.filter((notice) => here(notice.href)).map((notice) => notice.id);
  // Remembered while rendering (React's pattern for state that follows props): no extra render pass.
  const unseen = current.filter((id) => !opened.includes(id));
  if (unseen.length > 0) setOpened([...opened, ...unseen]);
  const shown = notices.filter((notice) => !opened.includes(notice.id) && !current.includes(notice.id));
  if (shown.length === 0) return null;
  return (
    <section aria-label="Problems" className="border-b border-amber-200 bg-amber-50 px-4 py-3 sm:px-6">
      <ul className="mx-auto max-w-6xl space-y-1.5">
        {shown.map((notice) => (
          <li key={notice.id} className="flex items-start gap-2 text-sm text-amber-950">
            <TriangleAlert className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
            <p>
              <span className="font-semibold">{notice.title}</span> {notice.message}{" "}
              <Link href={notice.href} className="font-medium whitespace-nowrap underline">
                Open the problem
              </Link>
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
