import Link from "next/link";
import { cn } from "./cn";

/**
 * A list's first cell: the record's name linking to its detail page, and below it what tells records
 * apart (a phone number, a description, a repeat rule). `title` shows the whole name when it is cut.
 */
export function RecordLinkCell(props: {
  href: string;
  children: React.ReactNode;
  below?: React.ReactNode;
  title?: string;
  className?: string;
  linkClassName?: string;
}) {
  return (
    <div className={props.className ?? "max-w-64 min-w-36"}>
      <Link
        href={props.href}
        title={props.title}
        className={cn("font-medium text-zinc-900 hover:text-indigo-600 hover:underline", props.linkClassName)}
      >
        {props.children}
      </Link>
      {props.below}
    </div>
  );
}
