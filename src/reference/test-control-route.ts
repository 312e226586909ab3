import { readControlRequest } from '../contract/test-control.js';
import { isLoopbackAddress } from '../net/index.js';
import type { PurchaseStores, ReferencePurchases } from './purchases.js';
import type { ReferenceTestControl } from './test-control.js';

/** A control request is a small JSON object: more than this is refused unread. */
const MAX_CONTROL_BODY = 4096;

function json(status: number, body: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}

/**
 * `POST /_reference/test-control` under `serve --test-control` (docs/contracts.md section 5): from a loopback peer
 * only, puts the deployment into the named state. It answers nothing a check judges: 204, or why not.
 */
export async function answerTestControl(
  request: Request,
  peer: string,
  control: ReferenceTestControl,
  purchases: ReferencePurchases<PurchaseStores> | undefined,
): Promise<Response> {
  if (!isLoopbackAddress(peer)) return json(403, { error: 'forbidden', error_description: 'The test control answers loopback peers only.' });
  if (request.method !== 'POST') return json(405, { error: 'method_not_allowed', error_description: 'The test control takes POST.' });
  const length = Number(request.headers.get('content-length') ?? 0);
  if (length > MAX_CONTROL_BODY) return json(400, { error: 'bad_request', error_description: `The body passes ${MAX_CONTROL_BODY} bytes.` });
  let body: unknown;
  try {
    const text = await request.text();
    if (text.length > MAX_CONTROL_BODY) return json(400, { error: 'bad_request', error_description: `The body passes ${MAX_CONTROL_BODY} bytes.` });
    body = JSON.parse(text);
  } catch {
    return json(400, { error: 'bad_request', error_description: 'The body is not JSON.' });
  }
  const read = readControlRequest(body);
  if ('problem' in read) return json(read.unknown ? 404 : 400, { error: read.unknown ? 'unknown_state' : 'bad_request', error_description: read.problem });
  try {
    await control.apply(read, purchases);
  } catch (error) {
    return json(409, { error: 'state_unavailable', error_description: error instanceof Error ? error.message : String(error) });
  }
  return new Response(null, { status: 204 });
}
