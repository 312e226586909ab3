import { sseHeaders, sseStream } from '../../access/endpoint-sse.js';
import { readCappedBody } from '../../access/endpoint-body.js';
import { decideContentType } from '../../access/endpoint-content-type.js';
import { bodyCapOf } from '../../access/endpoint-declaration.js';
import { ENDPOINT_OWN_CODES } from '../../spec/agent-endpoints.js';
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
export async function chatCompletionsResponse(request: Request, name: string, now: () => number): Promise<Response> {
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
    return new Response(sseStream(chunks, { done: true }), { status: 200, headers: sseHeaders() });
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
