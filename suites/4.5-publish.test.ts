import { afterAll, beforeAll, describe, expect } from 'vitest';
import { suiteWidgetFiles } from '../src/harness/widget-bundle.js';
import { jsonBody, WidgetSession, type SentExchange } from '../src/harness/widget-session.js';
import { checkTimeout } from './lib/context.js';
import { REFERENCE_ONLY_ROUTES } from '../src/spec/publish.js';
import { REQUIREMENTS } from '../src/spec/requirements.js';
import { check, type CheckContext } from './lib/check.js';
import { suiteTarget } from './lib/target.js';

/**
 * Section 4.5 over HTTP: publish a folder, refuse a caller who does not own it, re-publish in place. The folder is
 * created with the reference's own upload (REFERENCE_ONLY_ROUTES, not part of the spec); a deployment without it
 * cannot be given a folder by the suite, so its checks are not run. Publish answers are not shown by the spec; a 2xx
 * with the post id is how the reference (and this suite) read a publish.
 */
const target = suiteTarget();
const session = new WidgetSession(target, 'widgets-4-5');
const TIMEOUT_MS = checkTimeout(60_000);
let folderId: string | undefined;
let unavailable: string | undefined;
let first: SentExchange | undefined;

beforeAll(async () => {
  await session.open();
  const upload = await session.uploadFolder('alice', suiteWidgetFiles('Conformance Publish Widget'));
  const id = (jsonBody(upload.response) as { folderId?: unknown } | undefined)?.folderId;
  if (upload.response.status === 201 && typeof id === 'string') folderId = id;
  else
    unavailable = `needs a folder: the deployment answered ${upload.response.status} to the reference-only upload ${REFERENCE_ONLY_ROUTES.folders}, and the spec gives no folder API the suite could use`;
}, TIMEOUT_MS);
afterAll(() => target.close());

function ready(c: CheckContext): string {
  if (!folderId) c.notRun(unavailable ?? 'needs a folder');
  return folderId;
}

function postIdOf(sent: SentExchange): string | undefined {
  const id = (jsonBody(sent.response) as { postId?: unknown } | undefined)?.postId;
  return typeof id === 'string' ? id : undefined;
}

async function publishOnce(c: CheckContext): Promise<SentExchange> {
  const folder = ready(c);
  first ??= await session.publish('alice', folder);
  c.record(first.exchange);
  return first;
}

describe(`4.5 publish pipeline (${target.description})`, () => {
  check({
    id: 'publish.owned-folder',
    title: 'publishes a folder its caller owns',
    requirements: [REQUIREMENTS.widgetPublishAccepted.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: async (c) => {
      // Published afresh (not the shared first publish): the answer seen is this deployment's answer now.
      const sent = await session.publish('alice', ready(c));
      c.record(sent.exchange);
      first ??= sent;
      expect(sent.response.status, 'status of the first publish').toBeGreaterThanOrEqual(200);
      expect(sent.response.status, 'status of the first publish').toBeLessThan(300);
      expect(postIdOf(sent), 'the post id in the answer').toEqual(expect.any(String));
    },
  });

  check({
    id: 'publish.not-owner-refused',
    title: 'refuses to publish a folder for a caller who does not own it',
    requirements: [REQUIREMENTS.widgetPublishOwnership.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: async (c) => {
      const folder = ready(c);
      const before = await session.catalog();
      const sent = await session.publish('bob', folder);
      const after = await session.catalog();
      for (const e of [before, sent, after]) c.record(e.exchange);
      expect(sent.response.status, 'status of a publish by someone else').toBeGreaterThanOrEqual(400);
      expect(sent.response.status, 'status of a publish by someone else').toBeLessThan(500);
      expect(sent.response.status, 'a 401 would refuse the credential, not the ownership').not.toBe(401);
      const count = (e: SentExchange) => ((jsonBody(e.response) as { widgets?: unknown[] } | undefined)?.widgets ?? []).length;
      expect(count(after), 'catalog entries after the refused publish').toBe(count(before));
    },
  });

  check({
    id: 'publish.republish-in-place',
    title: 're-publishing an unchanged folder refreshes its listing in place',
    requirements: [REQUIREMENTS.widgetRepublishInPlace.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: async (c) => {
      const firstPost = postIdOf(await publishOnce(c));
      if (!firstPost) return void expect.fail('the first publish named no post id');
      const again = await session.publish('alice', ready(c));
      const catalog = await session.catalog();
      c.record(again.exchange);
      c.record(catalog.exchange);
      expect(again.response.status, 'status of the second publish').toBeGreaterThanOrEqual(200);
      expect(again.response.status, 'status of the second publish').toBeLessThan(300);
      expect(postIdOf(again), 'the post of the second publish').toBe(firstPost);
      const entries = ((jsonBody(catalog.response) as { widgets?: Array<{ postId?: unknown; mcp?: unknown }> } | undefined)?.widgets ?? []).filter(
        (e) => e.postId === firstPost || e.mcp === session.mcpUrl(firstPost),
      );
      expect(entries, 'catalog entries of the folder after two publishes').toHaveLength(1);
    },
  });
});
