import { KeyRound, LogOut } from "lucide-react";
import Link from "next/link";
import { Suspense } from "react";
import { canManage, requireSession } from "@/lib/auth/session";
import { countNeedingPerson } from "@/lib/conversations/read";
import { noticeHref, noticeTitle } from "@/lib/notices/model";
import { openNotices } from "@/lib/notices/open";
import { signOutAction } from "./actions";
import { MobileNav } from "./_components/mobile-nav";
import { NavigationProgress } from "./_components/navigation-progress";
import { NavLinks } from "./_components/nav-links";
import { NoticeBanner } from "./_components/notice-banner";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const context = await requireSession();
  const { user, account, role } = context;
  // Current as of the layout's render: a page load, a refresh, and the inbox's own refresh every few seconds.
  // Failure notices are for those who can fix the problem.
  const [waiting, notices] = await Promise.all([
    countNeedingPerson(account.id),
    canManage(context) ? openNotices(account.id) : [],
  ]);
  const counts = { "/conversations": waiting };
  const banner = notices.map((notice) => ({
    id: notice.id,
    title: noticeTitle(notice),
    message: notice.message,
    href: noticeHref(notice),
  }));
  const initials = user.name
    .split(/\s+/)
    .map((part) => part[0])
    .join("")
    .slice(0, 2)
    .toUpperCase();
  return (
    <NavigationProgress>
      <div className="flex min-h-screen">
        <aside className="hidden w-64 shrink-0 flex-col border-r border-zinc-200 bg-white lg:flex">
          <Link href="/" className="flex h-16 items-center gap-2 border-b border-zinc-200 px-5">
            <span className="flex size-8 items-center justify-center rounded-lg bg-indigo-600 text-white">
              <KeyRound className="size-4" aria-hidden />
            </span>
            <span className="font-semibold tracking-tight">Integrations</span>
          </Link>
          <div className="flex-1 overflow-y-auto px-3 py-6">
            <NavLinks counts={counts} />
          </div>
          <div className="border-t border-zinc-200 px-5 py-4 text-xs text-zinc-500">
            <span className="font-medium text-zinc-700">{account.name}</span>
            <span className="ml-1.5 rounded bg-zinc-100 px-1.5 py-0.5 font-medium text-zinc-600 uppercase">
              {account.plan}
            </span>
          </div>
        </aside>
        <div className="flex min-w-0 flex-1 flex-col">
          <header
            className={
              "flex h-16 items-center justify-between gap-4 border-b " + "border-zinc-200 bg-white px-4 sm:px-6"
            }
          >
            <div className="flex min-w-0 items-center gap-2">
              <MobileNav counts={counts} />
              <p className="truncate text-sm text-zinc-500">
                <span className="hidden sm:inline">Account </span>
                <span className="font-medium text-zinc-900">{account.name}</span>
              </p>
            </div>
            <div className="flex shrink-0 items-center gap-3">
              <div className="hidden text-right sm:block">
                <p className="text-sm font-medium text-zinc-900">{user.name}</p>
                <p className="text-xs text-zinc-500">
                  {user.email} · <span className="capitalize">{role}</span>
                </p>
              </div>
              <span
                aria-hidden
                className={
                  "flex size-9 items-center justify-center rounded-full " +
                  "bg-indigo-100 text-sm font-semibold text-indigo-700"
                }
              >
                {initials}
              </span>
              <form action={signOutAction}>
                <button
                  type="submit"
                  className={
                    "inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 text-sm " +
                    "font-medium text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
                  }
                >
                  <LogOut className="size-4" aria-hidden />
                  <span className="sr-only sm:not-sr-only">Sign out</span>
                </button>
              </form>
            </div>
          </header>
          {/* useSearchParams: the banner compares the page's query with a notice's link. */}
          <Suspense fallback={null}>
            <NoticeBanner notices={banner} />
          </Suspense>
          <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 lg:px-8">{children}</main>
        </div>
      </div>
    </NavigationProgress>
  );
}
