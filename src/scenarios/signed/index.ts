import type { Group } from '../kit.js';
import { body } from './body.js';
import { credentials } from './credentials.js';
import { documentForms } from './document-forms.js';
import { documents } from './documents.js';
import { fetchRules } from './fetch-rules.js';
import { headers } from './headers.js';
import { positives } from './positives.js';
import { precedence } from './precedence.js';
import { state } from './state.js';
import { valueForms } from './value-forms.js';

/** Every signed-request scenario, grouped as vectors/signed-requests.json groups them. */
export const SIGNED_REQUEST_GROUPS: readonly Group[] = [
  positives,
  credentials,
  headers,
  valueForms,
  body,
  documents,
  documentForms,
  fetchRules,
  state,
  precedence,
];

/** What each flag of vectors/signed-requests.json means. */
export const SIGNED_REQUEST_FLAGS: Readonly<Record<string, string>> = {
  Valid: 'The request (or every step marked ok) must be accepted.',
  Boundary: 'The case sits exactly on, or one past, a limit of section 8.',
  KeyRotation: 'Two labels or a change of keys (5.2 key continuity, one or two labels).',
  Sha512: 'Content-Digest uses sha-512.',
  Cimd: 'Signature-Agent names a card (type=cimd).',
  Directory: 'Signature-Agent names an origin (type=directory) and its key directory.',
  Credential: 'No signature: the missing-credential answer.',
  Bearer: 'A platform bearer token (5.3).',
  Malformed: 'Structured-field syntax, labels, signature size or allowed components.',
  Params: 'A signature parameter rule of 5.2.',
  Time: 'created and expires against the clock with 60 s of skew.',
  Coverage: 'What the signature must cover.',
  Authority: "The signature must be made for the platform's own host.",
  SignatureAgent: 'The Signature-Agent member and its URL forms.',
  Policy: 'Agents the platform refuses (credential_refused).',
  LargeBody: 'A body written as body_fill (length bytes of one value) to keep the file small.',
  Platform: 'A fault of the platform route, not of the request.',
  Should: 'The rule it checks is a SHOULD of a standard the spec builds on, not a MUST of the spec: a deployment that fails it is warned, not failed.',
  Digest: 'Content-Digest against the body bytes.',
  FetchRules: 'A key set or card read under the fetch rules (documents with status, headers, delay).',
  Address: 'A key set or card on a host that is not publicly routable, as an address literal or by a name the case resolves (dns).',
  KeySet: 'Key set validity under 2.4.',
  KeySelection: 'keyid against the key set.',
  Signature: 'The Ed25519 signature over the signature base.',
  Card: 'The agent card on first sight (2.4 self-naming).',
  Caching: 'Steps at later times: the 5-minute key set cache and the 10-minute card refusal memory.',
  Replay: 'Nonces, single use per agent URL.',
  Continuity: 'Key continuity with a prior registration.',
  Throttle: 'Failed signatures per client address (30 in 60 s).',
  Precedence: 'Two rules broken at once; the order of checks decides.',
};
