import type { RequirementRecord } from './types.js';

const r = (id: string, section: string, condition: string): RequirementRecord => Object.freeze({ id, section, level: 'MUST', condition });

/** Rules of signed requests (2.4, 5.1 to 5.3) that no single error_code of 7.3 states. */
export const SIGNED_REQUIREMENTS = Object.freeze({
  keysFromKeySet: r(
    'AUTH-KEYS-FROM-KEY-SET',
    '2.4',
    'A signed request is verified with the keys of the key set (or of the card\'s inline jwks) only: the agent card "carries no key", so a key only the card names verifies nothing.',
  ),
  keyRemovalRevokes: r(
    'AUTH-KEY-REMOVAL-REVOKES',
    '5.2',
    'Key removal from the key set is the revocation lever: once the key set is read again (at most 5 minutes after the key left it), a request signed with the removed key is refused.',
  ),
  signatureInputDecides: r(
    'AUTH-SIGNATURE-INPUT-DECIDES',
    '5.3',
    'A request carrying Signature-Input is a signed request: a bearer, payment token or cookie beside it decides nothing; a good signature is accepted and a bad one refused with its own code.',
  ),
  agentJwtRefused: r(
    'AUTH-AGENT-JWT-REFUSED',
    '5.3',
    'A JWT an agent signs for itself, or one its Portal authority issues, is not a credential toward the platform (5.1: Portal "cannot authenticate to the platform"; 5.3).',
  ),
});
