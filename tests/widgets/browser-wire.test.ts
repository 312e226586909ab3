import { describe, expect, test } from 'vitest';
import { BridgeError } from '../../src/widgets/bridge/index.js';
import { bridgeErrorOfWire } from '../../src/widgets/browser/wire-errors.js';
import { BRIDGE_JSONRPC_ERROR } from '../../src/widgets/host/operations.js';

describe('the browser side of the bridge', () => {
  test('a JSON-RPC error carries the 7.1 code in its data; method not found is unknown_op; anything else is internal', () => {
    expect(bridgeErrorOfWire({ code: BRIDGE_JSONRPC_ERROR, message: 'slow down', data: { code: 'rate_limited', retryAfter: 3 } })).toMatchObject({
      code: 'rate_limited',
      message: 'slow down',
      retryAfterSeconds: 3,
    });
    expect(bridgeErrorOfWire({ code: -32601, message: 'Method not found' }).code).toBe('unknown_op');
    expect(bridgeErrorOfWire(new Error('transport closed')).code).toBe('internal');
    const own = new BridgeError('permission');
    expect(bridgeErrorOfWire(own)).toBe(own);
  });
});
