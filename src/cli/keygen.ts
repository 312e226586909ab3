import { chmod, stat, writeFile } from 'node:fs/promises';
import { makeFolder } from '../harness/make-folder.js';
import { join, resolve } from 'node:path';
import { generateEd25519Jwk, jwkThumbprint } from '../httpsig/index.js';
import { CARD_FIELDS, ED25519_JWK } from '../spec/wire.js';
import { agentUrls } from './agent-url.js';
import type { AgentUrls } from './agent-url.js';
import type { Command, CommandArgs } from './command.js';
import { InputError } from './errors.js';
import { EXIT } from './exit-codes.js';
import type { CliIo } from './io.js';
import { flag, requiredString } from './option-values.js';
import { fileProblem } from './read-input.js';

const NAME = 'keygen';

const KEYGEN_FILES = Object.freeze({
  privateKey: 'private-key.jwk.json',
  keySet: 'jwks.json',
  card: 'agent.json',
});

const PRIVATE_KEY_MODE = 0o600;

export const keygenCommand: Command = {
  name: NAME,
  summary: 'write a private key (mode 0600), jwks.json and agent.json ready for static hosting',
  usage: '--agent-url URL --out DIR [--json]',
  description: [
    `Generates an Ed25519 key and writes, under DIR: ${KEYGEN_FILES.privateKey} (mode 0600; keep it secret),`,
    `${KEYGEN_FILES.keySet} (serve it at <agent-url>/.well-known/jwks.json) and ${KEYGEN_FILES.card} (serve it at`,
    '<agent-url>/.well-known/agent.json), whose client_id, url and jwks_uri name the card, the agent and',
    "the key set as spec 2.4 requires. The key id is the key's RFC 7638 thumbprint. Never overwrites.",
  ].join('\n'),
  options: {
    'agent-url': { type: 'string', value: 'URL', help: 'the agent URL the documents will be served under' },
    out: { type: 'string', value: 'DIR', help: 'directory to write the three files to (created if missing)' },
    json: { type: 'boolean', help: 'print one JSON document' },
  },
  positionals: { names: [], min: 0, max: 0 },
  examples: ['agent-platform-conformance keygen --agent-url https://agents.example/a/alice --out ./alice'],
  available: true,
  run: runKeygen,
};

async function runKeygen(args: CommandArgs, io: CliIo): Promise<number> {
  const urls = agentUrls(requiredString(args, 'agent-url', NAME, 'URL'), NAME);
  const outArg = requiredString(args, 'out', NAME, 'DIR');
  const dir = resolve(io.cwd, outArg);
  const paths = {
    privateKey: join(dir, KEYGEN_FILES.privateKey),
    keySet: join(dir, KEYGEN_FILES.keySet),
    card: join(dir, KEYGEN_FILES.card),
  };
  if (
    await stat(dir).then(
      (s) => !s.isDirectory(),
      () => false,
    )
  )
    throw new InputError(`--out "${outArg}" is a file, not a directory`);
  await refuseExisting(Object.values(paths));

  const { privateJwk, publicJwk } = generateEd25519Jwk();
  const kid = jwkThumbprint(publicJwk);
  try {
    makeFolder(dir);
    // The private key first and exclusively ('wx'), so a racing writer cannot be overwritten either.
    await writeFile(paths.privateKey, json({ ...privateJwk, kid }), { mode: PRIVATE_KEY_MODE, flag: 'wx' });
    await chmod(paths.privateKey, PRIVATE_KEY_MODE); // the mode above is narrowed by the umask only, but be exact
    await writeFile(paths.keySet, json({ keys: [{ kty: publicJwk.kty, crv: publicJwk.crv, x: publicJwk.x, kid, use: ED25519_JWK.use }] }), { flag: 'wx' });
    await writeFile(paths.card, json(card(urls)), { flag: 'wx' });
  } catch (error) {
    throw new InputError(`cannot write to --out "${outArg}": ${fileProblem(error)}`);
  }

  if (flag(args, 'json')) {
    io.stdout.write(
      json({
        kid,
        agent_url: urls.agentUrl,
        key_set_url: urls.keySetUrl,
        card_url: urls.cardUrl,
        files: { private_key: paths.privateKey, key_set: paths.keySet, card: paths.card },
      }),
    );
  } else {
    io.stdout.write(
      [
        `wrote ${paths.privateKey} (mode 0600; keep it secret)`,
        `wrote ${paths.keySet}: serve it at ${urls.keySetUrl}`,
        `wrote ${paths.card}: serve it at ${urls.cardUrl}`,
        `key id (RFC 7638 thumbprint): ${kid}`,
        '',
      ].join('\n'),
    );
  }
  if (urls.agentUrl.startsWith('http:')) io.stderr.write('note: the agent URL is plain http; platforms read key sets and cards over https only\n');
  return EXIT.ok;
}

/** The agent card's self-naming fields (2.4). */
function card(urls: AgentUrls): Record<string, string> {
  return { [CARD_FIELDS.clientId]: urls.cardUrl, [CARD_FIELDS.url]: urls.agentUrl, [CARD_FIELDS.jwksUri]: urls.keySetUrl };
}

async function refuseExisting(paths: readonly string[]): Promise<void> {
  const existing: string[] = [];
  for (const path of paths) {
    if (
      await stat(path).then(
        () => true,
        () => false,
      )
    )
      existing.push(path);
  }
  if (existing.length > 0) {
    throw new InputError(`refusing to overwrite ${existing.join(', ')}; remove ${existing.length === 1 ? 'it' : 'them'} or choose another --out`);
  }
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
