import http from "node:http";
import pg from "pg";
import { answerVisitor } from "@/lib/assistant/answer";
import { CHAT_QUESTIONS } from "./chat-questions";

/*
 * The chat benchmark's engine row: a bare node:http server around the whole assistant engine, without
 * the chat endpoint's storage: GET /ask?i=<n> runs answerVisitor (intent, date parsing, the search
 * statements, reply text) for question n and answers its JSON.
 * Run with: node --conditions=react-server --import tsx tests/bench/chat-server.ts <port>
 */

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 20),
});
pool.on("error", () => {});
const accountId = process.env.BENCH_ACCOUNT_ID ?? "";
const timezone = process.env.BENCH_TIMEZONE ?? "Europe/Berlin";

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
  const message = CHAT_QUESTIONS[Number(url.searchParams.get("i"))];
  if (url.pathname !== "/ask" || message === undefined)
    return send(response, 404, { ok: false, error: { code: "not_found" } });
  send(response, 200, await answerVisitor({ accountId, timezone, message, client: pool }));
}

const server = http.createServer((request, response) => {
  handle(request, response).catch(() => send(response, 503, { ok: false, error: { code: "unavailable" } }));
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.argv[2]), "127.0.0.1", () => console.log("chat server ready"));
