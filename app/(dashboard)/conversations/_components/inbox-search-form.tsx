import { Search } from "lucide-react";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { inputClasses } from "@/components/ui/field";
import { MAX_SEARCH_LENGTH } from "@/lib/conversations/inbox-search";

/**
 * Search within the open tab by the visitor's name or email, or words of the conversation (a plain GET
 * form: the search lives in the URL, so paging, tabs and reloads keep it).
 */
export function InboxSearchForm({ tab, search, clearHref }: { tab: string; search: string | null; clearHref: string }) {
  return (
    <form role="search" action="/conversations" className="mb-4 flex flex-wrap items-center gap-2">
      <input type="hidden" name="tab" value={tab} />
      <label htmlFor="inbox-search" className="sr-only">
        Search conversations
      </label>
      <div className="relative min-w-0 flex-1 sm:max-w-md">
        <Search className="pointer-events-none absolute top-2.5 left-3 size-4 text-zinc-500" aria-hidden />
        <input
          id="inbox-search"
          type="search"
          name="q"
          defaultValue={search ?? ""}
          maxLength={MAX_SEARCH_LENGTH}
          placeholder="Visitor name, email or message text"
          className={`${inputClasses} pl-9`}
        />
      </div>
      <button type="submit" className={buttonClasses("secondary", "sm")}>
        Search
      </button>
      {search ? (
        <Link href={clearHref} className="text-sm font-medium text-indigo-700 underline-offset-2 hover:underline">
          Clear search
        </Link>
      ) : null}
    </form>
  );
}
