import { expect } from 'vitest';
import { parseSseFrames } from '../../src/access/endpoint-sse.js';
import { HEADERS, MEDIA_TYPES, SSE } from '../../src/spec/index.js';

/** 4.1 framing of a whole SSE body: every block one data line, and nothing after the last blank line. */
export function expectSseFraming(body: string): unknown[] {
  const { frames, trailing } = parseSseFrames(body);
  const invalid = frames.flatMap((f, i) => (f.kind === 'invalid' ? [`frame ${i + 1} ${JSON.stringify(f.text.slice(0, 80))} ${f.problem}`] : []));
  expect(invalid, 'every frame is data: <json> followed by a blank line').toEqual([]);
  expect(trailing, 'the stream ends with a blank line').toBe('');
  const doneAt = frames.findIndex((f) => f.kind === 'done');
  if (doneAt >= 0) expect(doneAt, 'data: [DONE] is the last frame').toBe(frames.length - 1);
  return frames.flatMap((f) => (f.kind === 'data' ? [f.value] : []));
}

export function expectSseHeaders(headers: Readonly<Record<string, string>>): void {
  expect((headers[HEADERS.contentType] ?? '').split(';')[0]!.trim().toLowerCase(), 'Content-Type').toBe(MEDIA_TYPES.eventStream);
  expect((headers[HEADERS.cacheControl] ?? '').toLowerCase(), 'Cache-Control').toContain(SSE.cacheControl);
  // HTTP/2 forbids Connection; an agent behind an HTTP/2 front may lose it on the way, which the check then names.
  expect((headers[HEADERS.connection] ?? '').toLowerCase(), 'Connection').toBe(SSE.connection);
}
