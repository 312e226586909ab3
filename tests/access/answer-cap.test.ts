import { describe, expect, test } from 'vitest';
import { answerCapAnswer, holdAnswerToCap } from '../../src/access/endpoint-answer-cap.js';
import { ENDPOINT_ERRORS } from '../../src/spec/endpoint-errors.js';

const CAP = 10;
const stream = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });

/** 7.2 RESPONSE_SIZE_CAP_EXCEEDED: the reference holds a handler's answer to the cap before it goes out. */
describe('holding an answer to the cap', () => {
  test('an answer whose Content-Length is over the cap is refused unread', async () => {
    let pulled = false;
    const body = new ReadableStream<Uint8Array>({ pull: () => void (pulled = true) });
    expect(await holdAnswerToCap(new Response(body, { headers: { 'content-length': '11' } }), CAP)).toEqual({ over: true });
    expect(pulled, 'no byte read').toBe(false);
  });

  test('an answer of exactly the cap, with or without a length, goes out whole', async () => {
    for (const response of [new Response('0123456789', { headers: { 'content-length': '10' } }), new Response(stream('01234', '56789'))]) {
      const held = await holdAnswerToCap(response, CAP);
      expect('fits' in held && (await held.fits.text())).toBe('0123456789');
    }
  });

  test('a body of unknown length that passes the cap is refused', async () => {
    expect(await holdAnswerToCap(new Response(stream('01234', '567890')), CAP)).toEqual({ over: true });
  });

  test('an event stream is cut at the cap and ended with a frame naming the code', async () => {
    const held = await holdAnswerToCap(new Response(stream('data: 1\n\n', 'data: 22\n\n'), { headers: { 'content-type': 'text/event-stream' } }), CAP);
    const text = 'fits' in held ? await held.fits.text() : '';
    expect(text.startsWith('data: 1\n\n'), 'what fits went out').toBe(true);
    expect(text).toContain(ENDPOINT_ERRORS.responseSizeCapExceeded.code);
    expect(text).not.toContain('22');
  });

  test('the refusal is the mirror of the 413: error.code and error.detail', () => {
    expect(answerCapAnswer(CAP).body).toMatchObject({ error: { code: ENDPOINT_ERRORS.responseSizeCapExceeded.code, detail: expect.any(String) } });
  });
});
