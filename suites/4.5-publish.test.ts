import { afterAll, describe, expect } from 'vitest';
import { SUITE_WIDGET_MARKER, suiteWidgetFiles } from '../src/harness/widget-bundle.js';
import { jsonBody, type SentExchange } from '../src/harness/widget-session.js';
import { remixNumberOf, splitSlugPair } from '../src/harness/widget-slug.js';
import { BRIDGE_ERRORS } from '../src/spec/bridge-errors.js';
import { HEADERS } from '../src/spec/headers.js';
import { MEDIA_TYPES } from '../src/spec/media-types.js';
import { BUNDLE_REQUIREMENTS, PUBLISH_REQUIREMENTS } from '../src/spec/publish-requirements.js';
import { READINGS } from '../src/spec/readings.js';
import { REQUIREMENTS } from '../src/spec/requirements.js';
import { WIDGET_MANIFEST, WIDGET_PROBLEMS } from '../src/spec/widgets.js';
import { MemoryToolUsage, type AgentRecord } from '../src/widgets/publish/index.js';
import type { CheckContext } from './lib/check.js';
import { suiteTarget } from './lib/target.js';
import {
  catalogFinding,
  is2xx,
  readEntryText,
  stringMember,
  toolErrorCode,
  unreadableCatalogReason,
  widgetCheck,
  widgetRef,
  widgetShouldCheck,
  withManifest,
  withOwnSession,
  type OwnSession,
  type Publishing,
  type WidgetRef,
} from './lib/widgets.js';

/**
 * Section 4.5 over HTTP: publish a folder, refuse a caller who does not own it, re-publish in place, and what steps 2
 * to 4 produce (the agent's slug, a function per tool, the agent's HTTP endpoints and custom tools, billing) and the
 * bundle rules of 2.5 a publish meets. Folders are made with the reference's own upload (REFERENCE_ONLY_ROUTES, not
 * part of the spec); a deployment without it cannot be given a folder by the suite, so its checks are not run.
 * Publish answers are not shown by the spec; a 2xx with the post id is how the reference (and this suite) read a
 * publish, and what else a check reads from it is named by READING-WIDGET-PUBLISH-OBSERVED.
 */
const target = suiteTarget();
afterAll(() => target.close());

function expect2xx(sent: SentExchange, what: string): void {
  expect(sent.response.status, what).toBeGreaterThanOrEqual(200);
  expect(sent.response.status, what).toBeLessThan(300);
}

/** A refusal of the caller's publish: 4xx, and not a 401, which would refuse the credential instead. */
function expectRefusal(sent: SentExchange, what: string): void {
  expect(sent.response.status, what).toBeGreaterThanOrEqual(400);
  expect(sent.response.status, what).toBeLessThan(500);
  expect(sent.response.status, `${what}: a 401 would refuse the credential, not the folder`).not.toBe(401);
}

const READ = READINGS.widgetPublishObserved.id;
/** What only the file a manifest names carries, and what the default file beside it carries instead. */
const NAMED_ENTRY = 'conformance-named-entry';
const DECOY = 'conformance-default-file-decoy';

/** The agent's slug: the publish answer's `agentSlug`, else the catalog entry's (READING-WIDGET-PUBLISH-OBSERVED). */
async function agentSlugOf(c: CheckContext, own: OwnSession, p: Publishing): Promise<string> {
  const named = stringMember(p.published, 'agentSlug');
  if (named !== undefined) return named;
  const entry = p.postId === undefined ? undefined : (await catalogFinding(own.session, widgetRef(own.session, p.postId, p.published))).found?.entries[0];
  if (typeof entry?.agentSlug === 'string') return entry.agentSlug;
  return c.notRun(`the deployment names the widget's agent neither in the publish answer nor in its catalog entry (agentSlug, ${READ})`);
}

/** The configuration step 4 stamped, as the publish answer reports it (the reference's `steps`), or why there is none. */
function stampedConfiguration(c: CheckContext, p: Publishing): { httpEndpoints?: Array<{ path?: unknown; method?: unknown; function?: unknown }> } {
  const steps = (jsonBody(p.published.response) as { steps?: Array<{ configuration?: unknown }> } | undefined)?.steps;
  const configuration = Array.isArray(steps) ? steps.find((s) => s.configuration !== undefined)?.configuration : undefined;
  if (configuration === undefined || configuration === null || typeof configuration !== 'object')
    return c.notRun(`the publish answer reports no stamped configuration, so the agent's endpoint paths are unknown (the spec gives none, ${READ})`);
  return configuration as { httpEndpoints?: Array<{ path?: unknown; method?: unknown; function?: unknown }> };
}

/** The embedded reference's agent record for a slug (in-process only: no public surface shows it). */
async function agentRecord(c: CheckContext, own: OwnSession, slug: string): Promise<AgentRecord> {
  const widgets = own.session.target.widgets;
  if (!widgets) return c.notRun(`no public surface shows an agent's configuration or a tool call's rows; checked in-process only (${READ})`);
  const agent = await widgets.store.findAgentBySlug(slug);
  if (!agent) return expect.fail(`the reference's store holds no agent ${slug}`);
  return agent;
}

/**
 * How many entries the catalog's list holds, found through a widget the check published first (READING-CATALOG-SHAPE):
 * not-run when the catalog names it nowhere, so that "no new entry" is never judged on a list the suite cannot see.
 */
async function listedBeside(c: CheckContext, own: OwnSession, anchor: WidgetRef): Promise<number> {
  const { sent, found } = await catalogFinding(own.session, anchor);
  expect(sent.response.status, 'status of the catalog').toBe(200);
  return found?.listed ?? c.notRun(unreadableCatalogReason(anchor));
}

/** Publishes the suites' bundle as `name` and answers how the catalog may name it. */
async function anchor(own: OwnSession, name: string): Promise<WidgetRef> {
  const p = await own.published('alice', suiteWidgetFiles(name));
  return widgetRef(own.session, p.postId, p.published);
}

/** A check that a publish of `files` is refused and lists nothing new. */
function refusedPublishCheck(
  id: string,
  title: string,
  requirement: string,
  files: () => Record<string, string> | Record<string, Record<string, string>>,
  level: 'MUST' | 'SHOULD' = 'MUST',
): void {
  (level === 'MUST' ? widgetCheck : widgetShouldCheck)({
    id,
    title,
    requirements: [requirement],
    run: (c) =>
      withOwnSession(c, `widgets-4-5-${id}`, async (own) => {
        const ref = await anchor(own, `Conformance Anchor ${id}`);
        const before = await listedBeside(c, own, ref);
        const made = files();
        // One bundle, or several by what is wrong with each.
        const bundles = Object.values(made).every((v) => typeof v === 'string')
          ? { bundle: made as Record<string, string> }
          : (made as Record<string, Record<string, string>>);
        for (const [what, bundle] of Object.entries(bundles)) {
          const p = await own.publish('alice', bundle);
          expectRefusal(p.published, `status of the publish (${what})`);
        }
        expect(await listedBeside(c, own, ref), 'catalog entries after the refused publishes').toBe(before);
      }),
  });
}

type Manifest = Record<string, unknown> & { _meta: { ui: Record<string, unknown>; platform: Record<string, unknown> }; tools: Array<Record<string, unknown>> };

/** The suites' bundle with one manifest change per entry of `edits`, each under its own name. */
function manifestsWith(edits: Record<string, (m: Manifest) => void>): Record<string, Record<string, string>> {
  return Object.fromEntries(
    Object.entries(edits).map(([what, edit], i) => [what, withManifest(`Conformance Mistyped Widget ${i}`, (m) => edit(m as Manifest))]),
  );
}

/** A tool's `_meta` of the given part, made if absent. */
function toolMeta(m: Manifest, tool: number, part: 'ui' | 'platform'): Record<string, unknown> {
  const t = m.tools[tool]!;
  const meta = (t._meta ??= {}) as Record<string, Record<string, unknown>>;
  return (meta[part] ??= {});
}

describe(`4.5 publish pipeline (${target.description})`, () => {
  widgetCheck({
    id: 'publish.owned-folder',
    title: 'publishes a folder its caller owns',
    requirements: [REQUIREMENTS.widgetPublishAccepted.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-5-owned', async (own) => {
        const p = await own.publish('alice', suiteWidgetFiles('Conformance Publish Widget'));
        expect2xx(p.published, 'status of the first publish');
        expect(p.postId, 'the post id in the answer').toEqual(expect.any(String));
      }),
  });

  widgetCheck({
    id: 'publish.not-owner-refused',
    title: 'refuses to publish a folder for a caller who does not own it',
    requirements: [REQUIREMENTS.widgetPublishOwnership.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-5-not-owner', async (own) => {
        const mine = await own.published('alice', suiteWidgetFiles('Conformance Owned Widget'));
        const ref = widgetRef(own.session, mine.postId, mine.published);
        const before = await listedBeside(c, own, ref);
        const sent = await own.session.publish('bob', mine.folderId);
        expectRefusal(sent, 'status of a publish by someone else');
        expect(await listedBeside(c, own, ref), 'catalog entries after the refused publish').toBe(before);
      }),
  });

  widgetCheck({
    id: 'publish.republish-in-place',
    title: 're-publishing an unchanged folder refreshes its listing in place',
    requirements: [REQUIREMENTS.widgetRepublishInPlace.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-5-republish', async (own) => {
        const first = await own.published('alice', suiteWidgetFiles('Conformance Republished Widget'));
        const again = await own.session.publish('alice', first.folderId);
        expect2xx(again, 'status of the second publish');
        expect(stringMember(again, 'postId'), 'the post of the second publish').toBe(first.postId);
        const ref = widgetRef(own.session, first.postId, first.published);
        const { found } = await catalogFinding(own.session, ref);
        if (!found) return c.notRun(unreadableCatalogReason(ref));
        expect(found.entries, 'catalog entries of the folder after two publishes').toHaveLength(1);
      }),
  });

  widgetCheck({
    id: 'publish.agent-slug',
    title: "the same bundle published by two users gets two agents <prefix>-<userId6>-<bundleSlug>, differing in the user's part",
    requirements: [PUBLISH_REQUIREMENTS.agentSlug.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-5-slug', async (own) => {
        const files = suiteWidgetFiles('Conformance Slug Widget');
        const alice = await own.published('alice', files);
        const bob = await own.published('bob', files);
        const [a, b] = [await agentSlugOf(c, own, alice), await agentSlugOf(c, own, bob)];
        expect(a, "two users' agents have two slugs").not.toBe(b);
        const split = splitSlugPair(a, b);
        expect(split, `${a} and ${b} as <prefix>-<userId6>-<bundleSlug>: one prefix, one bundle slug, six-character user parts`).not.toBeNull();
      }),
  });

  widgetCheck({
    id: 'publish.remix-slug',
    title: "a remix's agent slug is the remixed widget's slug with -r<N> appended",
    requirements: [PUBLISH_REQUIREMENTS.agentSlug.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-5-remix', async (own) => {
        const files = suiteWidgetFiles('Conformance Remix Widget');
        const original = await own.published('alice', files);
        const catalogId = stringMember(original.published, 'catalogId');
        if (catalogId === undefined) c.notRun(`the publish answer names no catalog record a remix could name (catalogId, ${READ})`);
        const remix = await own.published('alice', files, catalogId);
        const [slug, remixSlug] = [await agentSlugOf(c, own, original), await agentSlugOf(c, own, remix)];
        expect(remixNumberOf(remixSlug, slug), `${remixSlug} is ${slug}-r<N>, N a positive integer`).not.toBeNull();
      }),
  });

  widgetCheck({
    id: 'publish.remix-of-informational',
    title: "a manifest whose _meta.platform.remixOf names another widget publishes as no remix: its agent's slug has no -r<N>",
    requirements: [BUNDLE_REQUIREMENTS.remixOfInformational.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-5-remix-of', async (own) => {
        const original = await own.published('alice', suiteWidgetFiles('Conformance Lineage Widget'));
        const named = stringMember(original.published, 'catalogId') ?? original.postId;
        const files = withManifest('Conformance Lineage Copy', (m) => {
          (m._meta as { platform: Record<string, unknown> }).platform.remixOf = named;
        });
        const copy = await own.published('alice', files);
        const slug = await agentSlugOf(c, own, copy);
        expect(slug, `${slug}: the manifest's remixOf (${named}) is informational only; a remix's slug would end in -r<N>`).not.toMatch(/-r\d+$/);
      }),
  });

  widgetCheck({
    id: 'publish.resource-uri',
    title: 'a widget whose _meta.ui.resourceUri names app/main.html is served with that file as its entry, not index.html',
    requirements: [BUNDLE_REQUIREMENTS.resourceUri.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-5-resource-uri', async (own) => {
        const files = withManifest(
          'Conformance Entry Path Widget',
          (m) => {
            (m._meta as { ui: Record<string, unknown> }).ui.resourceUri = 'app/main.html';
          },
          {
            'app/main.html': `<!doctype html><html><head><title>main</title><link rel="${WIDGET_MANIFEST.linkRel}" href="../${WIDGET_MANIFEST.fileName}"></head><body><div id="${NAMED_ENTRY}"></div></body></html>`,
            [WIDGET_MANIFEST.defaultEntry]: `<!doctype html><html><head><title>decoy</title></head><body><div id="${DECOY}"></div></body></html>`,
          },
        );
        const text = await readEntryText(await own.mcp((await own.published('alice', files)).postId));
        expect(text, 'the entry the MCP App serves is app/main.html').toContain(NAMED_ENTRY);
        expect(text, 'the entry the MCP App serves').not.toContain(DECOY);
      }),
  });

  widgetCheck({
    id: 'publish.tool-file',
    title: 'a tool whose _meta.platform.file names src/forecast-impl.js runs that source, not tools/<name>.js',
    requirements: [BUNDLE_REQUIREMENTS.toolFile.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-5-tool-file', async (own) => {
        const files = withManifest(
          'Conformance Tool File Widget',
          (m) => {
            const tool = (m.tools as Array<{ _meta: Record<string, unknown> }>)[0]!;
            tool._meta.platform = { file: 'src/forecast-impl.js' };
          },
          {
            'src/forecast-impl.js': "module.exports = ({ city }) => ({ forecast: 'named source for ' + city });\n",
            [WIDGET_MANIFEST.defaultToolFile('forecast')]: `module.exports = () => ({ forecast: '${DECOY}' });\n`,
          },
        );
        const result = await (await own.mcp((await own.published('alice', files)).postId)).callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
        expect(JSON.stringify(result.content), 'forecast ran src/forecast-impl.js').toContain('named source for Oslo');
      }),
  });

  widgetCheck({
    id: 'publish.function-sources',
    title: 'every tool of the manifest gets its function: each answers tools/call',
    requirements: [PUBLISH_REQUIREMENTS.functionSources.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-5-functions', async (own) => {
        const p = await own.published('alice', suiteWidgetFiles('Conformance Function Widget'));
        const mcp = await own.mcp(p.postId);
        for (const [name, args] of [
          ['forecast', { city: 'Oslo' }],
          ['refresh', {}],
        ] as const) {
          const result = await mcp.callTool({ name, arguments: args });
          expect(toolErrorCode(result), `${name}: its function was materialised (${JSON.stringify(result.content)})`).toBeUndefined();
          expect(result.isError ?? false, `${name} answers a result`).toBe(false);
        }
        // In-process, the reference's own records too: one function source per tool.
        const widgets = own.session.target.widgets;
        if (widgets) {
          const agent = await agentRecord(c, own, await agentSlugOf(c, own, p));
          const sources = (await widgets.store.getFunctionSources(agent.id)).map((s) => s.tool).sort();
          expect(sources, 'function source records of the agent (in-process)').toEqual(['forecast', 'refresh']);
        }
      }),
  });

  widgetCheck({
    id: 'publish.agent-http-endpoint',
    title: "a tool exposed over http answers on its agent's base path, /agents/<slug>/<path>",
    requirements: [PUBLISH_REQUIREMENTS.agentHttpEndpoints.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-5-http', async (own) => {
        const p = await own.published('alice', suiteWidgetFiles('Conformance Http Widget', { tools: { forecast: { expose: ['http'] } } }));
        const slug = await agentSlugOf(c, own, p);
        const endpoints = stampedConfiguration(c, p).httpEndpoints ?? [];
        expect(
          endpoints.map((e) => e.function),
          'custom HTTP endpoints stamped: the exposed tool only',
        ).toEqual(['forecast']);
        const { path, method } = endpoints[0]!;
        if (typeof path !== 'string' || typeof method !== 'string')
          return void expect.fail(`the endpoint is not named by a path and a method: ${JSON.stringify(endpoints[0])}`);
        const url = own.session.url(`/agents/${encodeURIComponent(slug)}${path}`);
        const body = new TextEncoder().encode(JSON.stringify({ city: 'Oslo' }));
        const sent = await own.session.send(method, url, [[HEADERS.contentType, MEDIA_TYPES.json]], body);
        expect2xx(sent, `${method} ${url}`);
        expect(new TextDecoder().decode(sent.response.body), "the tool's answer").toContain('sunny in Oslo');
      }),
  });

  widgetCheck({
    id: 'publish.agent-custom-tools',
    title: "the agent is stamped with a function per tool and with the tools exposed as tool as its custom tools (in-process: the reference's records)",
    requirements: [PUBLISH_REQUIREMENTS.agentCustomTools.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-5-custom-tools', async (own) => {
        if (!own.session.target.widgets) c.notRun(`no public surface lists an agent's custom tools; checked in-process only (${READ})`);
        const files = suiteWidgetFiles('Conformance Tool Widget', { tools: { forecast: { expose: ['tool'] }, refresh: { expose: ['http'] } } });
        const p = await own.published('alice', files);
        const { configuration } = await agentRecord(c, own, await agentSlugOf(c, own, p));
        expect(configuration.functions.map((f) => f.name).sort(), 'functions').toEqual(['forecast', 'refresh']);
        expect(
          configuration.customTools.map((t) => t.name),
          'custom tools: the tool exposed as tool only',
        ).toEqual(['forecast']);
      }),
  });

  widgetCheck({
    id: 'publish.tool-billing',
    title: 'a billable tool writes a payment charge, a free tool attribution rows only (in-process: the reference ledger)',
    requirements: [PUBLISH_REQUIREMENTS.toolBilling.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-5-billing', async (own) => {
        const ledger = own.session.target.widgets?.usage;
        const usage =
          ledger instanceof MemoryToolUsage
            ? ledger
            : c.notRun(`no public surface shows a payment charge or an attribution row; checked in-process only (${READ})`);
        const billing = { currency: 'USD', amountNanocents: 2_500_000 };
        const p = await own.published('alice', suiteWidgetFiles('Conformance Billing Widget', { tools: { forecast: { billing } } }));
        const mcp = await own.mcp(p.postId);
        await mcp.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
        await mcp.callTool({ name: 'refresh', arguments: {} });
        const charges = (tool: string) => usage.charges.filter((r) => r.tool === tool);
        expect(
          charges('forecast').map(({ currency, amountNanocents }) => ({ currency, amountNanocents })),
          'charges of the billable tool',
        ).toEqual([billing]);
        expect(charges('refresh'), 'charges of the free tool').toEqual([]);
        expect(usage.attributions.filter((r) => r.tool === 'refresh').length, 'attribution rows of the free tool').toBeGreaterThan(0);
      }),
  });

  widgetCheck({
    id: 'publish.single-file-wrapped',
    title: 'a single HTML file is wrapped into a one-child folder on publish and served as the widget entry',
    requirements: [PUBLISH_REQUIREMENTS.singleFileWrapped.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-5-single-file', async (own) => {
        const html = `<!doctype html><html><head><title>Conformance Single Page</title></head><body><div id="${SUITE_WIDGET_MARKER}"></div></body></html>`;
        const p = await own.publish('alice', { 'page.html': html });
        expect2xx(p.published, 'status of publishing a folder of one HTML file');
        if (p.postId === undefined) return void expect.fail('the publish named no post id');
        expect(await readEntryText(await own.mcp(p.postId)), 'the MCP App serves the file as its entry').toContain(SUITE_WIDGET_MARKER);
      }),
  });

  refusedPublishCheck(
    'publish.manifest-missing-refused',
    'refuses a folder (of more than one file) without widget.json',
    WIDGET_PROBLEMS.manifestMissing.id,
    () => {
      const { [WIDGET_MANIFEST.fileName]: _manifest, ...rest } = suiteWidgetFiles('Conformance Manifestless Widget');
      return rest;
    },
  );

  refusedPublishCheck('publish.manifest-not-json-refused', 'refuses a folder whose widget.json is not JSON', WIDGET_PROBLEMS.manifestNotJson.id, () => ({
    ...suiteWidgetFiles('Conformance Broken Widget'),
    [WIDGET_MANIFEST.fileName]: '{ "name": "Conformance Broken Widget", ',
  }));

  refusedPublishCheck(
    'publish.manifest-invalid-refused',
    'refuses a folder whose widget.json contradicts the 2.5 types',
    WIDGET_PROBLEMS.manifestInvalid.id,
    () =>
      withManifest('Conformance Misshapen Widget', (m) => {
        m.tools = 'forecast';
      }),
  );

  refusedPublishCheck(
    'publish.manifest-values-refused',
    'refuses a widget.json whose values are outside what 2.5 allows: mimeType, v, visibility, expose, billing',
    WIDGET_PROBLEMS.manifestInvalid.id,
    () =>
      manifestsWith({
        'mimeType text/plain (2.5: text/html)': (m) => {
          m._meta.ui.mimeType = 'text/plain';
        },
        'v the string "1" (2.5: an integer)': (m) => {
          m._meta.platform.v = '1';
        },
        'v 1.5 (2.5: an integer)': (m) => {
          m._meta.platform.v = 1.5;
        },
        'visibility [app, robot] (2.5: a subset of app, model, user)': (m) => {
          toolMeta(m, 0, 'ui').visibility = ['app', 'robot'];
        },
        'expose [ftp] (2.5: a subset of http, tool)': (m) => {
          toolMeta(m, 0, 'platform').expose = ['ftp'];
        },
        'billing without amountNanocents': (m) => {
          toolMeta(m, 0, 'platform').billing = { currency: 'USD' };
        },
        'billing amountNanocents 2.5 (2.5: an integer)': (m) => {
          toolMeta(m, 0, 'platform').billing = { currency: 'USD', amountNanocents: 2.5 };
        },
        'billing currency 840 (2.5: a string)': (m) => {
          toolMeta(m, 0, 'platform').billing = { currency: 840, amountNanocents: 100 };
        },
      }),
  );

  refusedPublishCheck(
    'publish.manifest-schema-version-refused',
    'refuses a widget.json whose _meta.platform.v is an integer other than the current 1 (0, 2)',
    BUNDLE_REQUIREMENTS.schemaVersionOne.id,
    () =>
      manifestsWith({
        'v 2 (9: current value 1)': (m) => {
          m._meta.platform.v = 2;
        },
        'v 0 (9: current value 1)': (m) => {
          m._meta.platform.v = 0;
        },
      }),
    'SHOULD',
  );

  widgetCheck({
    id: 'publish.entry-missing',
    title: 'a bundle whose HTML entry is not in the folder is not served with another page as its entry',
    requirements: [WIDGET_PROBLEMS.entryMissing.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-5-entry', async (own) => {
        const files = withManifest('Conformance Entryless Widget', (m) => {
          (m._meta as { ui: Record<string, unknown> }).ui.resourceUri = 'app/main.html';
        });
        const p = await own.publish('alice', files);
        if (!is2xx(p.published)) return expectRefusal(p.published, 'status of the publish');
        if (p.postId === undefined) return void expect.fail('the publish succeeded without a post id');
        expect(
          await readEntryText(await own.mcp(p.postId)),
          `the entry app/main.html is not in the folder (${READINGS.bundleProblemsAtPublish.id})`,
        ).toBeUndefined();
      }),
  });

  widgetCheck({
    id: 'publish.tool-source-missing',
    title: 'a tool without its source file is refused at publish, or answers FN_NOT_FOUND when called',
    requirements: [WIDGET_PROBLEMS.toolSourceMissing.id, BRIDGE_ERRORS.FN_NOT_FOUND.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-5-tool-source', async (own) => {
        const { [WIDGET_MANIFEST.defaultToolFile('refresh')]: _source, ...files } = suiteWidgetFiles('Conformance Sourceless Widget');
        const p = await own.publish('alice', files);
        if (!is2xx(p.published)) return expectRefusal(p.published, 'status of the publish');
        if (p.postId === undefined) return void expect.fail('the publish succeeded without a post id');
        const result = await (await own.mcp(p.postId)).callTool({ name: 'refresh', arguments: {} });
        expect(toolErrorCode(result), `refresh has no source (${READINGS.bundleProblemsAtPublish.id})`).toBe(BRIDGE_ERRORS.FN_NOT_FOUND.code);
      }),
  });
});
