import { describe, expect, it } from 'vitest';
import { createVmToolRunner } from '../../src/reference/widgets/index.js';
import { BRIDGE_ERRORS } from '../../src/spec/bridge-errors.js';
import type { FunctionSourceRecord } from '../../src/widgets/publish/index.js';

const record = (source: string): FunctionSourceRecord => ({
  id: 'function_1',
  agentId: 'agent_1',
  tool: 'probe',
  file: 'tools/probe.js',
  runtime: 'node20',
  source,
  bytes: source.length,
});

const BUDGET_MS = 250;
/** Room for a loaded machine between the deadline and the answer; the old runner never answered at all. */
const MARGIN_MS = 1500;
const ECHO = record('module.exports = (args) => args;');
const TIMEOUT = { ok: false, code: BRIDGE_ERRORS.timeout.code };
const INTERNAL = { ok: false, code: BRIDGE_ERRORS.internal.code };

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work;
  return { value, ms: performance.now() - started };
}

describe('the reference tool runner stops what it runs', () => {
  const runner = createVmToolRunner({ timeoutMs: BUDGET_MS });

  it('answers an infinite loop after an await with timeout within the budget, then runs the next call', async () => {
    expect(await runner.run(ECHO, { warm: true })).toEqual({ ok: true, value: { warm: true } });
    const { value, ms } = await timed(runner.run(record('module.exports = async () => { await null; for (;;) {} };'), {}));
    expect(value).toMatchObject(TIMEOUT);
    expect(ms).toBeGreaterThanOrEqual(BUDGET_MS - 5);
    expect(ms).toBeLessThan(BUDGET_MS + MARGIN_MS);
    expect(await runner.run(ECHO, { after: 1 })).toEqual({ ok: true, value: { after: 1 } });
  });

  it('answers a synchronous infinite loop, a promise that never settles and an endless microtask chain with timeout', async () => {
    expect(await runner.run(record('module.exports = () => { for (;;) {} };'), {})).toMatchObject(TIMEOUT);
    expect(await runner.run(record('module.exports = () => new Promise(() => {});'), {})).toMatchObject(TIMEOUT);
    // The value is ready, but the thread is still busy with what the tool left running: the call is not over.
    const leftBehind = record('module.exports = () => { (async () => { for (;;) await null; })(); return 1; };');
    expect(await runner.run(leftBehind, {})).toMatchObject(TIMEOUT);
    expect(await runner.run(ECHO, { after: 2 })).toEqual({ ok: true, value: { after: 2 } });
  });

  it('answers an allocation bomb with internal (out of memory) and keeps serving', async () => {
    const bombs = createVmToolRunner({ timeoutMs: 10_000, memoryMb: 32 });
    const bomb = record('module.exports = async () => { const a = []; for (;;) a.push(new Array(1e6).fill(1)); };');
    const answer = await bombs.run(bomb, {});
    expect(answer).toMatchObject(INTERNAL);
    expect(answer).toMatchObject({ message: 'probe could not run: it ran out of its 32 MB of memory' });
    expect(await bombs.run(ECHO, { after: 3 })).toEqual({ ok: true, value: { after: 3 } });
  });

  it('has no binary buffers, whose memory would lie outside the heap limit', async () => {
    const bomb = record('module.exports = () => { const a = []; for (;;) a.push(new Uint8Array(1e8).fill(1)); };');
    expect(await runner.run(bomb, {})).toEqual({ ...INTERNAL, message: 'probe threw: Uint8Array is not defined' });
    const names = ['ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Atomics', 'WebAssembly', 'Float64Array', 'BigInt64Array', 'FinalizationRegistry'];
    const probe = record(`module.exports = () => ${JSON.stringify(names)}.map((name) => typeof globalThis[name]);`);
    expect(await runner.run(probe, {})).toEqual({ ok: true, value: names.map(() => 'undefined') });
  });

  it('survives a stray rejected promise and a thrown non-error', async () => {
    expect(await runner.run(record('module.exports = () => { Promise.reject(new Error("stray")); return "ok"; };'), {})).toEqual({ ok: true, value: 'ok' });
    expect(await runner.run(record('module.exports = () => { throw 7; };'), {})).toEqual({ ...INTERNAL, message: 'probe threw: 7' });
    expect(await runner.run(ECHO, { after: 4 })).toEqual({ ok: true, value: { after: 4 } });
  });

  it('runs calls side by side, each with its own answer, a spinning one not holding up the others', async () => {
    const spin = runner.run(record('module.exports = async () => { await null; for (;;) {} };'), {});
    const answers = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => runner.run(ECHO, { n })));
    expect(answers).toEqual([1, 2, 3, 4, 5, 6].map((n) => ({ ok: true, value: { n } })));
    expect(await spin).toMatchObject(TIMEOUT);
  });
});

describe('the reference tool runner gives a tool no authority of the host', () => {
  const runner = createVmToolRunner({ timeoutMs: 1000 });

  it('has no process, require or module loader, and dynamic import fails', async () => {
    const probe = record(`module.exports = async () => [
      typeof process, typeof require, typeof globalThis.process, typeof globalThis.require, typeof module.require, typeof Buffer,
      typeof setTimeout, typeof setImmediate, typeof queueMicrotask, typeof fetch,
      await import('node:fs').then(() => 'imported', () => 'refused'),
    ];`);
    const none = ['undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined'];
    expect(await runner.run(probe, {})).toEqual({ ok: true, value: [...none, 'refused'] });
  });

  it('cannot reach the Function of the thread: not through constructors, the report hook, promise callbacks or stack frames', async () => {
    // Each route tries `Function('return typeof process')()` from what it reached; string code generation is off in
    // the tool's context, so only a function of the thread's own realm would run it.
    const probe = record(`
      const reach = (value) => {
        try { return typeof value.constructor('return typeof process')(); } catch (e) { return 'blocked'; }
      };
      module.exports = async () => {
        const found = { constructor: reach(reach), report: typeof __report === 'function' ? [typeof __report.constructor, Object.getPrototypeOf(__report)] : 'absent' };
        const then = Promise.prototype.then;
        found.callbacks = [];
        Promise.prototype.then = function (onFulfilled, onRejected) {
          for (const f of [onFulfilled, onRejected]) if (typeof f === 'function') found.callbacks.push(reach(f));
          return then.call(this, onFulfilled, onRejected);
        };
        await Promise.resolve(1);
        Promise.prototype.then = then;
        Error.prepareStackTrace = (_, frames) => frames;
        const frames = new Error().stack;
        Error.prepareStackTrace = undefined;
        found.frames = [...new Set(frames.flatMap((f) => [f.getThis(), f.getFunction()]).filter((v) => v != null).map(reach))];
        return found;
      };`);
    const answer = await runner.run(probe, {});
    expect(answer).toMatchObject({ ok: true, value: { constructor: 'blocked', report: ['undefined', null], frames: ['blocked'] } });
    const callbacks = (answer as { value: { callbacks: string[] } }).value.callbacks;
    expect(callbacks.length).toBeGreaterThan(0);
    expect(callbacks.every((reached) => reached === 'blocked')).toBe(true);
  });

  it('keeps no state from one call to the next', async () => {
    expect(await runner.run(record('module.exports = () => { globalThis.left = 1; Object.prototype.polluted = 1; return 1; };'), {})).toEqual({
      ok: true,
      value: 1,
    });
    expect(await runner.run(record('module.exports = () => [typeof globalThis.left, typeof ({}).polluted];'), {})).toEqual({
      ok: true,
      value: ['undefined', 'undefined'],
    });
  });

  it('answers a value JSON cannot carry with internal, and undefined with null', async () => {
    expect(await runner.run(record('module.exports = () => () => 1;'), {})).toMatchObject(INTERNAL);
    expect(await runner.run(record('module.exports = () => undefined;'), {})).toEqual({ ok: true, value: null });
  });
});
