import { Download } from "lucide-react";
import { buttonClasses } from "../ui/button";

/** "Export CSV": a plain download link to a list's export route (the file is streamed by the server). */
export function CsvExportLink({ href }: { href: string }) {
  return (
    <a href={href} className={buttonClasses("secondary")} download>
      <Download className="size-4" aria-hidden />
      Export CSV
    </a>
  );
}
