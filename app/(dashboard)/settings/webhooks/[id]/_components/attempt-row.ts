/** One delivery attempt as the table and its detail dialog show it (delivery-attempts-section.tsx builds them). */
export type AttemptRow = {
  id: string;
  deliveryId: string;
  messageId: string;
  type: string;
  attempt: number;
  time: string;
  relative: string;
  iso: string;
  /** The hover: the zone's long name and the UTC instant. */
  full: string;
  statusCode: number | null;
  statusText: string | null;
  durationMs: number;
  responseExcerpt: string;
  /** What was sent: the headers (signature masked) and the JSON body, indented for reading. */
  request: { headers: Array<[string, string]>; body: string; bytes: number };
  error: string | null;
  outcome: string;
  /** Only on the newest attempt of a delivery: what happens next. */
  nextRetry: { at: string; relative: string } | null;
  /** Only on the newest attempt of a delivery that failed for good. */
  canResend: boolean;
};
