import { randomUUID } from 'node:crypto';
import { sseHeaders, sseStream, type SseFraming } from '../../access/endpoint-sse.js';
import { readCappedBody } from '../../access/endpoint-body.js';
import { decideContentType } from '../../access/endpoint-content-type.js';
import { bodyCapOf } from '../../access/endpoint-declaration.js';
import { A2A, ENDPOINT_OWN_CODES } from '../../spec/agent-endpoints.js';
import { HEADERS } from '../../spec/headers.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import { renderAnswer } from '../render.js';

/** 4.2 GET /v1/models: the agent is its one model (OpenAI list shape). */
export function modelsResponse(name: string): Response {
  return renderAnswer({ status: 200, body: { object: 'list', data: [{ id: name, object: 'model', owned_by: name }] } });
}

interface ChatMessage {
  readonly role?: unknown;
  readonly content?: unknown;
}

/** The reference agent's whole intelligence: it repeats the last user message. */
function replyTo(messages: readonly ChatMessage[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  return typeof last?.content === 'string' ? `You said: ${last.content}` : 'Hello.';
}

function words(text: string): string[] {
  return text.split(/(?<= )/);
}

/**
 * 4.2 POST /v1/chat/completions (OpenAI shape). With "stream": true it answers server-sent events framed as 4.1
 * says: one chunk per word, a final chunk with finish_reason "stop", then data: [DONE].
 */
export async function chatCompletionsResponse(request: Request, name: string, now: () => number, framing?: SseFraming): Promise<Response> {
  const badType = decideContentType({}, request.method, request.headers.get(HEADERS.contentType), request.body !== null);
  if (badType) return renderAnswer(badType);
  const read = await readCappedBody(request.body, bodyCapOf({}));
  if (!read.ok) return renderAnswer(read.answer);
  let input: { messages?: unknown; stream?: unknown };
  try {
    input = JSON.parse(new TextDecoder().decode(read.bytes)) as typeof input;
  } catch {
    return renderAnswer({ status: 400, body: { error: { code: ENDPOINT_OWN_CODES.badRequest, message: 'The body is not JSON.' } } });
  }
  const messages = Array.isArray(input?.messages) ? (input.messages as ChatMessage[]) : [];
  const text = replyTo(messages);
  const id = `chatcmpl-${now()}`;
  const created = now();
  if (input.stream === true) {
    const chunks = [
      ...words(text).map((w) => ({
        id,
        object: 'chat.completion.chunk',
        created,
        model: name,
        choices: [{ index: 0, delta: { content: w }, finish_reason: null }],
      })),
      { id, object: 'chat.completion.chunk', created, model: name, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    ];
    return new Response(sseStream(chunks, { done: true, ...(framing ? { framing } : {}) }), { status: 200, headers: sseHeaders() });
  }
  return renderAnswer({
    status: 200,
    headers: { [HEADERS.contentType]: MEDIA_TYPES.json },
    body: {
      id,
      object: 'chat.completion',
      created,
      model: name,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    },
  });
}

/** The A2A generations the reference serves by default: 0.3 (message/send) and 1.0 (SendMessage). */
export const DEFAULT_A2A_METHODS: readonly string[] = Object.freeze([A2A.sendMethods.v03, A2A.sendMethods.v1]);

type JsonRpcId = string | number | null;

function rpc(id: JsonRpcId, member: { result: unknown } | { error: { code: number; message: string } }): Response {
  return renderAnswer({ status: 200, headers: { [HEADERS.contentType]: MEDIA_TYPES.json }, body: { jsonrpc: A2A.jsonrpc, id, ...member } });
}

/** The text parts of an A2A message of any generation (0.1 type, 0.3 kind, 1.0 a bare text member). */
function textOf(message: unknown): string {
  const parts = (message as { parts?: unknown } | null)?.parts;
  if (!Array.isArray(parts)) return '';
  return parts.flatMap((p: { text?: unknown }) => (typeof p?.text === 'string' ? [p.text] : [])).join(' ');
}

/**
 * 4.2 POST /a2a, the A2A protocol over JSON-RPC 2.0 (READING-A2A-GENERATION): a message sent with one of `methods`
 * is answered with a reply in that generation's shape (0.3 a Message of kind message; 1.0 { message } with
 * ROLE_AGENT; 0.1 a completed Task); any other method is -32601.
 */
export async function a2aResponse(request: Request, methods: readonly string[], now: () => number): Promise<Response> {
  const badType = decideContentType({}, request.method, request.headers.get(HEADERS.contentType), request.body !== null);
  if (badType) return renderAnswer(badType);
  const read = await readCappedBody(request.body, bodyCapOf({}));
  if (!read.ok) return renderAnswer(read.answer);
  let call: { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: { message?: unknown; id?: unknown } };
  try {
    call = JSON.parse(new TextDecoder().decode(read.bytes)) as typeof call;
  } catch {
    return rpc(null, { error: { code: -32700, message: 'Parse error: the body is not JSON.' } });
  }
  const id: JsonRpcId = typeof call?.id === 'string' || typeof call?.id === 'number' ? call.id : null;
  if (call?.jsonrpc !== A2A.jsonrpc || typeof call.method !== 'string') {
    return rpc(id, { error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 request.' } });
  }
  if (!methods.includes(call.method)) return rpc(id, { error: { code: A2A.methodNotFound, message: `Method not found: ${call.method}` } });
  const reply = `You said: ${textOf(call.params?.message)}`;
  const messageId = `msg-${now()}-${randomUUID()}`;
  switch (call.method) {
    case A2A.sendMethods.v1:
      return rpc(id, { result: { message: { messageId, role: 'ROLE_AGENT', parts: [{ text: reply }] } } });
    case A2A.sendMethods.v01:
      return rpc(id, {
        result: { id: String(call.params?.id ?? messageId), status: { state: 'completed' }, artifacts: [{ parts: [{ type: 'text', text: reply }] }] },
      });
    default:
      return rpc(id, { result: { kind: 'message', messageId, role: 'agent', parts: [{ kind: 'text', text: reply }] } });
  }
}
