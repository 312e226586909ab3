import { ENDPOINT_ERRORS } from '../spec/endpoint-errors.js';
import { HEADERS } from '../spec/headers.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import type { EndpointAnswer } from './endpoint-answers.js';
import { mediaTypeEssence } from './endpoint-content-type.js';

/** 2.6 and 7.2: the answer-size cap error carries `detail`, as its mirror the request-body cap error does. */
interface AnswerCapErrorBody {
  readonly error: { readonly code: string; readonly detail: string };
}

/**
 * 7.2 RESPONSE_SIZE_CAP_EXCEEDED, "The agent's answer is too large (mirror of the request cap)". The spec gives it no
 * status; the reference answers 502 (the handler produced an answer the server will not deliver) with
 * `{ error: { code, detail } }` as the 413 of the request cap does (READING-RESPONSE-SIZE-CAP).
 */
export function answerCapAnswer(cap: number): EndpointAnswer {
  return {
    status: 502,
    headers: {},
    body: {
      error: {
        code: ENDPOINT_ERRORS.responseSizeCapExceeded.code!,
        detail: `The agent's answer is larger than an endpoint may answer (${cap} bytes), the mirror of the request cap; it was not delivered.`,
      },
    } satisfies AnswerCapErrorBody,
  };
}

/** The SSE frame that ends a stream cut at the cap: the code said in band, since the stream's 200 has already gone out. */
function capFrame(cap: number): Uint8Array {
  const { error } = answerCapAnswer(cap).body as AnswerCapErrorBody;
  return new TextEncoder().encode(`data: ${JSON.stringify({ error })}\n\n`);
}

/**
 * Holds a handler's answer to the cap (the mirror of the 50 MiB request cap, section 8): null when it fits, as it
 * stands or re-made from the bytes read; `over` when it does not. A Content-Length over the cap is refused unread.
 * An event stream has already begun when it passes the cap: it is cut there and ended with a frame naming the code.
 * Any other body of unknown length is read up to the cap before a byte is sent.
 */
export async function holdAnswerToCap(response: Response, cap: number): Promise<{ readonly fits: Response } | { readonly over: true }> {
  const body = response.body;
  if (body === null) return { fits: response };
  const declared = response.headers.get(HEADERS.contentLength)?.trim();
  if (declared !== undefined && /^\d+$/.test(declared)) {
    if (Number(declared) <= cap) return { fits: response };
    await body.cancel().catch(() => undefined);
    return { over: true };
  }
  if (mediaTypeEssence(response.headers.get(HEADERS.contentType) ?? '') === MEDIA_TYPES.eventStream) {
    return { fits: new Response(body.pipeThrough(cutAtCap(cap)), { status: response.status, headers: response.headers }) };
  }
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => undefined);
      return { over: true };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { fits: new Response(bytes, { status: response.status, headers: response.headers }) };
}

/** Passes at most `cap` bytes of an event stream, then the frame naming the code, and ends it. */
function cutAtCap(cap: number): TransformStream<Uint8Array, Uint8Array> {
  let sent = 0;
  let cut = false;
  return new TransformStream({
    transform(chunk, controller) {
      if (cut) return;
      if (sent + chunk.byteLength <= cap) {
        sent += chunk.byteLength;
        controller.enqueue(chunk);
        return;
      }
      cut = true;
      controller.enqueue(capFrame(cap));
      controller.terminate();
    },
  });
}
