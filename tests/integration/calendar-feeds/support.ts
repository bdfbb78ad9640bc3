import http from "node:http";
import type { SessionContext } from "@/lib/auth/session";
import { addFeed } from "@/lib/calendar-feeds/store";
import { db } from "@/lib/platform/db/client";
import { listen } from "../../support/http-server";
import { createAccount } from "../../support/factories";

/* A loopback feed server whose answers the tests set per path, accounts with feeds, and reads of the results. */

process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";

export type Answer = (request: http.IncomingMessage, response: http.ServerResponse) => void;

export async function feedServer() {
  const answers = new Map<string, Answer>();
  const requests: Array<{ path: string; headers: http.IncomingHttpHeaders }> = [];
  const server = await listen((request, response) => {
    requests.push({ path: request.url ?? "", headers: request.headers });
    const answer = answers.get(request.url ?? "");
    if (answer) answer(request, response);
    else response.writeHead(404).end("no such feed");
  });
  return {
    url: (path: string) => `http://127.0.0.1:${server.port}${path}`,
    port: server.port,
    answers,
    requests,
    /** Serves `body` at `path` with an ETag, answering 304 to a request that names it. */
    serve(path: string, body: string | Buffer, contentType = "text/calendar; charset=utf-8") {
      const etag = `"${Buffer.from(body).length}-${Buffer.from(body).subarray(-40).toString("base64url")}"`;
      answers.set(path, (request, response) => {
        if (request.headers["if-none-match"] === etag) return void response.writeHead(304, { etag }).end();
        response.writeHead(200, { "content-type": contentType, etag }).end(body);
      });
    },
    close: server.close,
  };
}

export async function ownerContext(timezone = "Europe/Berlin", plan: "free" | "pro" = "pro"): Promise<SessionContext> {
  const account = await createAccount();
  await db.pool.query('UPDATE accounts SET timezone = $2, plan = $3::"Plan" WHERE id = $1::uuid', [
    account.accountId,
    timezone,
    plan,
  ]);
  return {
    user: account.user,
    account: { id: account.accountId, name: "Test", plan, timezone },
    role: "owner",
  };
}

export async function followFeed(context: SessionContext, url: string, name = "Venue"): Promise<string> {
  const added = await addFeed(context, { name, url, intervalMinutes: 15 });
  if (!added.ok) throw new Error(`feed refused: ${added.message}`);
  return added.id;
}

export type StoredEvent = {
  id: string;
  title: string;
  starts_at: Date;
  ends_at: Date | null;
  recurring: string;
  status: string;
  location: string;
  description: string;
  url: string;
  feed_key: string | null;
  updated_at: Date;
  exceptions: string[];
};

export async function eventsOf(accountId: string): Promise<StoredEvent[]> {
  const { rows } = await db.pool.query<StoredEvent>(
    `SELECT e.id, e.title, e.starts_at, e.ends_at, e.recurring, e.status::text AS status, e.location, e.description,
       e.url, e.feed_key, e.updated_at,
       COALESCE((SELECT array_agg(x.kind || ' ' || to_char(x.occurs_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
         ORDER BY x.occurs_at) FROM event_exceptions x WHERE x.event_id = e.id), '{}') AS exceptions
     FROM events e WHERE e.account_id = $1::uuid ORDER BY e.starts_at, e.title`,
    [accountId],
  );
  return rows;
}

export async function messageTypes(accountId: string): Promise<string[]> {
  const { rows } = await db.pool.query<{ type: string }>(
    "SELECT type FROM outbound_messages WHERE account_id = $1::uuid ORDER BY created_at, id",
    [accountId],
  );
  return rows.map((row) => row.type);
}

export async function syncLog(feedId: string) {
  const { rows } = await db.pool.query<{
    result: string;
    http_status: number | null;
    error: string | null;
    created: number;
    updated: number;
    deleted: number;
    unchanged: number;
    skipped: number;
  }>(
    `SELECT result, http_status, error, created, updated, deleted, unchanged, skipped
     FROM calendar_feed_syncs WHERE feed_id = $1::uuid ORDER BY started_at`,
    [feedId],
  );
  return rows;
}

/** Lines of an iCalendar file, CRLF-joined, wrapped in VCALENDAR. */
export function calendar(...components: string[][]): string {
  return ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Feed//EN", ...components.flat(), "END:VCALENDAR", ""].join(
    "\r\n",
  );
}

/** A VEVENT of content lines ("DTSTART;TZID=Europe/Berlin:20261107T090000", …). */
export function vevent(...lines: string[]): string[] {
  return ["BEGIN:VEVENT", ...lines, "END:VEVENT"];
}
