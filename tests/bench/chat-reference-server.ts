import http from "node:http";
import { understand } from "@/lib/assistant/intent";
import { searchEvents } from "@/lib/assistant/search";
import { CHAT_QUESTIONS } from "./chat-questions";
import { benchPool, sendJson, serveBench } from "./reference-http";

/*
 * The chat benchmark's yardstick: bare node:http + pg running the assistant's search statements
 * (lib/assistant/search.ts searchEvents) for the same questions, and nothing else: each question is
 * understood once at start-up, so no intent, date parsing or reply text per request.
 * Run with: node --conditions=react-server --import tsx tests/bench/chat-reference-server.ts <port>
 */

const pool = benchPool();
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

async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
  const url = new URL(request.url ?? "/", "http://localhost");
  const search = searches[Number(url.searchParams.get("i"))];
  if (url.pathname !== "/ask" || search === undefined)
    return sendJson(response, 404, { ok: false, error: { code: "not_found" } });
  const { events } = await searchEvents(pool, search);
  sendJson(response, 200, { events });
}

serveBench(handle, "reference server ready", { ok: false, error: { code: "unavailable" } });
