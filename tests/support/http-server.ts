import http from "node:http";
import type { AddressInfo, Server } from "node:net";

/*
 * Real node:http servers and raw requests on 127.0.0.1, for the production server's adapter tests:
 * fetch would merge or hide what these tests look at (repeated headers, bodies of HEAD, early answers).
 */

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: string };

/**
 * Listens on a free port; rejects when the address cannot be listened on (e.g. no IPv6 loopback) rather than hanging.
 */
export function listening(server: Server, host = "127.0.0.1"): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
  });
}

export async function listen(
  listener: http.RequestListener,
  configure?: (server: http.Server) => void,
  host = "127.0.0.1",
): Promise<{ port: number; server: http.Server; close: () => Promise<void> }> {
  const server = http.createServer(listener);
  configure?.(server);
  const port = await listening(server, host);
  return {
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Target = { method: string; path: string; headers?: http.OutgoingHttpHeaders };

/** A raw request to the local port, without a pooled agent; `onAnswer` gets the status, headers and body. */
function request(
  port: number,
  target: Target,
  onAnswer: (answer: RawResponse) => void,
  onError: (error: Error) => void,
): http.ClientRequest {
  const sent = http.request({ host: "127.0.0.1", port, ...target, agent: false }, (response) => {
    const chunks: Buffer[] = [];
    response.on("data", (chunk: Buffer) => chunks.push(chunk));
    response.on("end", () =>
      onAnswer({
        status: response.statusCode ?? 0,
        headers: response.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      }),
    );
    response.on("error", onError);
  });
  sent.on("error", onError);
  return sent;
}

/** Sends a request; `body` is written in one piece, or as chunks (chunked encoding) when an array. */
export function send(
  port: number,
  options: { method?: string; path: string; headers?: http.OutgoingHttpHeaders; body?: string | Buffer | Buffer[] },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const target = { method: options.method ?? "GET", path: options.path, headers: options.headers };
    const sent = request(port, target, resolve, reject);
    if (Array.isArray(options.body)) for (const chunk of options.body) sent.write(chunk);
    else if (options.body !== undefined) sent.write(options.body);
    sent.end();
  });
}

/**
 * Declares a large body, sends only `sent` bytes of it and resolves with the answer as soon as it comes
 * (the rest is never sent): shows that the server answered without waiting for the body.
 */
export function sendPartial(
  port: number,
  options: { method?: string; path: string; declared: number; sent: number },
): Promise<RawResponse & { closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const headers = { "content-length": options.declared, "content-type": "application/octet-stream" };
    const target = { method: options.method ?? "POST", path: options.path, headers };
    // The server may close the socket before the body is all sent: that is what this request is for.
    const sent = request(
      port,
      target,
      (answer) => resolve({ ...answer, closed }),
      (error) => {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== "ECONNRESET" && code !== "EPIPE") reject(error);
      },
    );
    const closed = new Promise<void>((done) => sent.once("socket", (socket) => socket.once("close", () => done())));
    sent.write(Buffer.alloc(options.sent, 97));
  });
}
