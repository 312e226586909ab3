import { AUTH_CODES } from '../../spec/auth-errors.js';
import { HEADERS } from '../../spec/headers.js';
import { LIMITS } from '../../spec/limits.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import { READINGS } from '../../spec/readings.js';
import { SIGNATURE_AGENT_TYPES } from '../../spec/wire.js';
import type { CaseDocument } from '../../cases/types.js';
import { agentAt, agentDocuments, cardDocument, keySetDocument } from '../identities.js';
import { accepted, allowing, refused, type Group, type Kit, type Scenario } from '../kit.js';
import { signatureAgentHeader } from '../request-builder.js';

/**
 * The fetch rules of 5.2 for the key set and the card: "from a publicly resolvable address (loopback, private and
 * link-local addresses refused)", "a JSON body of at most 64 KiB within 5 seconds", each on both sides of its limit.
 */

/** Addresses no key set or card may be read from, as URL hosts, with what each is. */
const NOT_PUBLIC: ReadonlyArray<readonly [id: string, host: string, what: string]> = [
  ['loopback', '127.0.0.1', 'the IPv4 loopback address'],
  ['loopback-v6', '[::1]', 'the IPv6 loopback address'],
  ['private', '10.20.30.40', 'a private address (10/8)'],
  ['private-192', '192.168.1.20', 'a private address (192.168/16)'],
  ['link-local', '169.254.169.254', 'a link-local address (a cloud metadata service)'],
  ['cgnat', '100.64.0.7', 'a shared address (carrier-grade NAT, 100.64/10)'],
  ['unspecified', '0.0.0.0', 'the unspecified address'],
  ['ipv4-mapped', '[::ffff:a14:1e28]', 'an IPv4-mapped IPv6 address of a private one (::ffff:10.20.30.40)'],
  ['unique-local', '[fd12:3456::7]', 'an IPv6 unique local address'],
];

/** An agent whose documents sit on `host`; its key set and card are served there (a deployment must not read them). */
function agentOnHost(k: Kit, host: string) {
  const agent = agentAt(`https://${host}/a/alice`);
  const request = k.request({ keySetUrl: agent.keySetUrl });
  return { agent, request, documents: agentDocuments(agent, [k.A]) };
}

const addressLiterals: Scenario[] = NOT_PUBLIC.map(([id, host, what]) => ({
  id: `fetch-key-set-at-${id}`,
  description: `a key set at ${what} (${host}) is not read: key_set_unreachable`,
  flags: ['FetchRules', 'Address'],
  build: (k) => {
    const { request, documents } = agentOnHost(k, host);
    return { documents, steps: [k.step(request, refused(AUTH_CODES.key_set_unreachable))] };
  },
}));

const cardAtAddress: Scenario = {
  id: 'fetch-card-at-private-address',
  description: 'a card (type=cimd) at a private address is not read: card_unreachable',
  flags: ['FetchRules', 'Address', 'Cimd'],
  build: (k) => {
    const agent = agentAt('https://10.20.30.40/a/alice');
    const request = k.request({ signatureAgent: signatureAgentHeader(['sig1'], agent.cardUrl, SIGNATURE_AGENT_TYPES.cimd) });
    return { documents: agentDocuments(agent, [k.A]), steps: [k.step(request, refused(AUTH_CODES.card_unreachable))] };
  },
};

/** A public-looking name that resolves to a private address: the rule is on the address, not the name. */
const byName: Scenario[] = [
  ['private', '10.20.30.40'],
  ['loopback', '127.0.0.2'],
  ['link-local', '169.254.10.10'],
].map(([id, address]) => ({
  id: `fetch-key-set-name-resolving-to-${id}`,
  description: `a key set on a host name that resolves to ${address} is not read: key_set_unreachable`,
  flags: ['FetchRules', 'Address'],
  build: (k: Kit) => {
    const host = `keys-${id}.agents.example`;
    const { request, documents } = agentOnHost(k, host);
    return { documents, dns: { [host]: [address!] }, steps: [k.step(request, refused(AUTH_CODES.key_set_unreachable))] };
  },
}));

/** A JSON document of exactly `size` bytes holding `value` (padded with a member of spaces). */
function documentOfSize(value: Record<string, unknown>, size: number): CaseDocument {
  const base = JSON.stringify({ ...value, padding: '' });
  const body = JSON.stringify({ ...value, padding: ' '.repeat(size - base.length) });
  if (body.length !== size) throw new Error(`document of ${body.length} bytes, not ${size}`);
  return { status: 200, headers: { [HEADERS.contentType]: MEDIA_TYPES.json }, body };
}

const SIZE = LIMITS.documentSize.value;
const unreadable = (code: typeof AUTH_CODES.key_set_unreachable | typeof AUTH_CODES.card_unreachable) =>
  code === AUTH_CODES.key_set_unreachable
    ? allowing(refused(code), [AUTH_CODES.key_set_invalid], READINGS.keySetUnreadable)
    : allowing(refused(code), [AUTH_CODES.card_not_self_naming], READINGS.keySetUnreadable);

const limits: Scenario[] = [
  {
    id: 'fetch-key-set-exactly-64-kib',
    description: 'a key set body of exactly 64 KiB is read',
    flags: ['FetchRules', 'Boundary', 'Valid'],
    build: (k) => ({
      documents: { ...k.docs(), [k.alice.keySetUrl]: documentOfSize({ keys: [k.A.publicJwk] }, SIZE) },
      steps: [k.step(k.request(), accepted(k.alice.agentUrl))],
    }),
  },
  {
    id: 'fetch-card-exactly-64-kib',
    description: 'first sight: a card body of exactly 64 KiB is read',
    flags: ['Card', 'FetchRules', 'Boundary', 'Valid'],
    build: (k) => ({
      documents: { ...k.docs(), [k.alice.cardUrl]: documentOfSize(JSON.parse(cardDocument(k.alice).body!) as Record<string, unknown>, SIZE) },
      steps: [k.step(k.request(), accepted(k.alice.agentUrl))],
    }),
  },
  {
    id: 'fetch-card-over-64-kib',
    description: 'first sight: a card body of 64 KiB + 1 byte is not read: card_unreachable',
    flags: ['Card', 'FetchRules', 'Boundary'],
    build: (k) => ({
      documents: { ...k.docs(), [k.alice.cardUrl]: documentOfSize(JSON.parse(cardDocument(k.alice).body!) as Record<string, unknown>, SIZE + 1) },
      steps: [k.step(k.request(), unreadable(AUTH_CODES.card_unreachable))],
    }),
  },
  {
    id: 'fetch-card-slow',
    description: 'first sight: a card answered after more than 5 s is not read: card_unreachable',
    flags: ['Card', 'FetchRules'],
    build: (k) => ({
      documents: { ...k.docs(), [k.alice.cardUrl]: { ...cardDocument(k.alice), delay_ms: LIMITS.documentFetchTimeout.value + 1000 } },
      steps: [k.step(k.request(), refused(AUTH_CODES.card_unreachable))],
    }),
  },
  {
    id: 'fetch-card-answered-in-4500-ms',
    description: 'first sight: a card answered after 4.5 s, within the 5 s of the fetch rules, is read',
    flags: ['Card', 'FetchRules', 'Boundary', 'Valid'],
    build: (k) => ({
      documents: { ...k.docs(), [k.alice.cardUrl]: { ...cardDocument(k.alice), delay_ms: LIMITS.documentFetchTimeout.value - 500 } },
      steps: [k.step(k.request(), accepted(k.alice.agentUrl))],
    }),
  },
  {
    id: 'fetch-card-not-json',
    description: 'first sight: a card whose body is not JSON is not read',
    flags: ['Card', 'FetchRules'],
    build: (k) => ({
      documents: { ...k.docs(), [k.alice.cardUrl]: { status: 200, headers: { [HEADERS.contentType]: MEDIA_TYPES.html }, body: '<html>card</html>' } },
      steps: [k.step(k.request(), unreadable(AUTH_CODES.card_unreachable))],
    }),
  },
  {
    id: 'fetch-card-unreachable-tries-no-other-url',
    description: 'first sight: a card that answers 404 is card_unreachable, though a good card is served at the origin',
    flags: ['Card', 'FetchRules'],
    build: (k) => {
      const origin = agentAt(new URL(k.alice.agentUrl).origin);
      return {
        documents: {
          ...k.docs(),
          [k.alice.cardUrl]: { status: 404, body: '' },
          [origin.cardUrl]: cardDocument(k.alice),
          [origin.keySetUrl]: keySetDocument([k.A.publicJwk]),
        },
        steps: [k.step(k.request(), refused(AUTH_CODES.card_unreachable))],
      };
    },
  },
];

export const fetchRules: Group = {
  comment: 'The fetch rules of 5.2 for key sets and cards: public addresses only (as literals and by name), 64 KiB within 5 s, one URL.',
  scenarios: [...addressLiterals, cardAtAddress, ...byName, ...limits],
};
