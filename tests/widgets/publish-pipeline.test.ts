import { describe, expect, it } from 'vitest';
import { BRIDGE_ERRORS } from '../../src/spec/bridge-errors.js';
import { LIMITS } from '../../src/spec/limits.js';
import { AGENT_STAMP, CATALOG_RECORD_TYPES, PUBLISH_ERROR_CODES, PUBLISH_STEPS, WIDGET_AGENT_SLUG } from '../../src/spec/publish.js';
import { WIDGET_MANIFEST, WIDGET_PROBLEMS } from '../../src/spec/widgets.js';
import {
  MemoryFolderSource,
  MemoryPublishStore,
  agentSlug,
  bundleSlug,
  counterIds,
  publishWidget,
  userId6,
  type PublishOutcome,
  type PublishSuccess,
} from '../../src/widgets/publish/index.js';
import { FORECAST_INPUT_SCHEMA, FORECAST_SOURCE, weatherFiles, weatherFolder, weatherManifest } from './publish-fixtures.js';

const ALICE = 'a1b2c3d4e5f6a7b8c9d0e1f2';
const BOB = 'ffeeddccbbaa998877665544';
const T0 = 1_800_000_000;

function setup() {
  const folders = new MemoryFolderSource();
  const store = new MemoryPublishStore();
  const clock = {
    t: T0,
    now() {
      return this.t;
    },
  };
  const ports = { folders, store, clock, ids: counterIds() };
  return { folders, store, clock, ports, publish: (callerId: string, folderId: string) => publishWidget({ callerId, folderId }, ports) };
}

function succeeded(outcome: PublishOutcome): PublishSuccess {
  if (!outcome.ok) expect.fail(`publish refused at ${outcome.step}: ${outcome.code} ${outcome.message}`);
  return outcome;
}

describe('4.5 publish pipeline: a first publish', () => {
  it('runs the six steps in order, each reported', async () => {
    const { folders, publish } = setup();
    folders.put(weatherFolder('folder_w', ALICE));
    const outcome = succeeded(await publish(ALICE, 'folder_w'));
    expect(outcome.steps.map((s) => s.step)).toEqual([...PUBLISH_STEPS]);
    expect(outcome.created).toBe(true);
  });

  it('step 1 reads the manifest; step 2 mints the agent <prefix>-<userId6>-<bundleSlug>', async () => {
    const { folders, publish, store } = setup();
    folders.put(weatherFolder('folder_w', ALICE));
    const outcome = succeeded(await publish(ALICE, 'folder_w'));
    expect(outcome.steps[0]).toEqual({ step: 'validate', folderId: 'folder_w', name: 'Weather Card', version: '1.0.0' });
    const slug = `${WIDGET_AGENT_SLUG.prefix}-a1b2c3-weather-card`;
    expect(outcome.steps[1]).toEqual({ step: 'agent', action: 'minted', agentId: 'agent_1', slug, remixNumber: null });
    expect(store.findAgentByFolder(ALICE, 'folder_w')?.slug).toBe(slug);
  });

  it('step 3 materialises one function source per tool', async () => {
    const { folders, publish, store } = setup();
    folders.put(weatherFolder('folder_w', ALICE));
    const outcome = succeeded(await publish(ALICE, 'folder_w'));
    const sources = store.getFunctionSources(outcome.agent.id);
    expect(sources.map((s) => [s.tool, s.file, s.runtime])).toEqual([
      ['forecast', 'tools/forecast.js', WIDGET_MANIFEST.defaultRuntime],
      ['refresh', 'tools/refresh.js', WIDGET_MANIFEST.defaultRuntime],
    ]);
    expect(sources[0]!.source).toBe(FORECAST_SOURCE);
    expect(outcome.steps[2]).toEqual({
      step: 'functions',
      materialised: sources.map((s) => ({ tool: s.tool, sourceId: s.id, bytes: s.bytes })),
      refused: [],
    });
  });

  it('step 4 stamps functions, HTTP endpoints for expose http, custom tools for expose tool, billing when present', async () => {
    const { folders, publish, store } = setup();
    folders.put(weatherFolder('folder_w', ALICE));
    const outcome = succeeded(await publish(ALICE, 'folder_w'));
    const [forecast, refresh] = store.getFunctionSources(outcome.agent.id);
    const configuration = store.getAgent(outcome.agent.id)!.configuration;
    expect(configuration).toEqual({
      functions: [
        { name: 'forecast', sourceId: forecast!.id, runtime: 'node20' },
        { name: 'refresh', sourceId: refresh!.id, runtime: 'node20' },
      ],
      httpEndpoints: [
        { path: `${AGENT_STAMP.httpEndpointPrefix}forecast`, method: AGENT_STAMP.httpEndpointMethod, function: 'forecast', description: 'Forecast for a city' },
      ],
      customTools: [{ name: 'forecast', description: 'Forecast for a city', inputSchema: FORECAST_INPUT_SCHEMA, function: 'forecast' }],
      billing: [{ tool: 'forecast', currency: 'usd', amountNanocents: 2500 }],
    });
    expect(outcome.steps[3]).toEqual({ step: 'configure', configuration });
  });

  it('steps 5 and 6 insert the catalog record of type widget and the post, keyed on the author and the bundle folder', async () => {
    const { folders, publish, store } = setup();
    folders.put(weatherFolder('folder_w', ALICE));
    const outcome = succeeded(await publish(ALICE, 'folder_w'));
    const catalog = store.findCatalogRecord(ALICE, 'folder_w')!;
    expect(catalog).toMatchObject({
      type: CATALOG_RECORD_TYPES.widget,
      authorId: ALICE,
      folderId: 'folder_w',
      agentId: outcome.agent.id,
      name: 'Weather Card',
      version: '1.0.0',
      iconRef: 'icon.svg',
      remixOf: null,
      remixNumber: null,
      createdAt: T0,
      updatedAt: T0,
    });
    expect(catalog.snapshot.entryPath).toBe('index.html');
    expect(catalog.snapshot.manifest.name).toBe('Weather Card');
    const post = store.findPost(ALICE, 'folder_w')!;
    expect(post.metadata).toEqual({ bundleFolderId: 'folder_w', catalogId: catalog.id, agentSlug: outcome.agent.slug });
    expect(outcome.steps.slice(4)).toEqual([
      { step: 'catalog', action: 'inserted', catalogId: catalog.id },
      { step: 'post', action: 'inserted', postId: post.id },
    ]);
    expect(store.counts()).toEqual({ agents: 1, functionSources: 2, catalog: 1, posts: 1 });
  });
});

describe('4.5 re-publishing', () => {
  it('an unchanged folder refreshes everything in place: same agent, catalog record and post, no second listing', async () => {
    const { folders, publish, store, clock } = setup();
    folders.put(weatherFolder('folder_w', ALICE));
    const first = succeeded(await publish(ALICE, 'folder_w'));
    clock.t = T0 + 600;
    const second = succeeded(await publish(ALICE, 'folder_w'));
    expect(second.created).toBe(false);
    expect(second.steps[1]).toMatchObject({ step: 'agent', action: 'reused', agentId: first.agent.id, slug: first.agent.slug });
    expect(second.steps[4]).toEqual({ step: 'catalog', action: 'updated', catalogId: first.catalog.id });
    expect(second.steps[5]).toEqual({ step: 'post', action: 'updated', postId: first.post.id });
    expect(store.counts()).toEqual({ agents: 1, functionSources: 2, catalog: 1, posts: 1 });
    expect(store.listCatalog()).toHaveLength(1);
    expect(second.catalog).toMatchObject({ createdAt: T0, updatedAt: T0 + 600 });
  });

  it('a changed manifest refreshes the snapshot and the catalog record in place', async () => {
    const { folders, publish, store } = setup();
    folders.put(weatherFolder('folder_w', ALICE));
    const first = succeeded(await publish(ALICE, 'folder_w'));
    folders.put(weatherFolder('folder_w', ALICE, { files: weatherFiles({}, weatherManifest({ version: '1.1.0', description: 'Now with wind' })) }));
    const second = succeeded(await publish(ALICE, 'folder_w'));
    expect(second.catalog.id).toBe(first.catalog.id);
    expect(store.getCatalogRecord(first.catalog.id)).toMatchObject({ version: '1.1.0', description: 'Now with wind' });
    expect(store.getCatalogRecord(first.catalog.id)!.snapshot.manifest.version).toBe('1.1.0');
    expect(store.listCatalog()).toHaveLength(1);
  });
});

describe('4.5 step 1: ownership and the manifest', () => {
  it('refuses a caller who does not own the folder (403), writing nothing', async () => {
    const { folders, publish, store } = setup();
    folders.put(weatherFolder('folder_w', ALICE));
    const outcome = await publish(BOB, 'folder_w');
    expect(outcome).toMatchObject({ ok: false, step: 'validate', status: 403, code: PUBLISH_ERROR_CODES.notFolderOwner, steps: [] });
    expect(store.counts()).toEqual({ agents: 0, functionSources: 0, catalog: 0, posts: 0 });
  });

  it('refuses a folder that does not exist (404)', async () => {
    const { publish } = setup();
    expect(await publish(ALICE, 'folder_none')).toMatchObject({ ok: false, step: 'validate', status: 404, code: PUBLISH_ERROR_CODES.folderNotFound });
  });

  it('refuses a folder without widget.json, naming the file', async () => {
    const { folders, publish } = setup();
    const files = weatherFiles();
    files.delete(WIDGET_MANIFEST.fileName);
    folders.put(weatherFolder('folder_w', ALICE, { files }));
    const outcome = await publish(ALICE, 'folder_w');
    expect(outcome).toMatchObject({ ok: false, step: 'validate', status: 422, code: WIDGET_PROBLEMS.manifestMissing.code });
    expect(!outcome.ok && outcome.problems.map((p) => p.path)).toEqual([WIDGET_MANIFEST.fileName]);
  });

  it("refuses a widget.json that does not parse, with the parser's problems", async () => {
    const { folders, publish, store } = setup();
    folders.put(weatherFolder('folder_w', ALICE, { files: weatherFiles({ [WIDGET_MANIFEST.fileName]: '{"name": ' }) }));
    const outcome = await publish(ALICE, 'folder_w');
    expect(outcome).toMatchObject({ ok: false, step: 'validate', status: 422, code: WIDGET_PROBLEMS.manifestNotJson.code });
    expect(store.counts().agents).toBe(0);
  });

  it('refuses a manifest without the 2.5 shape, naming the JSON pointer', async () => {
    const { folders, publish } = setup();
    const manifest = weatherManifest();
    delete manifest.version;
    folders.put(weatherFolder('folder_w', ALICE, { files: weatherFiles({}, manifest) }));
    const outcome = await publish(ALICE, 'folder_w');
    expect(outcome).toMatchObject({ ok: false, step: 'validate', status: 422, code: WIDGET_PROBLEMS.manifestInvalid.code });
    expect(!outcome.ok && outcome.problems.length).toBeGreaterThan(0);
  });
});

describe('4.5 step 2: slugs', () => {
  it('derives userId6 and the bundle slug as WIDGET_AGENT_SLUG describes', () => {
    expect(userId6('A1B2C3D4')).toBe('a1b2c3');
    expect(bundleSlug('  Héllo, World!! ')).toBe('hello-world');
    expect(bundleSlug('***')).toBe(WIDGET_AGENT_SLUG.emptyBundleSlug);
    expect(bundleSlug('x'.repeat(100))).toHaveLength(WIDGET_AGENT_SLUG.bundleSlugMaxLength);
    expect(agentSlug(ALICE, 'Weather Card', 3)).toBe(`${WIDGET_AGENT_SLUG.prefix}-a1b2c3-weather-card-r3`);
  });

  it('a remix appends -r<N>, N the first free number, and records its lineage in the catalog record', async () => {
    const { folders, publish } = setup();
    folders.put(weatherFolder('folder_w', BOB));
    const original = succeeded(await publish(BOB, 'folder_w'));
    folders.put(weatherFolder('folder_r1', ALICE, { remixOf: original.catalog.id }));
    folders.put(weatherFolder('folder_r2', ALICE, { remixOf: original.catalog.id }));
    const r1 = succeeded(await publish(ALICE, 'folder_r1'));
    const r2 = succeeded(await publish(ALICE, 'folder_r2'));
    expect(r1.agent.slug).toBe(`${WIDGET_AGENT_SLUG.prefix}-a1b2c3-weather-card-r1`);
    expect(r2.agent.slug).toBe(`${WIDGET_AGENT_SLUG.prefix}-a1b2c3-weather-card-r2`);
    expect(r1.catalog).toMatchObject({ remixOf: original.catalog.id, remixNumber: 1 });
    expect(r2.steps[1]).toMatchObject({ action: 'minted', remixNumber: 2 });
    const again = succeeded(await publish(ALICE, 'folder_r1'));
    expect(again.steps[1]).toMatchObject({ action: 'reused', slug: r1.agent.slug, remixNumber: 1 });
  });

  it('a remix whose first publish stopped at step 3 keeps its -r<N> when published again', async () => {
    const { folders, publish } = setup();
    const files = weatherFiles();
    files.delete('tools/refresh.js');
    folders.put(weatherFolder('folder_r', ALICE, { files, remixOf: 'catalog_x' }));
    expect(await publish(ALICE, 'folder_r')).toMatchObject({ ok: false, step: 'functions' });
    folders.put(weatherFolder('folder_r', ALICE, { remixOf: 'catalog_x' }));
    const outcome = succeeded(await publish(ALICE, 'folder_r'));
    expect(outcome.steps[1]).toMatchObject({ action: 'reused', slug: agentSlug(ALICE, 'Weather Card', 1), remixNumber: 1 });
    expect(outcome.catalog).toMatchObject({ remixOf: 'catalog_x', remixNumber: 1 });
  });

  it('a reused agent keeps its slug when the manifest is renamed', async () => {
    const { folders, publish } = setup();
    folders.put(weatherFolder('folder_w', ALICE));
    const first = succeeded(await publish(ALICE, 'folder_w'));
    folders.put(weatherFolder('folder_w', ALICE, { files: weatherFiles({}, weatherManifest({ name: 'Storm Card' })) }));
    const second = succeeded(await publish(ALICE, 'folder_w'));
    expect(second.agent.slug).toBe(first.agent.slug);
    expect(second.catalog).toMatchObject({ id: first.catalog.id, name: 'Storm Card' });
  });

  it('refuses a second folder of the same author whose name gives a slug already held (409), before any write of its own', async () => {
    const { folders, publish, store } = setup();
    folders.put(weatherFolder('folder_a', ALICE));
    folders.put(weatherFolder('folder_b', ALICE));
    succeeded(await publish(ALICE, 'folder_a'));
    const outcome = await publish(ALICE, 'folder_b');
    expect(outcome).toMatchObject({ ok: false, step: 'agent', status: 409, code: PUBLISH_ERROR_CODES.agentSlugTaken });
    expect(store.counts()).toEqual({ agents: 1, functionSources: 2, catalog: 1, posts: 1 });
  });
});

describe('4.5 step 3: function sources', () => {
  const limit = LIMITS.functionSourceSize.value;
  const sized = (bytes: number) => `module.exports = () => 1;//${'x'.repeat(bytes - 'module.exports = () => 1;//'.length)}`;

  it('a source over 64 KB is not materialised: CODE_TOO_LARGE names its file, and the agent gets no function for it', async () => {
    const { folders, publish, store } = setup();
    folders.put(weatherFolder('folder_w', ALICE, { files: weatherFiles({ 'tools/forecast.js': sized(limit + 1) }) }));
    const outcome = succeeded(await publish(ALICE, 'folder_w'));
    const refused = outcome.catalog.snapshot.refusedFunctions;
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ tool: 'forecast', file: 'tools/forecast.js', code: BRIDGE_ERRORS.CODE_TOO_LARGE.code });
    expect(outcome.steps[2]).toMatchObject({ step: 'functions', refused });
    expect(store.getFunctionSources(outcome.agent.id).map((s) => s.tool)).toEqual(['refresh']);
    const configuration = store.getAgent(outcome.agent.id)!.configuration;
    expect(configuration.functions.map((f) => f.name)).toEqual(['refresh']);
    expect([configuration.httpEndpoints, configuration.customTools, configuration.billing]).toEqual([[], [], []]);
  });

  it('a source of exactly 64 KB is materialised', async () => {
    const { folders, publish, store } = setup();
    folders.put(weatherFolder('folder_w', ALICE, { files: weatherFiles({ 'tools/forecast.js': sized(limit) }) }));
    const outcome = succeeded(await publish(ALICE, 'folder_w'));
    expect(outcome.catalog.snapshot.refusedFunctions).toEqual([]);
    expect(store.getFunctionSources(outcome.agent.id).find((s) => s.tool === 'forecast')?.bytes).toBe(limit);
  });

  it('a declared tool without its source file refuses the publish at step 3, naming the path', async () => {
    const { folders, publish, store } = setup();
    const files = weatherFiles();
    files.delete('tools/refresh.js');
    folders.put(weatherFolder('folder_w', ALICE, { files }));
    const outcome = await publish(ALICE, 'folder_w');
    expect(outcome).toMatchObject({ ok: false, step: 'functions', status: 422, code: WIDGET_PROBLEMS.toolSourceMissing.code });
    expect(!outcome.ok && outcome.problems.map((p) => p.path)).toEqual(['tools/refresh.js']);
    expect(!outcome.ok && outcome.steps.map((s) => s.step)).toEqual(['validate', 'agent']);
    expect(store.counts()).toMatchObject({ catalog: 0, posts: 0 });
  });
});
