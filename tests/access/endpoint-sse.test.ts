import { describe, expect, it } from 'vitest';
import { parseSseFrames, sseFrame, sseHeaders, sseStream, SSE_DONE_FRAME } from '../../src/access/endpoint-sse.js';
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
});
