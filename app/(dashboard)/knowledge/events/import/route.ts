import { csvUploadRoute } from "@/lib/csv/upload-route";
import { EVENTS_IMPORTER } from "@/lib/events/csv-upload";

/* The events import dialog's upload (lib/csv/upload-route.ts). */

export const dynamic = "force-dynamic";

export const POST = csvUploadRoute(EVENTS_IMPORTER);
