/** What a table cell or a detail shows for a value that is not set. */
export const none = <span className="text-zinc-500">—</span>;
