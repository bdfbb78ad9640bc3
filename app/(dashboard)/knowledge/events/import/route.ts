import { csvUploadRoute } from "@/lib/csv-import/upload-route";
import { EVENTS_IMPORTER } from "@/lib/events/csv-upload";

/* The events import dialog's upload (lib/csv-import/upload-route.ts). */

export const dynamic = "force-dynamic";

export const POST = csvUploadRoute(EVENTS_IMPORTER);
