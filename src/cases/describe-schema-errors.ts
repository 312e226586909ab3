import { typeWords, valueWords, escapePointer } from '../schema/words.js';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { AUTH_ERROR_LIST } from '../spec/auth-errors.js';
import { closestWord } from './closest-word.js';

/** One thing wrong with an input file: the member at fault as a JSON pointer, and what is wrong in plain words. */
export interface InputProblem {
  readonly pointer: string;
  readonly message: string;
}

interface Rule {
  /** Matched against the whole pointer of the member at fault. */
  readonly at: RegExp;
  readonly keywords?: readonly string[];
  /** Reports the problem at this pointer instead (e.g. the header pair rather than one of its items). */
  readonly reportAt?: (match: RegExpExecArray) => string;
  readonly say: string | ((error: ErrorObject) => string);
}

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

/** Plain-words problems for ajv's errors, most specific first, without repeats. */
export function describeSchemaErrors(errors: readonly ErrorObject[], rootNoun: string): InputProblem[] {
  const problems: InputProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    // These wrap an inner error that is reported on its own.
    if (error.keyword === 'propertyNames' || (error.keyword === 'anyOf' && errors.length > 1)) continue;
    const problem = describe(error, rootNoun);
    const key = `${problem.pointer}\n${problem.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  }
  return problems;
}

function describe(error: ErrorObject, rootNoun: string): InputProblem {
  const pointer = pointerOf(error);
  for (const rule of RULES) {
    if (rule.keywords && !rule.keywords.includes(error.keyword)) continue;
    const match = rule.at.exec(pointer);
    if (!match) continue;
    return {
      pointer: rule.reportAt ? rule.reportAt(match) : pointer,
      message: typeof rule.say === 'string' ? rule.say : rule.say(error),
    };
  }
  return { pointer, message: genericMessage(error, rootNoun) };
}

/** The member at fault: for a missing or unknown member, the member itself rather than its parent. */
function pointerOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const member = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty ?? error.propertyName;
  return typeof member === 'string' ? `${error.instancePath}/${escapePointer(member)}` : error.instancePath;
}

function genericMessage(error: ErrorObject, rootNoun: string): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `missing (a ${nounOf(error.instancePath, rootNoun)} must have "${String(params.missingProperty)}")`;
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return unknownMember(String(params.additionalProperty ?? params.unevaluatedProperty), error, rootNoun);
    case 'type':
      return `must be ${typeWords(params.type)}, not ${valueWords(error.data)}`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'minItems':
      return `needs at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must have at most ${String(params.limit)} items`;
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters long`;
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters long`;
    case 'minimum':
      return `must be at least ${String(params.limit)}`;
    case 'maximum':
      return `must be at most ${String(params.limit)}`;
    case 'format':
      return `${error.propertyName === undefined ? 'must' : 'the member name must'} be ${formatWords(String(params.format))}`;
    case 'pattern':
      return `does not have the required form (pattern ${String(params.pattern)})`;
    case 'uniqueItems':
      return `lists the same item twice (items ${String(params.j)} and ${String(params.i)})`;
    case 'false schema':
      return 'is not allowed here';
    case 'anyOf':
    case 'oneOf':
      return 'does not match any of the allowed forms';
    default:
      return error.message ?? `fails the schema keyword ${error.keyword}`;
  }
}

function unknownErrorCode(error: ErrorObject): string {
  const codes = AUTH_ERROR_LIST.map((r) => r.code);
  if (typeof error.data !== 'string') return `must be an error_code of spec section 7.3 (a string) or null, not ${valueWords(error.data)}`;
  const suggestion = closestWord(error.data, codes);
  return `"${error.data}" is not an error_code of spec section 7.3${suggestion ? ` (did you mean "${suggestion}"?)` : ''}`;
}

function unknownMember(name: string, error: ErrorObject, rootNoun: string): string {
  const allowed = allowedMembers(error.parentSchema);
  const suggestion = closestWord(name, allowed);
  const noun = nounOf(error.instancePath, rootNoun);
  return suggestion
    ? `unknown member (did you mean "${suggestion}"?)`
    : `unknown member; a ${noun} has only ${allowed.map((m) => `"${m}"`).join(', ')}`;
}

/** The members a schema object names, following a $ref to the case members (the case and vector-case schemas). */
function allowedMembers(schema: unknown): string[] {
  const s = schema as { properties?: Record<string, unknown>; $ref?: string } | undefined;
  const own = Object.keys(s?.properties ?? {});
  const viaRef = s?.$ref?.endsWith('/$defs/caseMembers') ? CASE_MEMBERS : [];
  return [...viaRef, ...own];
}

const CASE_MEMBERS = ['id', 'description', 'platform', 'now', 'documents', 'registrations', 'steps'];

function nounOf(instancePath: string, rootNoun: string): string {
  if (instancePath === '') return rootNoun;
  return NOUNS.find(([at]) => at.test(instancePath))?.[1] ?? 'member here';
}

function formatWords(format: string): string {
  const words: Record<string, string> = {
    uri: 'an absolute URL',
    ipv4: 'an IPv4 address',
    ipv6: 'an IPv6 address',
    base64: 'standard base64 (A-Z, a-z, 0-9, + and /, padded with =)',
  };
  return words[format] ?? `in ${format} form`;
}

