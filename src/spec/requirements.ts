import type { RequirementRecord } from './types.js';

const r = (id: string, section: string, condition: string): RequirementRecord => Object.freeze({ id, section, level: 'MUST', condition });

/** Requirements that are rules rather than codes: what must be accepted, and how. */
export const REQUIREMENTS = Object.freeze({
  signedRequestAccepted: r(
    'AUTH-SIGNED-REQUEST-ACCEPTED',
    '5.2',
    'A request signed as 5.2 describes (any of the three Signature-Agent forms, one or two labels, sha-256 or sha-512 Content-Digest, within the limits of section 8) is accepted, and a platform token with the agent-use scope is a credential (5.3).',
  ),
  keyDirectoryMediaType: r(
    'KEY-DIRECTORY-MEDIA-TYPE',
    '2.4',
    'The key directory is served at the origin at /.well-known/http-message-signatures-directory with media type application/http-message-signatures-directory+json.',
  ),
  keyDirectoryEntries: r(
    'KEY-DIRECTORY-ENTRIES',
    '2.4',
    'The key directory lists the Ed25519 keys of every agent the server hosts, one entry per thumbprint.',
  ),
});

export const REQUIREMENT_LIST = Object.freeze(Object.values(REQUIREMENTS));
