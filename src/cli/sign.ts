import { LIMITS } from '../spec/limits.js';
import { randomNonce, signRequest } from '../httpsig/index.js';
import type { Ed25519PrivateJwk } from '../httpsig/index.js';
import { HEADERS } from '../spec/headers.js';
import { MAX_SIGNATURE_LABELS, SIGNATURE_AGENT_TYPES } from '../spec/wire.js';
import { agentUrls } from './agent-url.js';
import type { Command, CommandArgs } from './command.js';
import { UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';
import { nowSeconds } from './io.js';
import type { CliIo } from './io.js';
import { flag, integerOption, requiredString, stringOption, stringOptions } from './option-values.js';
import { isRfc9421TestKey, readPrivateJwk } from './private-jwk.js';
import { readInputFile } from './read-input.js';

const NAME = 'sign';
/** RFC 9110 token: what a method and a field name are made of. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** The window sign uses when --expires is not given. */
const DEFAULT_VALIDITY_SECONDS = 60;

export const signCommand: Command = {
  name: NAME,
  summary: 'print the signature headers the profile requires for one request',
  usage: '--key JWK_FILE --agent-url URL --method M --url URL [options]',
  description: [
    'Signs one request the way spec 5.2 asks and prints the headers to send: Signature-Agent',
    '(the key set <agent-url>/.well-known/jwks.json, type=jwks_uri), Signature-Input, Signature and,',
    'with a body, Content-Digest. Covered: @method @authority @path @query, content-digest, any',
    '--header fields, and the Signature-Agent member. Prints `name: value` lines, or with --json',
    '{ "headers": {...}, "signature_base": [one base per label] }.',
  ].join('\n'),
  options: {
    key: { type: 'string', multiple: true, value: 'JWK_FILE', help: 'Ed25519 private JWK; a second --key signs as label sig2' },
    'agent-url': { type: 'string', value: 'URL', help: 'the agent URL, e.g. https://agents.example/a/alice' },
    method: { type: 'string', value: 'M', help: 'request method, e.g. POST' },
    url: { type: 'string', value: 'URL', help: 'absolute request URL on the platform' },
    body: { type: 'string', value: 'FILE', help: 'the exact body bytes to send' },
    header: { type: 'string', multiple: true, value: "'Name: value'", help: 'a request header to cover' },
    created: { type: 'string', value: 'S', help: 'created, seconds since the epoch (default now)' },
    expires: { type: 'string', value: 'S', help: `expires (default created + ${DEFAULT_VALIDITY_SECONDS})` },
    nonce: { type: 'string', multiple: true, value: 'N', help: 'nonce, one per --key (default random)' },
    json: { type: 'boolean', help: 'print one JSON document' },
  },
  positionals: { names: [], min: 0, max: 0 },
  examples: [
    `agent-platform-conformance sign --key private-key.jwk.json --agent-url https://agents.example/a/alice \\
      --method POST --url https://platform.example/api/auth/cli/token --body body.json --header 'Content-Type: application/json'`,
  ],
  available: true,
  run: runSign,
};

async function runSign(args: CommandArgs, io: CliIo): Promise<number> {
  const keyFiles = stringOptions(args, 'key');
  if (keyFiles.length === 0) throw new UsageError(`${NAME} needs --key JWK_FILE`, NAME);
  if (keyFiles.length > MAX_SIGNATURE_LABELS)
    throw new UsageError(`--key is given ${keyFiles.length} times; at most ${MAX_SIGNATURE_LABELS} keys sign one request`, NAME);
  const { keySetUrl, agentUrl } = agentUrls(requiredString(args, 'agent-url', NAME, 'URL'), NAME);
  const method = requiredString(args, 'method', NAME, 'M');
  if (!TOKEN.test(method)) throw new UsageError(`--method must be an HTTP method such as POST, not "${method}"`, NAME);
  const url = requestUrl(requiredString(args, 'url', NAME, 'URL'));
  const headers = stringOptions(args, 'header').map(parseHeader);
  const created = integerOption(args, 'created', NAME) ?? nowSeconds(io);
  const expires = integerOption(args, 'expires', NAME) ?? created + DEFAULT_VALIDITY_SECONDS;
  const nonces = noncesFor(stringOptions(args, 'nonce'), keyFiles.length);
  const bodyFile = stringOption(args, 'body');

  const keys: Ed25519PrivateJwk[] = [];
  for (const file of keyFiles) keys.push(await readPrivateJwk(io, file));
  const body = bodyFile === undefined ? null : new Uint8Array(await readInputFile(io, bodyFile, '--body file'));
  notes(io, keys, agentUrl);

  const signed = signRequest({
    method,
    url,
    headers,
    body,
    keys: keys.map((privateJwk) => ({ privateJwk })),
    signatureAgent: keySetUrl,
    signatureAgentType: SIGNATURE_AGENT_TYPES.jwksUri,
    created,
    expires,
    nonces,
    coveredHeaders: [...new Set(headers.map(([name]) => name.toLowerCase()))],
  });
  if (flag(args, 'json')) {
    io.stdout.write(`${JSON.stringify({ headers: signed.headers, signature_base: signed.bases }, null, 2)}\n`);
  } else {
    io.stdout.write(
      Object.entries(signed.headers)
        .map(([name, value]) => `${name}: ${value}\n`)
        .join(''),
    );
  }
  return EXIT.ok;
}

function requestUrl(value: string): string {
  try {
    return new URL(value).href;
  } catch {
    throw new UsageError(`--url must be an absolute URL such as https://platform.example/api/auth/cli/token, not "${value}"`, NAME);
  }
}

/** 'Name: value' into a pair; the value keeps inner spaces but not the ones around it. */
function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(':');
  const name = colon === -1 ? '' : text.slice(0, colon).trim();
  if (!TOKEN.test(name)) {
    throw new UsageError(`--header must look like 'Name: value', not "${text}"`, NAME);
  }
  if (WRITTEN_BY_SIGN.has(name.toLowerCase())) throw new UsageError(`--header ${name}: sign writes this header itself`, NAME);
  const value = text.slice(colon + 1).trim();
  if (!PRINTABLE.test(value)) {
    throw new UsageError(
      `--header ${name}: a covered field value must be printable ASCII without line breaks (RFC 9421 signature base), not ${JSON.stringify(value)}`,
      NAME,
    );
  }
  return [name, value];
}

/** What a covered field value and a nonce (a Structured Fields string) may hold: printable ASCII, spaces and tabs. */
const PRINTABLE = /^[\t\x20-\x7e]*$/;

const WRITTEN_BY_SIGN = new Set<string>([HEADERS.contentDigest, HEADERS.signatureAgent, HEADERS.signatureInput, HEADERS.signature]);

function noncesFor(given: readonly string[], keyCount: number): string[] {
  if (given.length === 0) return Array.from({ length: keyCount }, () => randomNonce());
  if (given.length !== keyCount)
    throw new UsageError(`give one --nonce per --key (${keyCount} keys, ${given.length} ${given.length === 1 ? 'nonce' : 'nonces'})`, NAME);
  const empty = given.find((n) => n.length === 0);
  if (empty !== undefined) throw new UsageError('--nonce is empty', NAME);
  const unprintable = given.find((n) => !/^[\x20-\x7e]+$/.test(n));
  if (unprintable !== undefined) throw new UsageError(`--nonce must be printable ASCII (a Structured Fields string), not ${JSON.stringify(unprintable)}`, NAME);
  const long = given.find((n) => n.length > LIMITS.nonceMaxLength.value);
  if (long !== undefined) throw new UsageError(`--nonce is ${long.length} characters; 5.2 allows 1 to ${LIMITS.nonceMaxLength.value}`, NAME);
  return [...given];
}

/** Warnings that do not stop signing, on stderr so --json output stays one document. */
function notes(io: CliIo, keys: readonly Ed25519PrivateJwk[], agentUrl: string): void {
  if (keys.some(isRfc9421TestKey)) io.stderr.write('note: this is the RFC 9421 test key; platforms refuse it in a key set (spec 2.4)\n');
  if (agentUrl.startsWith('http:')) io.stderr.write('note: the agent URL is plain http; platforms read key sets over https only\n');
}
