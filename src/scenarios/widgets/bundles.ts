import { LIMITS } from '../../spec/limits.js';
import { WIDGET_PROBLEMS } from '../../spec/widgets.js';
import type { ExpectedProblem } from './manifests.js';
import { DEFAULT_POLICY_TEXT } from './policies.js';

/** A file of a bundle case: its text, or `size` bytes of one ASCII character (keeps large files small here). */
export type BundleFile = { readonly text: string } | { readonly fill: string; readonly size: number };

export interface BundleScenario {
  readonly id: string;
  readonly comment: string;
  readonly files: Readonly<Record<string, BundleFile>>;
  readonly errors: readonly ExpectedProblem[];
  readonly csp: { readonly policy: string; readonly fallback: boolean };
  /** The entry's path when the folder has it. */
  readonly entry: string | null;
  readonly flags: readonly string[];
}

const P = WIDGET_PROBLEMS;
const MAX = LIMITS.functionSourceSize.value;
const text = (t: string): BundleFile => ({ text: t });
const manifest = (value: unknown): BundleFile => text(JSON.stringify(value, null, 2));
const page = (head: string): BundleFile => text(`<!doctype html>\n<html><head>${head}</head><body><div id="app"></div></body></html>\n`);
const LINKED = page('<meta charset="utf-8"><link rel="widget-manifest" href="widget.json"><script src="app.js"></script>');
const TOOL = text('export default async function add({ a, b }) { return a + b; }\n');

export const BUNDLE_SCENARIOS: readonly BundleScenario[] = [
  {
    id: 'valid-folder',
    comment: 'entry linked, tool source present, icon present, good CSP lists',
    files: {
      'widget.json': manifest({
        name: 'calc',
        version: '1.0.0',
        _meta: { ui: { csp: { connectDomains: ['api.example.com'] } }, platform: { iconRef: 'icon.svg' } },
        tools: [{ name: 'add', _meta: { ui: { visibility: ['app', 'model'] } } }],
      }),
      'index.html': LINKED,
      'tools/add.js': TOOL,
      'icon.svg': text('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      'app.js': text('console.log(1);\n'),
    },
    errors: [],
    csp: {
      policy:
        "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src https://api.example.com wss://api.example.com; frame-src 'none'; object-src 'none'; base-uri 'self'",
      fallback: false,
    },
    entry: 'index.html',
    flags: ['Valid'],
  },
  {
    id: 'entry-elsewhere',
    comment: 'resourceUri names a nested entry, which links the manifest with ../widget.json; rel is case-insensitive and may hold several tokens',
    files: {
      'widget.json': manifest({ name: 'w', version: '1', _meta: { ui: { resourceUri: 'app/main.html' } } }),
      'app/main.html': page('<link rel="Widget-Manifest preload" href="../widget.json">'),
    },
    errors: [],
    csp: { policy: DEFAULT_POLICY_TEXT, fallback: false },
    entry: 'app/main.html',
    flags: ['Valid', 'Link'],
  },
  {
    id: 'tool-at-limit',
    comment: `a function source of exactly ${MAX} bytes (64 KB) is accepted`,
    files: { 'widget.json': manifest({ name: 'w', version: '1', tools: [{ name: 'big' }] }), 'index.html': LINKED, 'tools/big.js': { fill: ' ', size: MAX } },
    errors: [],
    csp: { policy: DEFAULT_POLICY_TEXT, fallback: false },
    entry: 'index.html',
    flags: ['Valid', 'Limit'],
  },
  {
    id: 'tool-over-limit',
    comment: 'one byte over 64 KB is CODE_TOO_LARGE',
    files: {
      'widget.json': manifest({ name: 'w', version: '1', tools: [{ name: 'big' }] }),
      'index.html': LINKED,
      'tools/big.js': { fill: ' ', size: MAX + 1 },
    },
    errors: [{ code: P.codeTooLarge.code, path: 'tools/big.js' }],
    csp: { policy: DEFAULT_POLICY_TEXT, fallback: false },
    entry: 'index.html',
    flags: ['Limit'],
  },
  {
    id: 'tool-source-missing',
    comment: 'each declared tool needs its source: the default path and a declared one',
    files: {
      'widget.json': manifest({ name: 'w', version: '1', tools: [{ name: 'add' }, { name: 'sub', _meta: { platform: { file: 'lib/sub.js' } } }] }),
      'index.html': LINKED,
      'tools/sub.js': TOOL,
    },
    errors: [
      { code: P.toolSourceMissing.code, path: 'tools/add.js' },
      { code: P.toolSourceMissing.code, path: 'lib/sub.js' },
    ],
    csp: { policy: DEFAULT_POLICY_TEXT, fallback: false },
    entry: 'index.html',
    flags: ['Tools'],
  },
  {
    id: 'entry-not-linked',
    comment: 'no widget-manifest link (a link with another rel, or in a template, does not count)',
    files: {
      'widget.json': manifest({ name: 'w', version: '1' }),
      'index.html': page('<link rel="manifest" href="widget.json"><template><link rel="widget-manifest" href="widget.json"></template>'),
    },
    errors: [{ code: P.entryNotLinked.code, path: 'index.html' }],
    csp: { policy: DEFAULT_POLICY_TEXT, fallback: false },
    entry: 'index.html',
    flags: ['Link'],
  },
  {
    id: 'link-points-elsewhere',
    comment: 'the widget-manifest link must lead to widget.json by a relative href',
    files: { 'widget.json': manifest({ name: 'w', version: '1' }), 'index.html': page('<link rel="widget-manifest" href="/widget.json">') },
    errors: [{ code: P.entryNotLinked.code, path: 'index.html' }],
    csp: { policy: DEFAULT_POLICY_TEXT, fallback: false },
    entry: 'index.html',
    flags: ['Link'],
  },
  {
    id: 'link-in-comment',
    comment: 'a link inside an HTML comment is no link (a regular expression would be fooled)',
    files: { 'widget.json': manifest({ name: 'w', version: '1' }), 'index.html': page('<!-- <link rel="widget-manifest" href="widget.json"> -->') },
    errors: [{ code: P.entryNotLinked.code, path: 'index.html' }],
    csp: { policy: DEFAULT_POLICY_TEXT, fallback: false },
    entry: 'index.html',
    flags: ['Link'],
  },
  {
    id: 'entry-missing',
    comment: 'resourceUri names a file the folder lacks',
    files: { 'widget.json': manifest({ name: 'w', version: '1', _meta: { ui: { resourceUri: 'main.html' } } }), 'index.html': LINKED },
    errors: [{ code: P.entryMissing.code, path: 'main.html' }],
    csp: { policy: DEFAULT_POLICY_TEXT, fallback: false },
    entry: null,
    flags: ['Link'],
  },
  {
    id: 'single-html-file',
    comment: 'a single HTML file is judged as its publish wraps it (2.5): the entry of a one-child folder beside the manifest the platform writes',
    files: { 'index.html': LINKED },
    errors: [],
    csp: { policy: DEFAULT_POLICY_TEXT, fallback: false },
    entry: 'index.html',
    flags: ['SingleFile'],
  },
  {
    id: 'single-html-file-unlinked',
    comment: 'a single HTML file under another name and without a manifest link: the platform writes the manifest, so nothing is missing',
    files: { 'card.html': page('<title>Card</title>') },
    errors: [],
    csp: { policy: DEFAULT_POLICY_TEXT, fallback: false },
    entry: 'index.html',
    flags: ['SingleFile'],
  },
  {
    id: 'single-html-file-misdirected-link',
    comment: 'a single HTML file whose widget-manifest link leads elsewhere than the widget.json the publish writes beside it',
    files: { 'card.html': page('<link rel="widget-manifest" href="manifest.json">') },
    errors: [{ code: P.entryNotLinked.code, path: 'index.html' }],
    csp: { policy: DEFAULT_POLICY_TEXT, fallback: false },
    entry: 'index.html',
    flags: ['SingleFile', 'Link'],
  },
  {
    id: 'folder-without-manifest',
    comment: 'a folder of an HTML entry and another file is not wrapped: its manifest is missing',
    files: { 'index.html': LINKED, 'app.js': text('console.log(1);\n') },
    errors: [{ code: P.manifestMissing.code, path: 'widget.json' }],
    csp: { policy: DEFAULT_POLICY_TEXT, fallback: true },
    entry: 'index.html',
    flags: ['SingleFile'],
  },
  {
    id: 'csp-fallback',
    comment: 'a rejected CSP entry is reported and the bundle would render with the default policy',
    files: {
      'widget.json': manifest({
        name: 'w',
        version: '1',
        _meta: { ui: { csp: { connectDomains: ['api.example.com', '[::1]'], resourceDomains: ['*.cdn.example.com'] } } },
      }),
      'index.html': LINKED,
    },
    errors: [
      { code: P.cspDomainRejected.code, path: '/_meta/ui/csp/connectDomains/1' },
      { code: P.cspDomainRejected.code, path: '/_meta/ui/csp/resourceDomains/0' },
    ],
    csp: { policy: DEFAULT_POLICY_TEXT, fallback: true },
    entry: 'index.html',
    flags: ['Fallback', 'IpLiteral', 'Wildcard'],
  },
  {
    id: 'invalid-manifest-csp-still-checked',
    comment: 'a manifest that fails its schema still has its CSP entries checked',
    files: { 'widget.json': manifest({ name: 'w', _meta: { ui: { csp: { frameDomains: ['data:'] } } } }), 'index.html': LINKED },
    errors: [
      { code: P.manifestInvalid.code, path: '/version' },
      { code: P.cspDomainRejected.code, path: '/_meta/ui/csp/frameDomains/0' },
    ],
    csp: { policy: DEFAULT_POLICY_TEXT, fallback: true },
    entry: 'index.html',
    flags: ['Fallback', 'Shape'],
  },
  {
    id: 'assets-missing',
    comment: 'iconRef and themeRef name files the folder lacks',
    files: {
      'widget.json': manifest({ name: 'w', version: '1', _meta: { platform: { iconRef: 'icon.png', themeRef: 'css/theme.css' } } }),
      'index.html': LINKED,
    },
    errors: [
      { code: P.assetMissing.code, path: 'icon.png' },
      { code: P.assetMissing.code, path: 'css/theme.css' },
    ],
    csp: { policy: DEFAULT_POLICY_TEXT, fallback: false },
    entry: 'index.html',
    flags: ['Assets'],
  },
  {
    id: 'manifest-not-json',
    comment: 'an unreadable manifest: nothing else of it can be checked',
    files: { 'widget.json': text('{ "name": "w", '), 'index.html': LINKED },
    errors: [{ code: P.manifestNotJson.code, path: 'widget.json' }],
    csp: { policy: DEFAULT_POLICY_TEXT, fallback: true },
    entry: 'index.html',
    flags: ['Syntax'],
  },
];

/** The bytes of a bundle case's file. */
export function bundleFileBytes(file: BundleFile): Uint8Array {
  return 'text' in file ? new TextEncoder().encode(file.text) : new Uint8Array(file.size).fill(file.fill.charCodeAt(0));
}
