import { describe, expect, it } from 'vitest';
import { RecentMap, RecentSet } from '../../src/memory/recent.js';

describe('RecentMap and RecentSet', () => {
  it('keep the newest entries up to the limit, the oldest added dropped first', () => {
    const map = new RecentMap<string, number>(3);
    for (const [k, v] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', 4],
    ] as const)
      map.set(k, v);
    expect([...map]).toEqual([
      ['b', 2],
      ['c', 3],
      ['d', 4],
    ]);
    const set = new RecentSet<string>(2);
    for (const v of ['a', 'b', 'c']) set.add(v);
    expect([...set]).toEqual(['b', 'c']);
  });

  it('drop nothing when a present key is set again or added again', () => {
    const map = new RecentMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('a', 3);
    expect([...map]).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
    const set = new RecentSet<string>(2);
    set.add('a').add('b').add('a');
    expect([...set]).toEqual(['a', 'b']);
  });
});
