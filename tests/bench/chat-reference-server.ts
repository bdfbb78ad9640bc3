import http from "node:http";
import pg from "pg";
import { understand } from "@/lib/assistant/intent";
import { searchEvents } from "@/lib/assistant/search";
import { CHAT_QUESTIONS } from "./chat-questions";

/*
 * The chat benchmark's yardstick: bare node:http + pg running the assistant's search statements
 * (lib/assistant/search.ts searchEvents) for the same questions, and nothing else: each question is
 * understood once at start-up, so no intent, date parsing or reply text per request.
 * Run with: node --conditions=react-server --import tsx tests/bench/chat-reference-server.ts <port>
 */

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 20),
});
pool.on("error", () => {});
const accountId = process.env.BENCH_ACCOUNT_ID ?? "";
const timezone = process.env.BENCH_TIMEZONE ?? "Europe/Berlin";
const now = new Date();
const searches = CHAT_QUESTIONS.map((question) => {
  const intent = understand(question, now, timezone);
  return {
    accountId,
    timeZone: timezone,
    now,
    range: intent.range,
    topic: intent.topic,
    typed: intent.typed,
    free: intent.free,
  };
});

function send(response: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
  });
  response.end(text);
}

async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
  const url = new URL(request.url ?? "/", "http://localhost");
  const search = searches[Number(url.searchParams.get("i"))];
  if (url.pathname !== "/ask" || search === undefined)
    return send(response, 404, { ok: false, error: { code: "not_found" } });
  const { events } = await searchEvents(pool, search);
  send(response, 200, { events });
}

const server = http.createServer((request, response) => {
  handle(request, response).catch(() => send(response, 503, { ok: false, error: { code: "unavailable" } }));
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.argv[2]), "127.0.0.1", () => console.log("reference server ready"));
