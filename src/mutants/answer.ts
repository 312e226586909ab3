import { HEADERS } from '../spec/headers.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import type { AnswerFault, FaultRequest } from './types.js';

/** An answer opened for rewriting: status, headers and body bytes, all changeable. */
export interface OpenAnswer {
  status: number;
  readonly headers: Headers;
  bytes: Uint8Array;
}

const NULL_BODY = new Set([101, 204, 205, 304]);
const decoder = new TextDecoder();
const encoder = new TextEncoder();

async function openAnswer(response: Response): Promise<OpenAnswer> {
  return { status: response.status, headers: new Headers(response.headers), bytes: new Uint8Array(await response.arrayBuffer()) };
}

function closeAnswer(answer: OpenAnswer): Response {
  const body = NULL_BODY.has(answer.status) ? null : answer.bytes;
  if (body) answer.headers.set(HEADERS.contentLength, String(body.byteLength));
  else answer.headers.delete(HEADERS.contentLength);
  return new Response(body, { status: answer.status, headers: answer.headers });
}

export function textOf(answer: OpenAnswer): string {
  return decoder.decode(answer.bytes);
}

export function setText(answer: OpenAnswer, text: string): void {
  answer.bytes = encoder.encode(text);
}

/** The JSON object body, or undefined. */
export function jsonOf(answer: OpenAnswer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(textOf(answer));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function setJson(answer: OpenAnswer, value: unknown): void {
  setText(answer, JSON.stringify(value));
}

/** The request's path (no query). */
export function pathOf(request: FaultRequest): string {
  return new URL(request.url).pathname;
}

/**
 * A fault that rewrites the answers `when` selects: `change` edits the opened answer in place. Answers it does not
 * select pass through untouched.
 */
export function rewrite(
  when: (answer: OpenAnswer, request: FaultRequest) => boolean,
  change: (answer: OpenAnswer, request: FaultRequest) => void,
): AnswerFault {
  return async (request, response) => {
    const answer = await openAnswer(response);
    if (when(answer, request)) change(answer, request);
    return closeAnswer(answer);
  };
}

/** A JSON answer of this status and body, as a deployment's fault would write it. */
export function jsonAnswer(answer: OpenAnswer, status: number, body: unknown): void {
  answer.status = status;
  for (const name of [...answer.headers.keys()]) answer.headers.delete(name);
  answer.headers.set(HEADERS.contentType, MEDIA_TYPES.json);
  setJson(answer, body);
}
