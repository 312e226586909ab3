import { request, type Dispatcher } from 'undici';
import type { CaseDocuments } from '../cases/types.js';
import { HEADERS } from '../spec/headers.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import type { SpendAnswer } from './spend-ledger.js';

/** How a live target reaches the run's fixture host: where the deployment reads it, and its publishing endpoint. */
export interface FixtureAccess {
  /** Where the deployment reaches the fixture host. */
  readonly url: string;
  /** Where documents are published (POST with the token), on this machine. */
  readonly adminUrl: string;
  readonly token: string;
}

/** Publishes documents (keyed by absolute URL on the fixture host) for the deployment to read. */
export async function publishOnFixtureHost(fixture: FixtureAccess, documents: CaseDocuments, dispatcher?: Dispatcher): Promise<void> {
  const answer = await request(fixture.adminUrl, {
    method: 'POST',
    headers: { [HEADERS.authorization]: `Bearer ${fixture.token}`, [HEADERS.contentType]: MEDIA_TYPES.json },
    body: JSON.stringify(documents),
    ...(dispatcher ? { dispatcher } : {}),
  });
  await answer.body.dump();
  if (answer.statusCode !== 204) throw new Error(`the fixture host refused the documents (${answer.statusCode})`);
}

/** POSTs a JSON message to one of the fixture host's endpoints beside the publishing one; its JSON answer and status. */
async function askFixtureHost(fixture: FixtureAccess, endpoint: 'origin' | 'pace' | 'spend', message: unknown, dispatcher?: Dispatcher) {
  const answer = await request(new URL(endpoint, fixture.adminUrl), {
    method: 'POST',
    headers: { [HEADERS.authorization]: `Bearer ${fixture.token}`, [HEADERS.contentType]: MEDIA_TYPES.json },
    body: JSON.stringify(message ?? null),
    ...(dispatcher ? { dispatcher } : {}),
  });
  const text = await answer.body.text();
  if (answer.statusCode !== 200 && answer.statusCode !== 409)
    throw new Error(`the fixture host answered ${answer.statusCode} at ${endpoint}: ${text.slice(0, 200)}`);
  return { status: answer.statusCode, body: JSON.parse(text) as Record<string, unknown> };
}

/** An origin of its own on the fixture host (another port), or why there is none. */
export async function originOnFixtureHost(fixture: FixtureAccess, dispatcher?: Dispatcher): Promise<{ readonly url: string } | { readonly reason: string }> {
  const { status, body } = await askFixtureHost(fixture, 'origin', null, dispatcher);
  return status === 200 && typeof body.url === 'string' ? { url: body.url } : { reason: String(body.reason ?? 'the fixture host gave no origin') };
}

/** A message to the run's failure pacer (src/harness/failure-budget.ts), which lives beside the fixture host. */
export async function askPacer(fixture: FixtureAccess, message: unknown, dispatcher?: Dispatcher): Promise<Record<string, unknown>> {
  return (await askFixtureHost(fixture, 'pace', message, dispatcher)).body;
}

/** Asks the run's spending allowance (src/harness/spend-ledger.ts), beside the fixture host, for `amount` minor units. */
export async function askSpendLedger(fixture: FixtureAccess, amount: number, dispatcher?: Dispatcher): Promise<SpendAnswer> {
  const { body } = await askFixtureHost(fixture, 'spend', { amount }, dispatcher);
  return {
    granted: body.granted === true,
    spentMinorUnits: typeof body.spentMinorUnits === 'number' ? body.spentMinorUnits : 0,
    capMinorUnits: typeof body.capMinorUnits === 'number' ? body.capMinorUnits : 0,
  };
}
