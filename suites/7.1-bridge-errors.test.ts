import { afterAll, beforeAll, describe, expect } from 'vitest';
import { BRIDGE_ERRORS, type BridgeErrorCode } from '../src/spec/bridge-errors.js';
import { LIMITS } from '../src/spec/limits.js';
import { READINGS } from '../src/spec/readings.js';
import { FUNCTION_SOURCE_OVER_BYTES, FUNCTION_SOURCE_WITHIN_BYTES } from '../src/spec/readings/widgets.js';
import { check } from './lib/check.js';
import { checkTimeout } from './lib/context.js';
import { HostChecks, type Hosted, type HostOptions } from './lib/host-check.js';
import { suiteTarget } from './lib/target.js';

/**
 * Section 7.1 in headless Chromium: per code, a widget in the deployment's host page (the reference's, a
 * reference-only route) meets the condition the table names, and the SDK's promise rejects with an Error whose
 * .code is the code; the retry checks count the attempts the host saw. Conditions whose numbers 8 leaves open (KV
 * caps, the rate window, the live cap) are met by going well past any sane value or by stepping until the code comes.
 */
const target = suiteTarget();
const hosts = new HostChecks(target);
const TIMEOUT_MS = checkTimeout(90_000);
const ALICE: HostOptions = { query: { user: 'alice' } };

beforeAll(() => hosts.start(), 60_000);
afterAll(() => hosts.close());

async function rejectsWith(h: Hosted, expression: string, code: string): Promise<void> {
  const e = await h.reject(expression);
  expect(e.isError, `${expression} rejects with an Error`).toBe(true);
  expect(e.code, `${expression}: the Error's .code mirrors the host's (${e.message})`).toBe(code);
}

/** What every check here assumes of the reference's host: the signed-in user named by the page's query. */
const SESSION = 'the session named by the host page query (user=NAME)';

/**
 * A check of one 7.1 code. `assumes` names what of the reference's own host it relies on (signatures of the host.*
 * operations, query members, reserved names, thresholds): 4.6 names the operations without their signatures and 8
 * gives none of the caps, so these checks run on the reference's own host page only (HostOptions.assumes).
 */
function bridgeCheck(
  code: BridgeErrorCode,
  title: string,
  assumes: string,
  options: HostOptions,
  run: (h: Hosted) => Promise<void>,
  extra: string[] = [],
  id = `bridge.${code.toLowerCase().replace(/_/g, '-')}`,
): void {
  check({
    id,
    title,
    requirements: [BRIDGE_ERRORS[code].id, ...extra],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: (c) => hosts.withHost(c, id.replace(/^bridge\./, 'bridge-'), { ...options, assumes }, run),
  });
}

describe(`7.1 host bridge errors in Chromium (${target.description})`, () => {
  bridgeCheck(
    'permission',
    'host.shell and host.python without the risk tier reject with permission',
    `host.shell.run({ command }) and host.python.run({ code }), a host that grants no risk tier, and ${SESSION}`,
    ALICE,
    async (h) => {
      await rejectsWith(h, `host.shell.run({ command: 'ls' })`, BRIDGE_ERRORS.permission.code);
      await rejectsWith(h, `host.python.run({ code: 'print(1)' })`, BRIDGE_ERRORS.permission.code);
      expect((await h.attempts('host.shell')).length, 'permission is surfaced, not retried').toBe(1);
    },
  );

  bridgeCheck(
    'not_found',
    'host.kv get of a key never set rejects with not_found; a key that was set is read back',
    `host.kv.get({ key }) and host.kv.set({ key, value }), and ${SESSION}`,
    ALICE,
    async (h) => {
      await rejectsWith(h, `host.kv.get({ key: 'never-set' })`, BRIDGE_ERRORS.not_found.code);
      const set = await h.call(`host.kv.set({ key: 'k1', value: { n: 1 } }).then(() => host.kv.get({ key: 'k1' }))`);
      expect(set, 'a key that was set').toMatchObject({ ok: true, value: { value: { n: 1 } } });
    },
  );

  bridgeCheck(
    'permission',
    "attaching to another user's private live id rejects with permission (the access check of live URL resolve); its creator attaches",
    `host.live.create({ kind, private: true }) and attach({ liveId, transport }), a second page of the host for another user (user=bob), and ${SESSION}`,
    ALICE,
    async (h) => {
      const created = await h.call(`host.live.create({ kind: 'stream', private: true })`);
      expect(created.ok, `create (${JSON.stringify(created)})`).toBe(true);
      const attach = `host.live.attach({ liveId: ${JSON.stringify((created as { value: { liveId: string } }).value.liveId)}, transport: 'sse' })`;
      const bob = await h.open({ user: 'bob' });
      const refused = await bob(attach);
      expect(refused, `another user's attach (${JSON.stringify(refused)})`).toMatchObject({ ok: false, isError: true, code: BRIDGE_ERRORS.permission.code });
      expect((await h.call(attach)).ok, 'the creator attaches to its own private live id').toBe(true);
    },
    [],
    'bridge.permission-live-private',
  );

  bridgeCheck(
    'not_found',
    'attaching to a live id never created rejects with not_found; calling a host.fn function never published rejects with not_found or FN_NOT_FOUND',
    `host.live.attach({ liveId, transport }) with live ids of the form <kind>:<id>, host.fn.call({ name }), and ${SESSION}`,
    ALICE,
    async (h) => {
      await rejectsWith(h, `host.live.attach({ liveId: 'stream:never-created', transport: 'sse' })`, BRIDGE_ERRORS.not_found.code);
      const e = await h.reject(`host.fn.call({ name: 'never-published' })`);
      expect(e.isError, 'an Error').toBe(true);
      expect(
        [BRIDGE_ERRORS.not_found.code, BRIDGE_ERRORS.FN_NOT_FOUND.code],
        `the .code of a function never published, ${String(e.code)} (${READINGS.missingFunctionCode.id}: ${e.message})`,
      ).toContain(e.code);
    },
    [BRIDGE_ERRORS.FN_NOT_FOUND.id],
    'bridge.not-found-live-id-function',
  );

  bridgeCheck(
    'quota_exceeded',
    'host.kv set of a 1 MiB value rejects with quota_exceeded; a small value is stored',
    `host.kv.set({ key, value }), a KV value cap under 1 MiB (8: the KV caps are not shown), and ${SESSION}`,
    ALICE,
    async (h) => {
      expect((await h.call(`host.kv.set({ key: 'small', value: 'x' })`)).ok, 'a small value is stored').toBe(true);
      await rejectsWith(h, `host.kv.set({ key: 'big', value: 'x'.repeat(1 << 20) })`, BRIDGE_ERRORS.quota_exceeded.code);
    },
  );

  bridgeCheck(
    'invalid_args',
    'host.kv in a reserved content scope, or with a key that is no string, rejects with invalid_args',
    `host.kv.set({ scope, key, value }), the reserved scope name platform, and ${SESSION}`,
    ALICE,
    async (h) => {
      await rejectsWith(h, `host.kv.set({ scope: 'platform', key: 'k', value: 1 })`, BRIDGE_ERRORS.invalid_args.code);
      await rejectsWith(h, `host.kv.get({ key: 42 })`, BRIDGE_ERRORS.invalid_args.code);
    },
  );

  bridgeCheck(
    'timeout',
    'a host.fn function past its time budget rejects with timeout after exactly one retry',
    `host.fn.publish({ name, source }) and host.fn.call({ name }) running module.exports, window.__hostLog, and ${SESSION}`,
    ALICE,
    async (h) => {
      expect((await h.call(`host.fn.publish({ name: 'spin', source: 'module.exports = () => { for (;;) {} };' })`)).ok, 'publish').toBe(true);
      await rejectsWith(h, `host.fn.call({ name: 'spin' })`, BRIDGE_ERRORS.timeout.code);
      const calls = (await h.attempts('host.fn')).filter((a) => a.code === BRIDGE_ERRORS.timeout.code);
      expect(calls.length, 'attempts the host saw: the call and one retry ("retry once; if it persists, surface")').toBe(2);
    },
  );

  bridgeCheck(
    'rate_limited',
    'a burst of calls rejects with rate_limited, retried only after the Retry-After window',
    `host.kv.set({ key, value }), a rate window that 2000 calls in a row exceed (8: the rate window is not shown), window.__hostLog, and ${SESSION}`,
    { ...ALICE, clock: true },
    async (h) => {
      const outcome = await h.call(
        `(async () => {
      for (let i = 0; i < 2000; i++) await host.kv.set({ key: 'burst', value: i });
      return 'never limited';
    })()`,
        1000,
      );
      expect(outcome.ok, `2000 calls in a row were never limited (${JSON.stringify(outcome)})`).toBe(false);
      if (outcome.ok) return;
      expect(outcome.code, `.code (${outcome.message})`).toBe(BRIDGE_ERRORS.rate_limited.code);
      const limited = (await h.attempts('host.kv')).filter((a) => a.code === BRIDGE_ERRORS.rate_limited.code);
      expect(limited.length, 'attempts the host refused: the SDK retried after the window').toBeGreaterThanOrEqual(2);
      for (let i = 1; i < limited.length; i++) {
        expect(limited[i]!.at - limited[i - 1]!.at, 'a retry waits the Retry-After window (at least 1 s)').toBeGreaterThanOrEqual(1000);
      }
    },
  );

  bridgeCheck(
    'internal',
    'a host.fn function that throws rejects with internal after at most one retry',
    `host.fn.publish({ name, source }) and host.fn.call({ name }) running module.exports, window.__hostLog, and ${SESSION}`,
    ALICE,
    async (h) => {
      expect((await h.call(`host.fn.publish({ name: 'boom', source: 'module.exports = () => { throw new Error("boom"); };' })`)).ok, 'publish').toBe(true);
      await rejectsWith(h, `host.fn.call({ name: 'boom' })`, BRIDGE_ERRORS.internal.code);
      const calls = (await h.attempts('host.fn')).filter((a) => a.code === BRIDGE_ERRORS.internal.code);
      expect(calls.length, 'attempts the host saw ("retry once at most")').toBeGreaterThanOrEqual(1);
      expect(calls.length, 'attempts the host saw ("retry once at most")').toBeLessThanOrEqual(2);
    },
  );

  bridgeCheck(
    'unknown_op',
    'a v1 host answers a v2 operation with unknown_op, and so does an operation no host has',
    `the query member bridge=1 for a host of bridge version 1, host.live as a version 2 operation and host.kv as version 1, host.call(op, args), and ${SESSION}`,
    { query: { user: 'alice', bridge: 1 } },
    async (h) => {
      await rejectsWith(h, `host.live.create({ kind: 'stream' })`, BRIDGE_ERRORS.unknown_op.code);
      await rejectsWith(h, `host.call('host.teleport', {})`, BRIDGE_ERRORS.unknown_op.code);
      expect((await h.call(`host.kv.set({ key: 'v1', value: 1 })`)).ok, 'a v1 operation still works on the v1 host').toBe(true);
    },
  );

  bridgeCheck(
    'unknown_op',
    'a detached host answers a server-mediated operation with unknown_op',
    `the query member detached=1 for a host without its platform server, host.kv.get({ key }), and ${SESSION}`,
    { query: { user: 'alice', detached: true } },
    async (h) => {
      await rejectsWith(h, `host.kv.get({ key: 'k' })`, BRIDGE_ERRORS.unknown_op.code);
    },
    [],
    'bridge.unknown-op-detached',
  );

  bridgeCheck(
    'no_session',
    'without a session a write rejects with no_session, not permission (host.kv, host.shell)',
    'host.kv.set({ key, value }) and host.shell.run({ command }), and a page without the query member user having no session',
    {},
    async (h) => {
      await rejectsWith(h, `host.kv.set({ key: 'k', value: 1 })`, BRIDGE_ERRORS.no_session.code);
      await rejectsWith(h, `host.shell.run({ command: 'ls' })`, BRIDGE_ERRORS.no_session.code);
    },
  );

  bridgeCheck(
    'scope_unavailable',
    "host.kv's shared scope on the app's own catalog row rejects with scope_unavailable; the user scope works there",
    `the query member content=catalog for the app's own catalog row, host.kv.set({ scope, key, value }) with scopes shared and user, and ${SESSION}`,
    { query: { user: 'alice', content: 'catalog' } },
    async (h) => {
      await rejectsWith(h, `host.kv.set({ scope: 'shared', key: 'k', value: 1 })`, BRIDGE_ERRORS.scope_unavailable.code);
      expect((await h.call(`host.kv.set({ scope: 'user', key: 'k', value: 1 })`)).ok, 'the user scope').toBe(true);
    },
  );

  bridgeCheck(
    'cap_exceeded',
    'live attachments past the concurrent cap reject with cap_exceeded; releasing one frees a slot',
    `host.live.create({ kind: 'stream' }), attach({ liveId, transport }) and release({ attachId }), a live-attach cap under 64 (8: not shown), and ${SESSION}`,
    ALICE,
    async (h) => {
      const outcome = await h.call(`(async () => {
      const { liveId } = await host.live.create({ kind: 'stream' });
      const held = [];
      for (let i = 0; i < 64; i++) {
        try { held.push((await host.live.attach({ liveId, transport: 'sse' })).attachId); }
        catch (e) {
          if (held.length === 0) throw e;
          await host.live.release({ attachId: held[0] });
          const again = await host.live.attach({ liveId, transport: 'sse' });
          return { code: e.code, isError: e instanceof Error, held: held.length, again: typeof again.attachId };
        }
      }
      return { held: held.length };
    })()`);
      expect(outcome.ok, `the attach loop (${JSON.stringify(outcome)})`).toBe(true);
      if (!outcome.ok) return;
      const v = outcome.value as { code?: unknown; isError?: boolean; held: number; again?: string };
      expect(v.code, `.code after ${v.held} attachments`).toBe(BRIDGE_ERRORS.cap_exceeded.code);
      expect(v.isError, 'an Error').toBe(true);
      expect(v.again, 'an attachment after releasing a slot').toBe('string');
    },
  );

  bridgeCheck(
    'expired',
    'attaching to a live id past its lifetime rejects with expired',
    `host.live.create({ kind: 'stream', ttlSeconds }) and attach({ liveId, transport }), and ${SESSION}`,
    ALICE,
    async (h) => {
      const created = await h.call(`host.live.create({ kind: 'stream', ttlSeconds: 0 })`);
      expect(created.ok, `create (${JSON.stringify(created)})`).toBe(true);
      const liveId = (created as { value: { liveId: string } }).value.liveId;
      await rejectsWith(h, `host.live.attach({ liveId: ${JSON.stringify(liveId)}, transport: 'sse' })`, BRIDGE_ERRORS.expired.code);
    },
  );

  bridgeCheck(
    'service_unavailable',
    'host.collab with its server down rejects with service_unavailable after exponential backoff, about 5 attempts',
    `host.collab.join({ room }) on a host with no collaboration server, window.__hostLog, and ${SESSION}`,
    { ...ALICE, clock: true },
    async (h) => {
      await rejectsWith(h, `host.collab.join({ room: 'r1' })`, BRIDGE_ERRORS.service_unavailable.code);
      const calls = await h.attempts('host.collab');
      expect(calls.length, 'attempts the host saw ("up to about 5")').toBeGreaterThanOrEqual(LIMITS.serviceUnavailableRetries.value - 1);
      expect(calls.length, 'attempts the host saw ("up to about 5")').toBeLessThanOrEqual(LIMITS.serviceUnavailableRetries.value + 1);
      const gaps = calls.slice(1).map((a, i) => a.at - calls[i]!.at);
      expect(gaps[0], 'the first retry waits').toBeGreaterThan(0);
      for (let i = 1; i < gaps.length; i++) expect(gaps[i], `backoff ${i + 1} is longer than backoff ${i} (exponential)`).toBeGreaterThan(gaps[i - 1]!);
    },
    [LIMITS.serviceUnavailableRetries.id],
  );

  bridgeCheck(
    'service_unavailable',
    'host.live with its cache store down fails closed: it rejects with service_unavailable after exponential backoff, about 5 attempts',
    `host.live.create({ kind }), the query member cache=down for a host whose cache store is down, window.__hostLog, and ${SESSION}`,
    { ...ALICE, clock: true, referenceQuery: { cache: 'down' } },
    async (h) => {
      await rejectsWith(h, `host.live.create({ kind: 'stream' })`, BRIDGE_ERRORS.service_unavailable.code);
      const calls = await h.attempts('host.live');
      expect(calls.length, 'attempts the host saw ("up to about 5")').toBeGreaterThanOrEqual(LIMITS.serviceUnavailableRetries.value - 1);
      expect(calls.length, 'attempts the host saw ("up to about 5")').toBeLessThanOrEqual(LIMITS.serviceUnavailableRetries.value + 1);
      expect(
        calls.map((a) => a.code),
        'every attempt refused service_unavailable',
      ).toEqual(calls.map(() => BRIDGE_ERRORS.service_unavailable.code));
    },
    [LIMITS.serviceUnavailableRetries.id],
    'bridge.service-unavailable-live',
  );

  bridgeCheck(
    'unsupported_kind',
    'a live id whose kind has no dispatcher rejects with unsupported_kind',
    `host.live.attach({ liveId, transport }) with live ids of the form <kind>:<id>, and ${SESSION}`,
    ALICE,
    async (h) => {
      await rejectsWith(h, `host.live.attach({ liveId: 'teleport:1', transport: 'sse' })`, BRIDGE_ERRORS.unsupported_kind.code);
    },
  );

  bridgeCheck(
    'unsupported_transport',
    'attaching over a transport the producer cannot serve (webrtc) rejects with unsupported_transport',
    `host.live.create({ kind: 'stream', transports }) and attach({ liveId, transport }), and ${SESSION}`,
    ALICE,
    async (h) => {
      const created = await h.call(`host.live.create({ kind: 'stream', transports: ['sse'] })`);
      expect(created.ok, `create (${JSON.stringify(created)})`).toBe(true);
      const liveId = (created as { value: { liveId: string } }).value.liveId;
      await rejectsWith(h, `host.live.attach({ liveId: ${JSON.stringify(liveId)}, transport: 'webrtc' })`, BRIDGE_ERRORS.unsupported_transport.code);
    },
  );

  /** A host.fn source of exactly `bytes` bytes, as a JavaScript expression evaluated in the widget. */
  const sourceOf = (bytes: number) => `((p) => p + 'x'.repeat(${bytes} - p.length))('module.exports = () => 1;//')`;
  const READ = READINGS.functionSourceKb.id;
  bridgeCheck(
    'CODE_TOO_LARGE',
    'publishing a host.fn source over 65,536 bytes rejects with CODE_TOO_LARGE; one of 64,000 bytes publishes',
    `host.fn.publish({ name, source }), and ${SESSION}`,
    ALICE,
    async (h) => {
      const within = await h.call(`host.fn.publish({ name: 'full', source: ${sourceOf(FUNCTION_SOURCE_WITHIN_BYTES)} })`);
      expect(within.ok, `a source of ${FUNCTION_SOURCE_WITHIN_BYTES} bytes is within 64 KB on any reading (${READ}): ${JSON.stringify(within)}`).toBe(true);
      await rejectsWith(h, `host.fn.publish({ name: 'huge', source: ${sourceOf(FUNCTION_SOURCE_OVER_BYTES)} })`, BRIDGE_ERRORS.CODE_TOO_LARGE.code);
    },
    [LIMITS.functionSourceSize.id],
  );

  bridgeCheck(
    'FN_NOT_FOUND',
    'calling the host.fn function refused with CODE_TOO_LARGE rejects with FN_NOT_FOUND; a published one runs',
    `host.fn.publish({ name, source }) and host.fn.call({ name, args }) running module.exports, and ${SESSION}`,
    ALICE,
    async (h) => {
      await rejectsWith(h, `host.fn.publish({ name: 'huge', source: ${sourceOf(FUNCTION_SOURCE_OVER_BYTES)} })`, BRIDGE_ERRORS.CODE_TOO_LARGE.code);
      await rejectsWith(h, `host.fn.call({ name: 'huge' })`, BRIDGE_ERRORS.FN_NOT_FOUND.code);
      const ran = await h.call(
        `host.fn.publish({ name: 'twice', source: 'module.exports = ({ n }) => n * 2;' }).then(() => host.fn.call({ name: 'twice', args: { n: 21 } }))`,
      );
      expect(ran, 'a published function runs').toMatchObject({ ok: true, value: { value: 42 } });
    },
  );
});
