/** A request body as far as the platform read it. */
export interface ReadBody {
  /** The bytes read; null when the request has no body stream. At most `limit` bytes. */
  readonly bytes: Uint8Array | null;
  /** True when the body went on past `limit` and reading stopped there (the rest was never read). */
  readonly truncated: boolean;
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * Reads a WHATWG body stream up to `limit` bytes and no further: a body longer than that is cut at `limit`,
 * the stream is cancelled and `truncated` says so. Never buffers more than `limit` bytes.
 */
export async function readBodyUpTo(body: ReadableStream<Uint8Array> | null, limit: number): Promise<ReadBody> {
  if (body === null) return { bytes: null, truncated: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = limit - total;
      if (value.byteLength > room) {
        if (room > 0) chunks.push(value.subarray(0, room));
        total += room;
        truncated = true;
        break;
      }
      chunks.push(value);
      total += value.byteLength;
    }
  } finally {
    if (truncated) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  return { bytes: concat(chunks, total), truncated };
}
