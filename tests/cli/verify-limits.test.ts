import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readVectors } from '../../suites/lib/vectors.js';
import { runCli, STACK_LINE, tempDir } from './run-cli.js';

/**
 * Cases at and past every size limit of section 8 load and verify through `verify`, with every body written as
 * `body_base64` (a 4 MiB body is 5.6 million base64 characters): the case schema must not choke on its size.
 */
type Json = Record<string, any>;

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** The same case with each request body and each document body spelled as body_base64. */
function asBase64(c: Json): Json {
  const copy = structuredClone(c);
  for (const step of copy.steps) {
    const request = step.request;
    if (request.body_fill) {
      request.body_base64 = Buffer.alloc(request.body_fill.length, request.body_fill.byte).toString('base64');
      delete request.body_fill;
    } else if (typeof request.body === 'string') {
      request.body_base64 = base64(request.body);
      delete request.body;
    }
  }
  for (const documents of [copy.documents, ...copy.steps.map((s: Json) => s.documents)]) {
    for (const document of Object.values<Json>(documents ?? {})) {
      if (typeof document.body === 'string') {
        document.body_base64 = base64(document.body);
        delete document.body;
      }
    }
  }
  const { flags: _flags, ...rest } = copy;
  return { ...rest, platform: rest.platform ?? { authority: 'platform.example' } };
}

const vectors = readVectors('signed-requests.json');
const boundaryCases = vectors.testGroups.flatMap((g) => g.cases).filter((c) => c.flags?.some((f) => f === 'Boundary' || f === 'LargeBody'));

describe('verify: cases at and past the size limits, bodies as body_base64', () => {
  it('has cases on both sides of the 4 MiB body, 64 KiB document and 16-key limits', () => {
    const ids = boundaryCases.map((c) => c.id);
    for (const id of ['body-exactly-4-mib', 'body-too-large-by-one', 'key-set-over-64-kib', 'key-set-16-keys', 'key-set-17-keys']) expect(ids).toContain(id);
  });

  it.each(boundaryCases.map((c) => [c.id, c] as const))(
    '%s loads and every step meets its expect',
    async (_id, c) => {
      const dir = await tempDir();
      const file = join(dir, 'case.json');
      await writeFile(file, JSON.stringify(asBase64(c as Json)));
      const run = await runCli(['verify', file, '--json']);
      expect(run.stderr).not.toMatch(STACK_LINE);
      expect(run.stderr).toBe('');
      const steps = (JSON.parse(run.stdout) as { steps: Array<{ matches_expect: boolean | null }> }).steps;
      expect(steps.map((s) => s.matches_expect)).toEqual(steps.map(() => true));
      expect(run.code).toBe(0);
    },
    60_000,
  );

  it('refuses a body_base64 that is not padded base64, naming the member', async () => {
    const c = asBase64(boundaryCases.find((x) => x.id === 'body-exactly-4-mib') as Json);
    c.steps[0].request.body_base64 = 'abc';
    const dir = await tempDir();
    await writeFile(join(dir, 'case.json'), JSON.stringify(c));
    const run = await runCli(['verify', join(dir, 'case.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('steps/0/request/body_base64: must be standard base64 (A-Z, a-z, 0-9, + and /, padded with =)');
  });
});
