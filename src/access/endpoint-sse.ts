import { createParser } from 'eventsource-parser';
import { SSE } from '../spec/agent-endpoints.js';
import { HEADERS } from '../spec/headers.js';
import { MEDIA_TYPES } from '../spec/media-types.js';

/** 4.1: the three headers of an SSE response. */
export function sseHeaders(): Record<string, string> {
  return { [HEADERS.contentType]: MEDIA_TYPES.eventStream, [HEADERS.cacheControl]: SSE.cacheControl, [HEADERS.connection]: SSE.connection };
}

/**
 * How a stream is written. 4.1 shows `data: <json>` and a blank line, with LF; the event-stream format also allows CRLF
 * and CR line ends, comment lines (`:` first) and no space after `data:` (READING-SSE-FRAMING), which a writer may use.
 */
export interface SseFraming {
  readonly lineEnd?: '\n' | '\r\n' | '\r';
  /** A comment line written before every frame (without its leading colon). */
  readonly comment?: string;
  /** Whether `data:` is followed by a space; true by default. */
  readonly space?: boolean;
}

function frameOf(data: string, framing: SseFraming = {}): string {
  const end = framing.lineEnd ?? '\n';
  const comment = framing.comment === undefined ? '' : `:${framing.comment}${end}`;
  const prefix = framing.space === false ? SSE.dataPrefix.trimEnd() : SSE.dataPrefix;
  return `${comment}${prefix}${data}${end}${end}`;
}

/** One data frame: `data: <json>` and a blank line. */
export function sseFrame(value: unknown, framing?: SseFraming): string {
  return framing ? frameOf(JSON.stringify(value), framing) : `${SSE.dataPrefix}${JSON.stringify(value)}${SSE.frameEnd}`;
}

/** The frame that may end a stream: `data: [DONE]` and a blank line. */
export const SSE_DONE_FRAME = `${SSE.dataPrefix}${SSE.done}${SSE.frameEnd}`;

/** An async iterable of JSON values as an SSE byte stream; `done` appends `data: [DONE]`; `framing` how it is written (LF, no comments by default). */
export function sseStream(
  values: AsyncIterable<unknown> | Iterable<unknown>,
  options: { readonly done?: boolean; readonly framing?: SseFraming } = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = (Symbol.asyncIterator in values ? values[Symbol.asyncIterator]() : (values as Iterable<unknown>)[Symbol.iterator]()) as
    | AsyncIterator<unknown>
    | Iterator<unknown>;
  const done = options.framing ? frameOf(SSE.done, options.framing) : SSE_DONE_FRAME;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) {
        if (options.done) controller.enqueue(encoder.encode(done));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(sseFrame(next.value, options.framing)));
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

/** A received event stream as a conforming parser reads it: the data of each event, and what keeps it from 4.1's framing. */
export interface ReadEventStream {
  /** Each event's data, JSON parsed; the [DONE] marker is not among them. */
  readonly values: readonly unknown[];
  /** Whether the stream ended with data: [DONE]. */
  readonly done: boolean;
  /** What is wrong, one sentence each; empty when the stream is what 4.1 asks. */
  readonly problems: readonly string[];
}

function eventsOf(text: string): { data: string; event?: string | undefined }[] {
  const events: { data: string; event?: string | undefined }[] = [];
  const parser = createParser({ onEvent: (e) => events.push({ data: e.data, event: e.event }) });
  parser.feed(text);
  return events;
}

/**
 * Reads an SSE body with a real event-stream parser (WHATWG HTML, server-sent events; eventsource-parser): lines end in
 * CRLF, LF or CR, comment lines and fields other than data are skipped, one space after `data:` is optional
 * (READING-SSE-FRAMING). 4.1 then asks that every event hold JSON, that data: [DONE] come last if it comes, and that
 * the last event be followed by a blank line (a conforming client drops an event the stream ends inside).
 */
export function readEventStream(text: string): ReadEventStream {
  // The stream is decoded as UTF-8 with its BOM dropped (WHATWG); a CR at the very end is a complete line end at the
  // end of the stream, where the parser would wait to see whether LF follows.
  const decoded = text.startsWith('\ufeff') ? text.slice(1) : text;
  const whole = decoded.endsWith('\r') ? `${decoded}\n` : decoded;
  const events = eventsOf(whole);
  const problems: string[] = [];
  if (eventsOf(`${whole}\n\n`).length > events.length) problems.push('the stream ends inside an event: its last data line is not followed by a blank line');
  const values: unknown[] = [];
  let done = false;
  events.forEach((event, i) => {
    if (done) problems.push(`event ${i + 1} ${JSON.stringify(event.data.slice(0, 80))} comes after data: ${SSE.done}`);
    if (event.data === SSE.done) {
      done = true;
      return;
    }
    try {
      values.push(JSON.parse(event.data));
    } catch {
      problems.push(`event ${i + 1} carries data that is not JSON: ${JSON.stringify(event.data.slice(0, 80))}`);
    }
  });
  return { values, done, problems };
}
