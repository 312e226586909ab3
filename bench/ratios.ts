/**
 * The ratios issue 27 sets goals for, computed from one run of stores.bench.ts (bench/results/stores.json) and
 * written as a markdown table (bench/results/stores.md) that bench/README.md states through scripts/figures.ts.
 */

export interface Figures {
  readonly name: string;
  readonly perSecond: number;
  readonly p50Us: number;
  readonly p99Us: number;
  /** The rate of each round (bench/rounds.ts), of which `perSecond` is the median. */
  readonly rounds?: readonly number[];
}

export interface StoresResults {
  readonly environment: { readonly node: string; readonly cpus: number; readonly cpu: string; readonly load?: readonly number[] };
  readonly overHttp: readonly Figures[];
  readonly verify: readonly Figures[];
  readonly purchase: readonly Figures[];
  readonly skipped: readonly string[];
}

export interface Ratio {
  readonly path: string;
  readonly of: string;
  /** The ratio of rates; undefined when a contender was skipped (its server absent). */
  readonly value: number | undefined;
  /** The same from the p50 latencies (base p50 / p50): moves less when a neighbour takes the CPU for a while. */
  readonly fromMedians: number | undefined;
  readonly goal: number;
}

const find = (rows: readonly Figures[], name: string) => rows.find((r) => r.name === name);

/** `medians`: false where the two latencies are not of the same thing (8 requests at a time against one). */
function ratio(path: string, of: string, figures: Figures | undefined, base: Figures | undefined, goal: number, medians = true): Ratio {
  const both = figures !== undefined && base !== undefined;
  return {
    path,
    of,
    value: both ? figures.perSecond / base.perSecond : undefined,
    fromMedians: both && medians ? base.p50Us / figures.p50Us : undefined,
    goal,
  };
}

/** Every ratio of the issue's table, with its goal. */
export function ratiosOf(results: StoresResults): Ratio[] {
  const inProcess = find(results.verify, 'memory');
  const purchases = find(results.purchase, 'memory');
  return [
    ratio('in-process verification, Redis', 'in-process, memory', find(results.verify, 'Redis'), inProcess, 0.5),
    ratio('verification through `serve` over HTTP, memory', 'in-process, memory', find(results.overHttp, 'memory'), inProcess, 0.5, false),
    ratio('purchases, SQLite', 'purchases, memory', find(results.purchase, 'SQLite'), purchases, 0.6),
    ratio('purchases, PostgreSQL', 'purchases, memory', find(results.purchase, 'PostgreSQL'), purchases, 0.3),
  ];
}

const met = (r: Ratio) => (r.value === undefined ? 'skipped' : r.value >= r.goal ? 'yes' : 'no');

/** The ratios as the console table `npm run bench` ends with. */
export function ratiosText(results: StoresResults): string {
  const rows = ratiosOf(results).map((r) => [
    r.path,
    r.of,
    r.value === undefined ? '-' : r.value.toFixed(2),
    `>= ${r.goal}`,
    met(r),
    r.fromMedians === undefined ? '-' : r.fromMedians.toFixed(2),
  ]);
  const head = ['path', 'ratio of', 'ratio', 'goal', 'met', 'from p50'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  return [head, ...rows].map((row) => row.map((cell, i) => (i >= 2 && i !== 4 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}

const thousands = (n: number) => Math.round(n).toLocaleString('en-US');

/** The rates and ratios as a markdown table, generated from the results file. */
export function ratiosMarkdown(results: StoresResults): string {
  const ratios = ratiosOf(results);
  const value = (r: Ratio | undefined) => (r?.value === undefined ? 'skipped' : r.value >= r.goal ? r.value.toFixed(2) : `**${r.value.toFixed(2)}**`);
  const median = (r: Ratio | undefined) => (r === undefined ? '1.00' : r.fromMedians === undefined ? '-' : r.fromMedians.toFixed(2));
  const row = (path: string, figures: Figures | undefined, ratio: Ratio | undefined) =>
    `| ${path} | ${figures ? `${thousands(figures.perSecond)}/s` : 'skipped'} | ${ratio ? value(ratio) : '1.00'} | ${ratio ? `>= ${ratio.goal}` : ''} | ${figures ? `${thousands(figures.p50Us)} µs` : ''} | ${median(ratio)} |`;
  const env = results.environment;
  const load = env.load ? `, load average ${env.load.map((l) => l.toFixed(2)).join(' ')} at the start` : '';
  return [
    '| path | rate | ratio | goal | p50 | ratio from p50 |',
    '|---|---|---|---|---|---|',
    row('in-process verification, memory store', find(results.verify, 'memory'), undefined),
    row('in-process verification, Redis', find(results.verify, 'Redis'), ratios[0]),
    row('verification through `serve` over HTTP, memory', find(results.overHttp, 'memory'), ratios[1]),
    row('purchases (presentations), memory', find(results.purchase, 'memory'), undefined),
    row('purchases (presentations), SQLite', find(results.purchase, 'SQLite'), ratios[2]),
    row('purchases (presentations), PostgreSQL', find(results.purchase, 'PostgreSQL'), ratios[3]),
    '',
    `One run of \`bench/stores.bench.ts\` (Node ${env.node}, ${env.cpus} × ${env.cpu}${load}); a ratio in bold misses its goal. The goals are judged on rates; the ratio from p50 latencies (base p50 / p50) moves less when a neighbour takes the CPU for a while (none over HTTP, whose requests go 8 at a time).`,
  ].join('\n');
}
