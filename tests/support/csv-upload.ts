import type { CsvImportState, CsvUploadResult } from "@/lib/csv-import/upload";

/** What a CSV import route's upload takes besides the file: a preview or the import, and extra headers. */
export type CsvUploadOptions = { intent?: "preview" | "import"; headers?: Record<string, string> };

/**
 * A dashboard CSV import route (events, leads; lib/csv-import/upload.ts) called as the import dialog calls
 * it: the file as the body (a stream too), its name in X-File-Name, `?intent=preview` before the import.
 */
export function csvImportRoute(route: (request: Request) => Promise<Response>, path: string, fileName: string) {
  const post = (body: BodyInit, { intent = "import", headers = {} }: CsvUploadOptions = {}): Promise<Response> =>
    route(
      new Request(`http://localhost:3000${path}?intent=${intent}`, {
        method: "POST",
        headers: { "Content-Type": "text/csv", "X-File-Name": encodeURIComponent(fileName), ...headers },
        body,
        duplex: "half",
      } as RequestInit),
    );
  const upload = async (body: BodyInit, options?: CsvUploadOptions): Promise<CsvUploadResult> => {
    const response = await post(body, options);
    return { status: response.status, state: (await response.json()) as CsvImportState };
  };
  return { post, upload };
}
