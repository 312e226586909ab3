/** Plain words for JSON Schema types and values, shared by every place that explains a schema error to a person. */

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  object: 'an object',
  array: 'a list',
  boolean: 'true or false',
  null: 'null',
};

/** `["string","null"]` or `"string,null"` reads "a string or null". */
export function typeWords(type: unknown): string {
  const types = Array.isArray(type) ? type.map(String) : String(type).split(',');
  return types.map((t) => TYPE_WORDS[t] ?? t).join(' or ');
}

/** What a value is, in words: "a whole number", "a list", "true". */
export function valueWords(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number') return Number.isInteger(value) ? 'a whole number' : 'a fractional number';
  if (typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A noun with its article: "a case", "an auth skill configuration", and "the expected-failures file" as it is. */
export function withArticle(noun: string): string {
  if (/^(?:the|a|an|this|each|every|any)\s/i.test(noun)) return noun;
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** RFC 6901: a member name as one reference token. */
export function escapePointer(member: string): string {
  return member.replaceAll('~', '~0').replaceAll('/', '~1');
}
