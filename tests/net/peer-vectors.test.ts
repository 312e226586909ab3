import { describe, expect, it } from 'vitest';
import { AllowListError, classifyAddress, isAddressAllowed, parseAllowEntry, parseAllowList } from '../../src/net/index.js';
import { peerNetAddresses } from './peer-vectors.js';

describe('net-addresses.json (robutlerai/webagents): every case', () => {
  it('holds the cases it held when copied', () => {
    expect(peerNetAddresses.addresses).toHaveLength(48);
    expect(peerNetAddresses.allow_lists).toHaveLength(11);
    expect(peerNetAddresses.bad_allow_entries).toHaveLength(8);
  });

  it.each(peerNetAddresses.addresses)('$address: public $public, always blocked $always_blocked', (vector) => {
    const classification = classifyAddress(vector.address);
    expect({ public: classification.public, always_blocked: classification.alwaysBlocked }).toEqual({
      public: vector.public,
      always_blocked: vector.always_blocked,
    });
  });

  it.each(peerNetAddresses.allow_lists)('$entries admit $address port $port: $allowed', (vector) => {
    const list = parseAllowList(vector.entries);
    expect(isAddressAllowed(vector.address, vector.port, list)).toBe(vector.allowed);
  });

  it.each(peerNetAddresses.bad_allow_entries)('rejects the allow entry %j with a message naming it', (entry) => {
    expect(() => parseAllowEntry(entry)).toThrow(AllowListError);
    expect(() => parseAllowList(['127.0.0.1', entry])).toThrow(`"${entry}"`);
  });
});
