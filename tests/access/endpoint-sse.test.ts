import { describe, expect, it } from 'vitest';
import { parseSseFrames, readEventStream, sseFrame, sseHeaders, sseStream, SSE_DONE_FRAME } from '../../src/access/endpoint-sse.js';
import { HEADERS, MEDIA_TYPES, SSE } from '../../src/spec/index.js';

describe('SSE framing (4.1)', () => {
  it('sets the three headers', () => {
    expect(sseHeaders()).toEqual({
      [HEADERS.contentType]: MEDIA_TYPES.eventStream,
      [HEADERS.cacheControl]: SSE.cacheControl,
      [HEADERS.connection]: SSE.connection,
    });
  });

  it('frames each value as data: <json> and a blank line, ending with data: [DONE]', async () => {
    async function* values() {
      yield { a: 1 };
      yield 'two';
    }
    const text = await new Response(sseStream(values(), { done: true })).text();
    expect(text).toBe('data: {"a":1}\n\ndata: "two"\n\ndata: [DONE]\n\n');
    expect(sseFrame([1])).toBe('data: [1]\n\n');
    expect(SSE_DONE_FRAME).toBe('data: [DONE]\n\n');
  });

  it('parses frames strictly and names what is wrong', () => {
    const parsed = parseSseFrames('data: {"a":1}\n\nevent: x\ndata: 1\n\ndata: nope\n\ndata: [DONE]\n\npartial');
    expect(parsed.frames.map((f) => f.kind)).toEqual(['data', 'invalid', 'invalid', 'done']);
    expect(parsed.trailing).toBe('partial');
  });

  it('writes CRLF or CR line ends, comment lines, and data: without its space when told so', async () => {
    const text = await new Response(sseStream([{ a: 1 }], { done: true, framing: { lineEnd: '\r\n', comment: ' hi' } })).text();
    expect(text).toBe(': hi\r\ndata: {"a":1}\r\n\r\n: hi\r\ndata: [DONE]\r\n\r\n');
    expect(sseFrame(1, { lineEnd: '\r', space: false })).toBe('data:1\r\r');
  });
});

describe('reading an event stream as a conforming parser does (READING-SSE-FRAMING)', () => {
  it('reads LF, CRLF and CR streams, comments, other fields and data: without a space alike', () => {
    const expected = { values: [{ a: 1 }, 2], done: true, problems: [] };
    expect(readEventStream('data: {"a":1}\n\ndata: 2\n\ndata: [DONE]\n\n')).toEqual(expected);
    expect(readEventStream(': open\r\ndata:{"a":1}\r\n\r\nevent: tick\r\nid: 7\r\ndata: 2\r\n\r\ndata: [DONE]\r\n\r\n')).toEqual(expected);
    expect(readEventStream('data: {"a":1}\r\rdata: 2\r\r:\rdata: [DONE]\r\r')).toEqual(expected);
    expect(readEventStream('\ufeffdata: {"a":\ndata: 1}\n\n')).toEqual({ values: [{ a: 1 }], done: false, problems: [] });
  });

  it('names what 4.1 does not allow: data that is not JSON, frames after [DONE], a stream that ends inside an event', () => {
    expect(readEventStream('data: nope\n\n').problems).toEqual(['event 1 carries data that is not JSON: "nope"']);
    expect(readEventStream('data: [DONE]\n\ndata: 1\n\n').problems).toEqual(['event 2 "1" comes after data: [DONE]']);
    expect(readEventStream('data: 1\ndata: 2\n').problems).toEqual(['the stream ends inside an event: its last data line is not followed by a blank line']);
    expect(readEventStream('data: 1\n\ndata: 2').problems).toHaveLength(1);
    expect(readEventStream('data: 1\r').problems).toHaveLength(1);
  });
});
