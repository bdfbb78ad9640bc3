import type { IncomingMessage, ServerResponse } from "node:http";

/*
 * Node ↔ Fetch for the fast routes: a node:http request becomes a Fetch Request (body read up to the
 * route's limit, never further), and a Fetch Response is written back with every header (each
 * Set-Cookie on its own line), a Content-Length, and no body for HEAD.
 */

/** The client went away before its body arrived: nothing to answer, nothing to log. */
export class ClientAborted extends Error {}

export type CappedBody = { bytes: Buffer; complete: boolean };

const EMPTY = Buffer.alloc(0);

/**
 * Reads the body up to `limit + 1` bytes, so a handler can tell "too large" without the rest being
 * read. `complete` is false when bytes were left unread (the connection then closes after the answer).
 */
export function readCappedBody(req: IncomingMessage, limit: number): Promise<CappedBody> {
  if (req.complete && req.readableLength === 0) return Promise.resolve({ bytes: EMPTY, complete: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      const room = limit + 1 - size;
      if (chunk.length < room) {
        chunks.push(chunk);
        size += chunk.length;
        return;
      }
      chunks.push(chunk.subarray(0, room));
      size += room;
      cleanup();
      req.pause();
      resolve({ bytes: Buffer.concat(chunks, size), complete: false });
    };
    const onEnd = () => {
      cleanup();
      resolve({ bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size), complete: true });
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new ClientAborted(error.message));
    };
    const onClose = () => {
      cleanup();
      if (!req.complete) reject(new ClientAborted("the client closed the connection"));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return (length !== undefined && length !== "0") || req.headers["transfer-encoding"] !== undefined;
}

/** The Fetch Request a fast handler sees. `override` replaces headers the server decides (the client IP). */
export async function toFetchRequest(
  req: IncomingMessage,
  options: { maxBodyBytes: number; override: Record<string, string> },
): Promise<{ request: Request; bodyUnread: boolean }> {
  const method = req.method ?? "GET";
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    if (raw[index].toLowerCase() in options.override) continue;
    headers.append(raw[index], raw[index + 1]);
  }
  for (const [name, value] of Object.entries(options.override)) headers.set(name, value);
  const url = `http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`;
  if (method === "GET" || method === "HEAD" || !hasBody(req))
    return { request: new Request(url, { method, headers }), bodyUnread: hasBody(req) };
  // A declared length over the route's limit is left unread: the handler refuses it from the header alone.
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (declared > options.maxBodyBytes) return { request: new Request(url, { method, headers }), bodyUnread: true };
  const body = await readCappedBody(req, options.maxBodyBytes);
  return {
    request: new Request(url, { method, headers, body: body.bytes as Uint8Array<ArrayBuffer> }),
    bodyUnread: !body.complete,
  };
}

export async function writeFetchResponse(
  res: ServerResponse,
  response: Response,
  options: { head: boolean; close: boolean },
): Promise<void> {
  const payload = Buffer.from(await response.arrayBuffer());
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  res.setHeader("content-length", payload.length);
  if (options.close) res.setHeader("connection", "close");
  res.writeHead(response.status);
  res.end(options.head ? undefined : payload);
}
