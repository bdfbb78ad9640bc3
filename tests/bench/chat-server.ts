import http from "node:http";
import { answerVisitor } from "@/lib/assistant/answer";
import { CHAT_QUESTIONS } from "./chat-questions";
import { benchPool, sendJson, serveBench } from "./reference-http";

/*
 * The chat benchmark's engine row: a bare node:http server around the whole assistant engine, without
 * the chat endpoint's storage: GET /ask?i=<n> runs answerVisitor (intent, date parsing, the search
 * statements, reply text) for question n and answers its JSON.
 * Run with: node --conditions=react-server --import tsx tests/bench/chat-server.ts <port>
 */

const pool = benchPool();
const accountId = process.env.BENCH_ACCOUNT_ID ?? "";
const timezone = process.env.BENCH_TIMEZONE ?? "Europe/Berlin";

async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
  const url = new URL(request.url ?? "/", "http://localhost");
  const message = CHAT_QUESTIONS[Number(url.searchParams.get("i"))];
  if (url.pathname !== "/ask" || message === undefined)
    return sendJson(response, 404, { ok: false, error: { code: "not_found" } });
  sendJson(response, 200, await answerVisitor({ accountId, timezone, message, client: pool }));
}

serveBench(handle, "chat server ready", { ok: false, error: { code: "unavailable" } });
