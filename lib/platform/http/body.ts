/*
 * Reads the raw request body once, as bytes, never more than the limit plus one chunk: a declared
 * Content-Length over the limit is refused before reading, and any body (chunked or lying about its
 * length) is read through a capped stream, so an oversized upload cannot make the server buffer it
 * whole. Reading the stream directly also costs less than request.arrayBuffer() on the hot path.
 */

export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; bytes: Uint8Array; size: number };

const EMPTY = new Uint8Array(0);

export async function readBody(request: Request, limit: number): Promise<BodyRead> {
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) {
    return { ok: false, bytes: EMPTY, size: Number(declared) };
  }
  if (!request.body) return { ok: true, bytes: EMPTY };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return { ok: false, bytes: concat(chunks, size), size };
    }
  }
  return { ok: true, bytes: concat(chunks, size) };
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
