import { describe, expect, test } from 'vitest';
import { BRIDGE_ERRORS } from '../../src/spec/bridge-errors.js';
import { LIMITS } from '../../src/spec/limits.js';
import { createBridgeHost, REFERENCE_HOST_LIMITS, type FunctionRun, type HostSession } from '../../src/widgets/host/host-core.js';

const alice: HostSession = { postId: 'p1', user: 'alice', content: 'post' };
const anonymous: HostSession = { postId: 'p1', content: 'post' };

function makeHost(limits = REFERENCE_HOST_LIMITS) {
  let now = 1_000_000;
  const runs: FunctionRun[] = [];
  const host = createBridgeHost(
    {
      clock: { now: () => now },
      callTool: async (_post, name) =>
        name === 'known' ? { ok: true, value: { name } } : { ok: false, code: BRIDGE_ERRORS.not_found.code, message: 'no tool' },
      runFunction: async () => runs.shift() ?? { ok: true, value: 1 },
    },
    limits,
  );
  return { host, runs, advance: (s: number) => (now += s) };
}

const codeOf = (answer: { ok: boolean; code?: string }) => (answer.ok ? 'ok' : answer.code);

describe('the reference host core (4.6, 7.1)', () => {
  test('host.kv: not_found, quota by size and by count, invalid_args for reserved scopes, no_session, scope_unavailable', async () => {
    const { host } = makeHost({ ...REFERENCE_HOST_LIMITS, kvKeys: 2, kvValueBytes: 10 });
    expect(codeOf(await host.dispatch(alice, 'host.kv', { action: 'get', key: 'a' }))).toBe(BRIDGE_ERRORS.not_found.code);
    expect(await host.dispatch(alice, 'host.kv', { action: 'set', key: 'a', value: '12345678' })).toEqual({ ok: true, result: { key: 'a' } });
    expect(codeOf(await host.dispatch(alice, 'host.kv', { action: 'set', key: 'b', value: '123456789' }))).toBe(BRIDGE_ERRORS.quota_exceeded.code);
    expect(codeOf(await host.dispatch(alice, 'host.kv', { action: 'set', key: 'b', value: 1 }))).toBe('ok');
    expect(codeOf(await host.dispatch(alice, 'host.kv', { action: 'set', key: 'c', value: 1 }))).toBe(BRIDGE_ERRORS.quota_exceeded.code);
    expect(codeOf(await host.dispatch(alice, 'host.kv', { action: 'set', key: 'a', value: 2 })), 'an existing key is replaced within the count').toBe('ok');
    expect(codeOf(await host.dispatch(alice, 'host.kv', { action: 'set', scope: 'platform', key: 'x', value: 1 }))).toBe(BRIDGE_ERRORS.invalid_args.code);
    expect(codeOf(await host.dispatch(anonymous, 'host.kv', { action: 'set', key: 'x', value: 1 }))).toBe(BRIDGE_ERRORS.no_session.code);
    expect(codeOf(await host.dispatch({ ...alice, content: 'catalog' }, 'host.kv', { action: 'get', scope: 'shared', key: 'x' }))).toBe(
      BRIDGE_ERRORS.scope_unavailable.code,
    );
    expect(codeOf(await host.dispatch(alice, 'host.kv', 'not an object'))).toBe(BRIDGE_ERRORS.invalid_args.code);
  });

  test('host.fn: CODE_TOO_LARGE at publish over 64 KB, then FN_NOT_FOUND; the runner code passes through', async () => {
    const { host, runs } = makeHost();
    const huge = 'x'.repeat(LIMITS.functionSourceSize.value + 1);
    expect(codeOf(await host.dispatch(alice, 'host.fn', { action: 'publish', name: 'f', source: 'x'.repeat(LIMITS.functionSourceSize.value) }))).toBe('ok');
    expect(codeOf(await host.dispatch(alice, 'host.fn', { action: 'publish', name: 'f', source: huge }))).toBe(BRIDGE_ERRORS.CODE_TOO_LARGE.code);
    expect(codeOf(await host.dispatch(alice, 'host.fn', { action: 'call', name: 'f' })), 'the refused source replaced nothing').toBe(
      BRIDGE_ERRORS.FN_NOT_FOUND.code,
    );
    await host.dispatch(alice, 'host.fn', { action: 'publish', name: 'g', source: '1' });
    runs.push({ ok: false, code: BRIDGE_ERRORS.timeout.code, message: 'slow' });
    expect(codeOf(await host.dispatch(alice, 'host.fn', { action: 'call', name: 'g' }))).toBe(BRIDGE_ERRORS.timeout.code);
  });

  test('host.shell and host.python: permission for a user, no_session without one', async () => {
    const { host } = makeHost();
    for (const op of ['host.shell', 'host.python']) {
      expect(codeOf(await host.dispatch(alice, op, {}))).toBe(BRIDGE_ERRORS.permission.code);
      expect(codeOf(await host.dispatch(anonymous, op, {}))).toBe(BRIDGE_ERRORS.no_session.code);
    }
  });

  test('host.live: unsupported_kind, not_found, expired, unsupported_transport, permission, cap_exceeded until a release', async () => {
    const { host, advance } = makeHost({ ...REFERENCE_HOST_LIMITS, liveCap: 1 });
    expect(codeOf(await host.dispatch(alice, 'host.live', { action: 'create', kind: 'teleport' }))).toBe(BRIDGE_ERRORS.unsupported_kind.code);
    const created = await host.dispatch(alice, 'host.live', { action: 'create', kind: 'stream', transports: ['sse'], ttlSeconds: 60 });
    const liveId = created.ok ? String(created.result.liveId) : '';
    expect(codeOf(await host.dispatch(alice, 'host.live', { action: 'attach', liveId: 'stream:none' }))).toBe(BRIDGE_ERRORS.not_found.code);
    expect(codeOf(await host.dispatch(alice, 'host.live', { action: 'attach', liveId: 'teleport:1' }))).toBe(BRIDGE_ERRORS.unsupported_kind.code);
    expect(codeOf(await host.dispatch(alice, 'host.live', { action: 'attach', liveId, transport: 'webrtc' }))).toBe(BRIDGE_ERRORS.unsupported_transport.code);
    const first = await host.dispatch(alice, 'host.live', { action: 'attach', liveId });
    expect(codeOf(first)).toBe('ok');
    expect(codeOf(await host.dispatch(alice, 'host.live', { action: 'attach', liveId }))).toBe(BRIDGE_ERRORS.cap_exceeded.code);
    await host.dispatch(alice, 'host.live', { action: 'release', attachId: first.ok ? first.result.attachId : '' });
    expect(codeOf(await host.dispatch(alice, 'host.live', { action: 'attach', liveId })), 'a released slot').toBe('ok');
    const secret = await host.dispatch(alice, 'host.live', { action: 'create', kind: 'doc', private: true });
    expect(codeOf(await host.dispatch({ ...alice, user: 'bob' }, 'host.live', { action: 'attach', liveId: secret.ok ? secret.result.liveId : '' }))).toBe(
      BRIDGE_ERRORS.permission.code,
    );
    advance(60);
    expect(codeOf(await host.dispatch({ ...alice, user: 'carol' }, 'host.live', { action: 'attach', liveId }))).toBe(BRIDGE_ERRORS.expired.code);
  });

  test('rate_limited past the window with a Retry-After; host.collab fails closed; unknown operations; a throwing port is internal', async () => {
    const { host, advance } = makeHost({ ...REFERENCE_HOST_LIMITS, rateCalls: 3, rateWindowSeconds: 10 });
    for (let i = 0; i < 3; i++) expect(codeOf(await host.dispatch(alice, 'callTool', { name: 'known' }))).toBe('ok');
    const limited = await host.dispatch(alice, 'callTool', { name: 'known' });
    expect(limited).toMatchObject({ ok: false, code: BRIDGE_ERRORS.rate_limited.code, retryAfter: 10 });
    expect(codeOf(await host.dispatch({ ...alice, user: 'bob' }, 'callTool', { name: 'known' })), 'per session').toBe('ok');
    advance(10);
    expect(codeOf(await host.dispatch(alice, 'host.collab', { action: 'join', room: 'r' }))).toBe(BRIDGE_ERRORS.service_unavailable.code);
    expect(codeOf(await host.dispatch(alice, 'host.teleport', {}))).toBe(BRIDGE_ERRORS.unknown_op.code);
    const throwing = createBridgeHost({
      clock: { now: () => 0 },
      callTool: () => Promise.reject(new Error('down')),
      runFunction: () => Promise.reject(new Error('down')),
    });
    expect(codeOf(await throwing.dispatch(alice, 'callTool', { name: 'x' }))).toBe(BRIDGE_ERRORS.internal.code);
  });
});
