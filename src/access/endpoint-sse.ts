import { SSE } from '../spec/agent-endpoints.js';
import { HEADERS } from '../spec/headers.js';
import { MEDIA_TYPES } from '../spec/media-types.js';

/** 4.1: the three headers of an SSE response. */
export function sseHeaders(): Record<string, string> {
  return { [HEADERS.contentType]: MEDIA_TYPES.eventStream, [HEADERS.cacheControl]: SSE.cacheControl, [HEADERS.connection]: SSE.connection };
}

/** One data frame: `data: <json>` and a blank line. */
export function sseFrame(value: unknown): string {
  return `${SSE.dataPrefix}${JSON.stringify(value)}${SSE.frameEnd}`;
}

/** The frame that may end a stream: `data: [DONE]` and a blank line. */
export const SSE_DONE_FRAME = `${SSE.dataPrefix}${SSE.done}${SSE.frameEnd}`;

/** An async iterable of JSON values as an SSE byte stream; `done` appends `data: [DONE]`. */
export function sseStream(values: AsyncIterable<unknown> | Iterable<unknown>, options: { readonly done?: boolean } = {}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = (Symbol.asyncIterator in values ? values[Symbol.asyncIterator]() : (values as Iterable<unknown>)[Symbol.iterator]()) as
    | AsyncIterator<unknown>
    | Iterator<unknown>;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) {
        if (options.done) controller.enqueue(encoder.encode(SSE_DONE_FRAME));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(sseFrame(next.value)));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/** One frame of a received stream: its data (JSON parsed, or the [DONE] marker), or the problem with it. */
export type ParsedSseFrame =
  | { readonly kind: 'data'; readonly value: unknown }
  | { readonly kind: 'done' }
  | { readonly kind: 'invalid'; readonly text: string; readonly problem: string };

/**
 * Reads an SSE body the strict way 4.1 frames it: blocks separated by a blank line, each exactly one line
 * `data: <json>` or `data: [DONE]`. Anything else is reported, never skipped, so a check can name it.
 */
export function parseSseFrames(text: string): { readonly frames: readonly ParsedSseFrame[]; readonly trailing: string } {
  const blocks = text.split(SSE.frameEnd);
  const trailing = blocks.pop() ?? '';
  const frames = blocks.map((block): ParsedSseFrame => {
    if (!block.startsWith(SSE.dataPrefix) || block.includes('\n'))
      return { kind: 'invalid', text: block, problem: `is not one line of the form "${SSE.dataPrefix}<json>"` };
    const data = block.slice(SSE.dataPrefix.length);
    if (data === SSE.done) return { kind: 'done' };
    try {
      return { kind: 'data', value: JSON.parse(data) };
    } catch {
      return { kind: 'invalid', text: block, problem: 'carries data that is not JSON' };
    }
  });
  return { frames, trailing };
}
