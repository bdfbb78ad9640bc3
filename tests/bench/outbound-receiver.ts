import http from "node:http";
import type { AddressInfo } from "node:net";

/*
 * The receiver of bench:outbound (tests/bench/outbound.ts), in a process of its own: the worker's
 * deliveries and the reference loop's requests both reach it across processes, as they would reach a real
 * receiver, and neither shares an event loop with it. It answers 204 at once (503 to a path the soak made
 * fail, until the time it said) and keeps, per request, the webhook-id, the path, the time of receipt and
 * whether it answered 2xx; the bench asks for them over IPC.
 */

type Receipt = { id: string; path: string; at: number; ok: boolean };
type Request =
  | { op: "count" }
  | { op: "expect"; ids: string[] }
  | { op: "countFor"; id: string }
  | { op: "receipts" }
  | { op: "reset" }
  | { op: "failUntil"; path: string; until: number };

const receipts: Receipt[] = [];
const distinct = new Set<string>();
// The notifications of the round under way: a late receipt of an earlier one is not counted as theirs.
let expected = new Set<string>();
let expectedDistinct = 0;
const failing = new Map<string, number>();

const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    const at = Date.now();
    const ok = !(at < (failing.get(req.url ?? "") ?? 0));
    const receipt = { id: String(req.headers["webhook-id"]), path: req.url ?? "", at, ok };
    receipts.push(receipt);
    if (!ok) return void res.writeHead(503).end();
    const key = `${receipt.id} ${receipt.path}`;
    if (!distinct.has(key)) {
      distinct.add(key);
      if (expected.has(receipt.id)) expectedDistinct += 1;
    }
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;

function answer(request: Request): unknown {
  switch (request.op) {
    case "count":
      return { distinct: distinct.size, expected: expectedDistinct };
    case "expect":
      expected = new Set(request.ids);
      expectedDistinct = [...distinct].filter((key) => expected.has(key.slice(0, key.indexOf(" ")))).length;
      return null;
    case "countFor":
      return receipts.filter((receipt) => receipt.id === request.id).length;
    case "receipts":
      return receipts;
    case "failUntil":
      failing.set(request.path, request.until);
      return null;
    case "reset":
      receipts.length = 0;
      distinct.clear();
      expected = new Set();
      expectedDistinct = 0;
      return null;
  }
}

process.on("message", (message: { seq: number; request: Request }) => {
  process.send!({ seq: message.seq, result: answer(message.request) });
});
// The bench went away: nothing is left to report to.
process.on("disconnect", () => process.exit(0));

server.listen(0, "127.0.0.1", () => {
  process.send!({ ready: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
