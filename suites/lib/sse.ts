import { expect } from 'vitest';
import { readEventStream } from '../../src/access/endpoint-sse.js';
import { HEADERS, MEDIA_TYPES, SSE } from '../../src/spec/index.js';

/**
 * 4.1 framing of a whole SSE body, read by a real event-stream parser (READING-SSE-FRAMING: CRLF, LF or CR line
 * ends, comment lines, one space or none after `data:`): every event holds JSON, data: [DONE] comes last if it
 * comes, and the last event is followed by a blank line. The JSON values, in order.
 */
export function expectSseFraming(body: string): unknown[] {
  const { values, problems } = readEventStream(body);
  expect(problems, `every event is data: <json> followed by a blank line, data: ${SSE.done} last`).toEqual([]);
  return [...values];
}

export function expectSseHeaders(headers: Readonly<Record<string, string>>): void {
  expect((headers[HEADERS.contentType] ?? '').split(';')[0]!.trim().toLowerCase(), 'Content-Type').toBe(MEDIA_TYPES.eventStream);
  expect((headers[HEADERS.cacheControl] ?? '').toLowerCase(), 'Cache-Control').toContain(SSE.cacheControl);
  // HTTP/2 forbids Connection; an agent behind an HTTP/2 front may lose it on the way, which the check then names.
  const connection = (headers[HEADERS.connection] ?? '')
    .toLowerCase()
    .split(',')
    .map((t) => t.trim());
  expect(connection, 'Connection').toContain(SSE.connection);
}
