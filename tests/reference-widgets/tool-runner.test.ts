import { describe, expect, it } from 'vitest';
import { BRIDGE_ERRORS } from '../../src/spec/bridge-errors.js';
import { WIDGET_SDK } from '../../src/spec/widgets.js';
import { createVmToolRunner } from '../../src/reference/widgets/index.js';
import { injectSdkScript } from '../../src/widgets/bundle/index.js';
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

describe('the reference tool runner', () => {
  const runner = createVmToolRunner({ timeoutMs: 50 });

  it('runs module.exports with the arguments and returns its JSON value', async () => {
    expect(await runner.run(record('module.exports = ({ a, b }) => ({ sum: a + b });'), { a: 2, b: 3 })).toEqual({ ok: true, value: { sum: 5 } });
    expect(await runner.run(record('exports.default = async () => [1, 2];'), {})).toEqual({ ok: true, value: [1, 2] });
  });

  it('gives the source nothing of the host: no require, process or string code generation', async () => {
    const probe = record(
      'module.exports = () => [typeof require, typeof process, typeof setTimeout, (() => { try { return Function("return 1")(); } catch (e) { return "blocked"; } })()];',
    );
    expect(await runner.run(probe, {})).toEqual({ ok: true, value: ['undefined', 'undefined', 'undefined', 'blocked'] });
  });

  it('answers a throwing source with internal', async () => {
    expect(await runner.run(record('module.exports = () => { throw new Error("boom"); };'), {})).toEqual({
      ok: false,
      code: BRIDGE_ERRORS.internal.code,
      message: 'probe threw: boom',
    });
    expect(await runner.run(record('module.exports = 42;'), {})).toMatchObject({ ok: false, code: BRIDGE_ERRORS.internal.code });
    expect(await runner.run(record('this is not javascript'), {})).toMatchObject({ ok: false, code: BRIDGE_ERRORS.internal.code });
  });

  it('answers a source that runs past its budget with timeout', async () => {
    expect(await runner.run(record('module.exports = () => { for (;;) {} };'), {})).toMatchObject({ ok: false, code: BRIDGE_ERRORS.timeout.code });
  });
});

describe('SDK injection for the MCP resource', () => {
  it('puts the SDK first in <head>, by absolute URL on the platform origin', () => {
    const html = injectSdkScript('<!doctype html><title>x</title><script src="app.js"></script>', 'https://platform.example');
    expect(html).toBe(
      `<!DOCTYPE html><html><head><script src="https://platform.example${WIDGET_SDK.path}"></script><title>x</title><script src="app.js"></script></head><body></body></html>`,
    );
  });

  it('does not inject a second copy into a page that already loads it', () => {
    const html = injectSdkScript(`<html><head><script src="${WIDGET_SDK.path}"></script></head></html>`, 'https://platform.example');
    expect(html.match(/sdk\.v2\.js/g)).toHaveLength(1);
  });
});
