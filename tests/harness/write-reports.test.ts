import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportHtml } from '../../src/harness/report-html.js';
import { validateReport } from '../../src/harness/report-schema.js';
import { junitXml } from '../../src/harness/junit.js';
import { summaryMarkdown, writeReports } from '../../src/harness/write-reports.js';
import { failingReport } from './sample-reports.js';

describe('writeReports', () => {
  it('writes report.json, junit.xml, report.html and summary.md under the run id, leaving no partial file', () => {
    const out = mkdtempSync(join(tmpdir(), 'apc-write-'));
    const r = failingReport();
    const runDir = writeReports(out, r);
    expect(runDir).toBe(join(out, r.runId));
    expect(readdirSync(runDir).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
    const json: unknown = JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8'));
    expect(json).toEqual(r);
    expect(validateReport(json)).toEqual({ valid: true, errors: [] });
    expect(readFileSync(join(runDir, 'report.html'), 'utf8')).toBe(reportHtml(r));
    expect(readFileSync(join(runDir, 'junit.xml'), 'utf8')).toBe(junitXml(r));
    expect(readFileSync(join(runDir, 'summary.md'), 'utf8')).toBe(summaryMarkdown(r));
  });

  it('overwrites the files of a run written again', () => {
    const out = mkdtempSync(join(tmpdir(), 'apc-write-'));
    const r = failingReport();
    writeReports(out, r);
    const runDir = writeReports(out, { ...r, seed: 2 });
    expect(readdirSync(runDir).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
    expect(readFileSync(join(runDir, 'report.html'), 'utf8')).toContain('data-seed="2"');
  });
});
