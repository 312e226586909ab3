import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'parse5';
import { describe, expect, test } from 'vitest';
import { WIDGET_MANIFEST, WIDGET_PROBLEMS, WIDGET_SDK } from '../../src/spec/widgets.js';
import { BundleReadError, checkBundle, findManifestLink, injectSdkScript, readBundleFolder, resolveEntryHtml } from '../../src/widgets/bundle/index.js';
import { PROJECT_ROOT } from '../paths.js';

const FIXTURES = `${PROJECT_ROOT}tests/fixtures/widgets`;
const decode = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

function scriptSrcs(html: string): string[] {
  const out: string[] = [];
  const walk = (n: { tagName?: string; attrs?: Array<{ name: string; value: string }>; childNodes?: unknown[] }) => {
    if (n.tagName === 'script') out.push(n.attrs!.find((a) => a.name === 'src')?.value ?? '(inline)');
    for (const c of n.childNodes ?? []) walk(c as typeof n);
  };
  walk(parse(html) as never);
  return out;
}

describe('readBundleFolder', () => {
  test('reads a folder as folder-relative paths with /, leaving out symbolic links', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'apc-widget-'));
    await mkdir(join(dir, 'tools', 'deep'), { recursive: true });
    await writeFile(join(dir, 'widget.json'), '{}');
    await writeFile(join(dir, 'tools', 'deep', 'a.js'), 'x');
    await symlink('/etc/hostname', join(dir, 'outside.txt'));
    const files = await readBundleFolder(dir);
    expect([...files.keys()].sort()).toEqual(['tools/deep/a.js', 'widget.json']);
    expect(decode(files.get('tools/deep/a.js'))).toBe('x');
  });

  test('reads a single .html file as a one-child folder, judged as the publish wraps it (2.5)', async () => {
    const files = await readBundleFolder(`${FIXTURES}/single.html`);
    expect([...files.keys()]).toEqual(['single.html']);
    const report = checkBundle(files);
    expect(report.wrappedFrom).toBe('single.html');
    expect(report.entry).toBe(WIDGET_MANIFEST.defaultEntry);
    expect(report.errors).toEqual([]);
    expect(report.valid).toBe(true);
    expect(report.manifest?.name).toBe('single');
    expect(report.manifest?.tools).toEqual([]);
  });

  test('a missing path or a file that is not HTML is a BundleReadError naming it', async () => {
    await expect(readBundleFolder(`${FIXTURES}/nope`)).rejects.toThrow(BundleReadError);
    await expect(readBundleFolder(`${FIXTURES}/nope`)).rejects.toThrow(/nope": no such folder or file/);
    await expect(readBundleFolder(`${FIXTURES}/valid/widget.json`)).rejects.toThrow(/give a widget folder or a single \.html file/);
  });
});

describe('checkBundle on a single HTML file (2.5: auto-wrapped into a one-child folder on publish)', () => {
  const one = (path: string, html: string) => new Map([[path, new TextEncoder().encode(html)]]);

  test('needs neither widget.json nor a link: the platform writes the manifest beside it', () => {
    const report = checkBundle(one('page.html', '<!doctype html><title>Counter</title><p>hi</p>'));
    expect(report.errors).toEqual([]);
    expect(report.valid).toBe(true);
    expect(report.manifest?.name).toBe('Counter');
    expect(report.entry).toBe('index.html');
    expect(report.csp.fallback).toBe(false);
  });

  test('a widget-manifest link leading elsewhere than widget.json is still entry_not_linked', () => {
    const report = checkBundle(one('page.html', '<link rel="widget-manifest" href="/widget.json">'));
    expect(report.valid).toBe(false);
    expect(report.errors).toEqual([
      {
        code: 'entry_not_linked',
        path: 'index.html',
        message:
          '(the single file page.html, which the publish wraps as index.html beside the widget.json it writes) links its manifest as "/widget.json", which does not lead there: write <link rel="widget-manifest" href="widget.json"> or drop the link',
      },
    ]);
  });

  test('a folder of an entry and another file is not wrapped: manifest_missing and entry_not_linked stand', () => {
    const files = new Map([
      ['index.html', new TextEncoder().encode('<p>no link</p>')],
      ['app.js', new TextEncoder().encode('')],
    ]);
    expect(checkBundle(files).errors.map((e) => [e.code, e.path])).toEqual([
      ['manifest_missing', 'widget.json'],
      ['entry_not_linked', 'index.html'],
    ]);
  });
});

describe('checkBundle on the fixture folders', () => {
  test('the valid fixture passes, with its manifest, entry and merged policy', async () => {
    const report = checkBundle(await readBundleFolder(`${FIXTURES}/valid`));
    expect(report.errors).toEqual([]);
    expect(report.valid).toBe(true);
    expect(report.entry).toBe('index.html');
    expect(report.manifest?.tools.map((t) => t._meta.platform.file)).toEqual(['tools/increment.js']);
    expect(report.csp.fallback).toBe(false);
    expect(report.csp.policy).toContain('connect-src https://api.example.com wss://api.example.com');
  });

  test('a problem names the tool and the pointer to fix when a source is missing', () => {
    const files = new Map([
      ['widget.json', new TextEncoder().encode(JSON.stringify({ name: 'w', version: '1', tools: [{ name: 'add' }] }))],
      ['index.html', new TextEncoder().encode('<link rel=widget-manifest href=widget.json>')],
    ]);
    expect(checkBundle(files).errors).toEqual([
      {
        code: WIDGET_PROBLEMS.toolSourceMissing.code,
        path: 'tools/add.js',
        message: 'is not in the folder, but tool "add" (/tools/0) needs it as its source: add it or set /tools/0/_meta/platform/file',
      },
    ]);
  });
});

describe('the manifest link, read with an HTML parser', () => {
  test.each([
    ['<link rel="widget-manifest" href="widget.json">', 'index.html', true],
    ['<link rel="widget-manifest" href="./widget.json?v=2">', 'index.html', true],
    ['<LINK REL="stylesheet WIDGET-MANIFEST" HREF="widget.json">', 'index.html', true],
    ['<body><link rel="widget-manifest" href="widget.json"></body>', 'index.html', true],
    ['<link rel="widget-manifest" href="../widget.json">', 'app/index.html', true],
    ['<link rel="widget-manifest" href="widget.json">', 'app/index.html', false],
    ['<link rel="widget-manifest" href="https://example.com/widget.json">', 'index.html', false],
    ['<link rel="widget-manifest">', 'index.html', false],
    ['<script>"<link rel=widget-manifest href=widget.json>"</script>', 'index.html', false],
    ['<template><link rel="widget-manifest" href="widget.json"></template>', 'index.html', false],
  ])('%s in %s: %s', (html, entry, linked) => {
    expect(findManifestLink(html, entry).linked).toBe(linked);
  });
});

describe('the SDK injected by the resolver', () => {
  test('goes into <head> before the first script, once', () => {
    const html = injectSdkScript(
      '<!doctype html><html><head><meta charset="utf-8"><script src="app.js"></script></head><body><script>run()</script></body></html>',
    );
    expect(scriptSrcs(html)).toEqual([WIDGET_SDK.path, 'app.js', '(inline)']);
    expect(scriptSrcs(injectSdkScript(html))).toEqual([WIDGET_SDK.path, 'app.js', '(inline)']);
  });

  test('a fragment gets a document with the SDK in its head', () => {
    expect(scriptSrcs(injectSdkScript('<p>hi</p>'))).toEqual([WIDGET_SDK.path]);
    expect(injectSdkScript('<p>hi</p>')).toMatch(/^<html><head><script src="\/widgets\/sdk\.v2\.js"><\/script><\/head><body><p>hi<\/p><\/body><\/html>$/);
  });

  test("resolveEntryHtml serves the manifest's entry with the SDK", async () => {
    const files = await readBundleFolder(`${FIXTURES}/valid`);
    const report = checkBundle(files);
    const html = resolveEntryHtml(files, report.manifest!)!;
    expect(scriptSrcs(html)[0]).toBe(WIDGET_SDK.path);
    expect(findManifestLink(html, 'index.html').linked).toBe(true);
  });
});
