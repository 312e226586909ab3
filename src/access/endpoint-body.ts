import { bodyCapAnswer, type EndpointAnswer } from './endpoint-answers.js';

export type CappedBody = { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly answer: EndpointAnswer };

/** A Content-Length over the cap is refused before a byte of the body is read (7.2 413). */
export function decideDeclaredLength(contentLength: string | null | undefined, cap: number): EndpointAnswer | null {
  const value = contentLength?.trim();
  if (value === undefined || !/^\d+$/.test(value)) return null;
  return Number(value) > cap ? bodyCapAnswer(cap) : null;
}

/**
 * Reads a body stream counting as it goes, never holding more than `cap` bytes: the chunk that crosses the cap
 * is dropped, the stream is cancelled (the rest stays unread) and the answer is 413 REQUEST_BODY_CAP_EXCEEDED.
 */
export async function readCappedBody(body: ReadableStream<Uint8Array> | null, cap: number): Promise<CappedBody> {
  if (body === null) return { ok: true, bytes: new Uint8Array(0) };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let over = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > cap) {
        over = true;
        break;
      }
      chunks.push(value);
    }
  } finally {
    if (over) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  if (over) return { ok: false, answer: bodyCapAnswer(cap) };
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}
