import type { ErrorObject } from 'ajv/dist/2020.js';
import { closestWord } from './closest-word.js';
import { escapePointer, typeWords, valueWords, withArticle } from './words.js';

/** One thing wrong with an input file: the member at fault as a JSON pointer, and what is wrong in plain words. */
export interface InputProblem {
  readonly pointer: string;
  readonly message: string;
}

export interface Rule {
  /** Matched against the whole pointer of the member at fault. */
  readonly at: RegExp;
  readonly keywords?: readonly string[];
  /** Reports the problem at this pointer instead (e.g. the header pair rather than one of its items). */
  readonly reportAt?: (match: RegExpExecArray) => string;
  readonly say: string | ((error: ErrorObject) => string);
}

/**
 * What an input format adds to the generic words: rules for members whose schema wording would be unhelpful
 * (first match wins), nouns for the objects at given pointers, and members a $ref brings into an object.
 */
export interface SchemaVocabulary {
  readonly rules?: readonly Rule[];
  readonly nouns?: ReadonlyArray<readonly [RegExp, string]>;
  readonly membersOf?: (ref: string) => readonly string[];
}

/** Plain-words problems for ajv's errors, most specific first, without repeats. */
export function describeSchemaErrors(errors: readonly ErrorObject[], rootNoun: string, vocabulary: SchemaVocabulary = {}): InputProblem[] {
  const problems: InputProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    // These wrap an inner error that is reported on its own.
    if (error.keyword === 'propertyNames' || (error.keyword === 'anyOf' && errors.length > 1)) continue;
    const problem = describe(error, rootNoun, vocabulary);
    const key = `${problem.pointer}\n${problem.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  }
  return problems;
}

function describe(error: ErrorObject, rootNoun: string, vocabulary: SchemaVocabulary): InputProblem {
  const pointer = pointerOf(error);
  for (const rule of vocabulary.rules ?? []) {
    if (rule.keywords && !rule.keywords.includes(error.keyword)) continue;
    const match = rule.at.exec(pointer);
    if (!match) continue;
    return {
      pointer: rule.reportAt ? rule.reportAt(match) : pointer,
      message: typeof rule.say === 'string' ? rule.say : rule.say(error),
    };
  }
  return { pointer, message: genericMessage(error, rootNoun, vocabulary) };
}

/** The member at fault: for a missing or unknown member, the member itself rather than its parent. */
function pointerOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const member = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty ?? error.propertyName;
  return typeof member === 'string' ? `${error.instancePath}/${escapePointer(member)}` : error.instancePath;
}

function genericMessage(error: ErrorObject, rootNoun: string, vocabulary: SchemaVocabulary): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `missing (${withArticle(nounOf(error.instancePath, rootNoun, vocabulary))} must have "${String(params.missingProperty)}")`;
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return unknownMember(String(params.additionalProperty ?? params.unevaluatedProperty), error, rootNoun, vocabulary);
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

function unknownMember(name: string, error: ErrorObject, rootNoun: string, vocabulary: SchemaVocabulary): string {
  const allowed = allowedMembers(error.parentSchema, vocabulary);
  const suggestion = closestWord(name, allowed);
  const noun = nounOf(error.instancePath, rootNoun, vocabulary);
  return suggestion
    ? `unknown member (did you mean "${suggestion}"?)`
    : `unknown member; ${withArticle(noun)} has only ${allowed.map((m) => `"${m}"`).join(', ')}`;
}

/** The members a schema object names, with those a $ref brings in when the vocabulary knows them. */
function allowedMembers(schema: unknown, vocabulary: SchemaVocabulary): string[] {
  const s = schema as { properties?: Record<string, unknown>; $ref?: string } | undefined;
  const own = Object.keys(s?.properties ?? {});
  const viaRef = s?.$ref && vocabulary.membersOf ? vocabulary.membersOf(s.$ref) : [];
  return [...viaRef, ...own];
}

function nounOf(instancePath: string, rootNoun: string, vocabulary: SchemaVocabulary): string {
  if (instancePath === '') return rootNoun;
  return vocabulary.nouns?.find(([at]) => at.test(instancePath))?.[1] ?? 'member here';
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
