import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSecret } from "@/lib/platform/crypto/secrets";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifySignature } from "@/lib/events-webhook/signature";
import { curlSnippet, nodeSnippet, pythonSnippet } from "@/lib/events-webhook/snippets";

const run = promisify(execFile);
const secret = generateSecret();
let server: http.Server;
let endpoint = "";
const received: Array<{ valid: boolean; body: string }> = [];

// A stand-in receiver that applies the documented signing rule to what each snippet really sends.
beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const timestamp = String(request.headers[TIMESTAMP_HEADER] ?? "");
      const valid = verifySignature(secret, timestamp, body, String(request.headers[SIGNATURE_HEADER] ?? ""));
      received.push({ valid, body: body.toString("utf8") });
      response.writeHead(valid ? 200 : 401, { "Content-Type": "application/json" }).end(JSON.stringify({ ok: valid }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/events/webhook/src_example`;
});
afterAll(() => server.close());

const env = () => ({ ...process.env, WEBHOOK_SECRET: secret });

async function sendsAValidRequest(send: () => Promise<unknown>) {
  const before = received.length;
  await send();
  expect(received.length).toBe(before + 1);
  expect(received.at(-1)!.valid).toBe(true);
  expect(JSON.parse(received.at(-1)!.body)).toMatchObject({ action: "upsert", event: { title: "Spring Open Day" } });
}

describe("the integration guide's snippets", () => {
  it("curl + openssl signs what it sends", async () => {
    await sendsAValidRequest(() => run("bash", ["-c", curlSnippet(endpoint)], { env: env() }));
  });

  it("Node signs what it sends", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "snippet-")), "send.mjs");
    fs.writeFileSync(file, nodeSnippet(endpoint));
    await sendsAValidRequest(() => run(process.execPath, [file], { env: env() }));
  });

  it("Python signs what it sends", async () => {
    await sendsAValidRequest(() => run("python3", ["-c", pythonSnippet(endpoint)], { env: env() }));
  });
});
