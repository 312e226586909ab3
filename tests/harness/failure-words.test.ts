import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/harness/exchange.js';
import { failureWords } from '../../src/harness/failure-words.js';

const exchange = (method: string, url: string, status: number | null, note?: string): Exchange =>
  ({
    request: { method, url, headers: [] },
    response: status === null ? null : { status, headers: [] },
    ...(note ? { note } : {}),
  }) as unknown as Exchange;

describe("a failed check's message", () => {
  it('names the last request and says the raw assertion in words', () => {
    expect(failureWords('expected 404 to be 200 // Object.is equality', [exchange('GET', 'http://127.0.0.1:8787/agents/a/health', 404)])).toBe(
      'GET http://127.0.0.1:8787/agents/a/health answered 404: expected 200, got 404',
    );
  });

  it('keeps a message that names the request already, and the lines after the first', () => {
    expect(failureWords('POST /api/x answered 500\nmore', [exchange('POST', 'http://h/api/x', 500)])).toBe('POST /api/x answered 500\nmore');
  });

  it('says when no answer came, and leaves a message without exchanges as it was, in words', () => {
    expect(failureWords('boom', [exchange('GET', 'http://h/y', null, 'timed out')])).toBe('GET http://h/y got no answer (timed out): boom');
    expect(failureWords('expected 1 to deeply equal 2', [])).toBe('expected 2, got 1');
  });
});
