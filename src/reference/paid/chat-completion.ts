import { createHash } from 'node:crypto';
import { isJsonObject, type JsonObject } from '../../purchase/index.js';

/**
 * The reference rail's chat completion: the OpenAI chat completions shape (4.2: "bodies follow their open
 * protocols"), answering with a deterministic echo of the last user message. Member names are the open
 * protocol's, not the spec's.
 */
export const CHAT = Object.freeze({
  object: 'chat.completion',
  idPrefix: 'chatcmpl-',
  finishStop: 'stop',
  assistant: 'assistant',
  user: 'user',
  echoPrefix: 'echo: ',
  defaultModel: 'reference-echo',
});

export interface ChatRequest {
  readonly model: string;
  /** The text of the last user message ('' when there is none). */
  readonly lastUserText: string;
}

export type ChatRequestRead = { readonly ok: true; readonly request: ChatRequest } | { readonly ok: false; readonly detail: string };

function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const parts = content.map((part: unknown) => (isJsonObject(part) && typeof part.text === 'string' ? part.text : null));
  return parts.every((p) => p !== null) ? parts.join('') : null;
}

/** Reads a chat completions request body: a JSON object whose `messages` is a non-empty array of `{role, content}`. */
export function readChatRequest(body: Uint8Array | null): ChatRequestRead {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body ?? new Uint8Array(0)));
  } catch {
    return { ok: false, detail: 'The body is not a JSON chat completions request.' };
  }
  if (!isJsonObject(value)) return { ok: false, detail: 'The body must be a JSON object.' };
  const messages = value.messages;
  if (!Array.isArray(messages) || messages.length === 0) return { ok: false, detail: '/messages must be a non-empty array.' };
  let lastUserText = '';
  for (const [index, message] of messages.entries()) {
    if (!isJsonObject(message) || typeof message.role !== 'string') return { ok: false, detail: `/messages/${index} must be an object with a string role.` };
    const text = textOf(message.content ?? '');
    if (text === null) return { ok: false, detail: `/messages/${index}/content must be a string or an array of text parts.` };
    if (message.role === CHAT.user) lastUserText = text;
  }
  const model = value.model;
  if (model !== undefined && typeof model !== 'string') return { ok: false, detail: '/model must be a string.' };
  return { ok: true, request: { model: model ?? CHAT.defaultModel, lastUserText } };
}

/** Counts words, the reference's stand-in for tokens. */
const words = (text: string): number => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length);

/** The completion: id derived from the request bytes, `created` from the platform clock. */
export function echoCompletion(request: ChatRequest, body: Uint8Array | null, created: number): JsonObject {
  const content = `${CHAT.echoPrefix}${request.lastUserText}`;
  const prompt = words(request.lastUserText);
  const completion = words(content);
  return {
    id: `${CHAT.idPrefix}${createHash('sha256')
      .update(body ?? new Uint8Array(0))
      .digest('hex')
      .slice(0, 24)}`,
    object: CHAT.object,
    created,
    model: request.model,
    choices: [{ index: 0, message: { role: CHAT.assistant, content }, finish_reason: CHAT.finishStop }],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}
