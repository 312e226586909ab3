import type { ErrorObject } from 'ajv/dist/2020.js';
import { closestWord } from '../schema/closest-word.js';
import { describeSchemaErrors, type InputProblem, type Rule, type SchemaVocabulary } from '../schema/describe-errors.js';
import { valueWords } from '../schema/words.js';
import { AUTH_ERROR_LIST } from '../spec/auth-errors.js';

export type { InputProblem } from '../schema/describe-errors.js';

const STATUS = 'must be an HTTP status code, a whole number from 100 to 599';
const TOKEN_CHARACTERS = "letters, digits and !#$%&'*+-.^_`|~";

// Where the schema's own wording would be unhelpful, these say what the member must be. First match wins.
const RULES: readonly Rule[] = [
  { at: /\/request\/headers\/\d+\/0$/, keywords: ['pattern'], say: `a header name must be an HTTP field name (${TOKEN_CHARACTERS})` },
  { at: /^(.*\/request\/headers\/\d+)(?:\/\d+)?$/, reportAt: (m) => m[1]!, say: 'each header must be a [name, value] pair of strings' },
  { at: /\/request\/headers$/, keywords: ['type'], say: 'must be a list of [name, value] pairs of strings' },
  { at: /\/request\/(?:body_base64|body_fill)$/, keywords: ['false schema'], say: 'give only one of body, body_base64 and body_fill' },
  { at: /\/body_base64$/, keywords: ['false schema'], say: 'give body or body_base64, not both' },
  { at: /\/expect\/error_code$/, keywords: ['enum'], say: unknownErrorCode },
  { at: /\/client_address$/, say: 'must be an IPv4 or IPv6 address' },
  { at: /\/status$/, keywords: ['type', 'minimum', 'maximum'], say: STATUS },
  { at: /(?:^|\/cases\/\d+)\/id$/, keywords: ['pattern'], say: "must be a slug: letters, digits, '.', '_' and '-', starting with a letter or digit" },
  { at: /\/thumbprints\/\d+$/, say: 'must be an RFC 7638 thumbprint: 43 base64url characters' },
  { at: /\/method$/, keywords: ['pattern'], say: 'must be an HTTP method name such as GET or POST' },
  { at: /\/platform\/authority$/, keywords: ['pattern'], say: 'must be a host with an optional port, e.g. platform.example (no scheme, path or spaces)' },
  { at: /\/documents\/[^/]+$/, keywords: ['format'], say: 'documents must be keyed by absolute URLs' },
  { at: /^\/registrations\/[^/]+$/, keywords: ['format'], say: 'registrations must be keyed by absolute agent URLs' },
  { at: /\/headers\/[^/]+$/, keywords: ['pattern'], say: `a header name must be an HTTP field name (${TOKEN_CHARACTERS})` },
  { at: /^\/steps$/, keywords: ['minItems'], say: 'a case needs at least one step' },
  { at: /(?:\/flags\/\d+|^\/notes\/[^/]+)$/, keywords: ['pattern'], say: "a flag is a word of letters, digits, '_' and '-', starting with a letter" },
  { at: /\/delay_ms$/, keywords: ['type', 'minimum', 'maximum'], say: 'must be a whole number of milliseconds from 0 to 60000' },
  { at: /(?:^\/now|\/at)$/, keywords: ['type', 'minimum'], say: 'must be a whole number of seconds since the epoch' },
];

const NOUNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\/testGroups\/\d+\/cases\/\d+$/, 'case'],
  [/\/testGroups\/\d+$/, 'test group'],
  [/\/steps\/\d+$/, 'step'],
  [/\/request$/, 'request'],
  [/\/documents\/[^/]+$/, 'document'],
  [/\/registrations\/[^/]+$/, 'registration'],
  [/\/platform$/, 'platform'],
];

const CASE_MEMBERS = ['id', 'description', 'platform', 'now', 'documents', 'dns', 'registrations', 'steps'];

const CASE_VOCABULARY: SchemaVocabulary = {
  rules: RULES,
  nouns: NOUNS,
  // The case and vector-case schemas share their members through $defs/caseMembers.
  membersOf: (ref) => (ref.endsWith('/$defs/caseMembers') ? CASE_MEMBERS : []),
};

/** Plain-words problems for a case file or a vectors file. */
export function describeCaseSchemaErrors(errors: readonly ErrorObject[], rootNoun: string): InputProblem[] {
  return describeSchemaErrors(errors, rootNoun, CASE_VOCABULARY);
}

function unknownErrorCode(error: ErrorObject): string {
  const codes = AUTH_ERROR_LIST.map((r) => r.code);
  if (typeof error.data !== 'string') return `must be an error_code of spec section 7.3 (a string) or null, not ${valueWords(error.data)}`;
  const suggestion = closestWord(error.data, codes);
  return `"${error.data}" is not an error_code of spec section 7.3${suggestion ? ` (did you mean "${suggestion}"?)` : ''}`;
}
