import { describe, expect, it } from 'vitest';
import { closestWord } from '../../src/schema/closest-word.js';

describe('closestWord', () => {
  const codes = ['signature_expired', 'signature_invalid', 'key_set_invalid', 'card_unreachable'];

  it('finds a typo', () => {
    expect(closestWord('signature_expried', codes)).toBe('signature_expired');
    expect(closestWord('kye', ['key', 'json', 'url'])).toBe('key');
  });

  it('finds the one candidate a word abbreviates part by part', () => {
    expect(closestWord('sig_expired', codes)).toBe('signature_expired');
    expect(closestWord('card_unreach', codes)).toBe('card_unreachable');
  });

  it('finds the one candidate a word extends or shortens', () => {
    expect(closestWord('outdir', ['agent-url', 'out', 'json'])).toBe('out');
    expect(closestWord('agent', ['agent-url', 'out', 'json'])).toBe('agent-url');
  });

  it('gives nothing when no candidate is near or the abbreviation is ambiguous', () => {
    expect(closestWord('teapot', codes)).toBeUndefined();
    expect(closestWord('sig_inv', ['signature_invalid', 'signature_inverted'])).toBeUndefined();
  });
});
