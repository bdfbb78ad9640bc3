import { csvUploadRoute } from "@/lib/csv-import/upload-route";
import { LEADS_IMPORTER } from "@/lib/leads/csv-import";

/* The leads import dialog's upload (lib/csv-import/upload-route.ts). */

export const dynamic = "force-dynamic";

export const POST = csvUploadRoute(LEADS_IMPORTER);
