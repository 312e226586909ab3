import { escapePointer } from '../../../schema/words.js';
import { FRAME_MEMBERS, type InbandFrameType } from '../../../spec/inband.js';
import { isJsonObject, type JsonObject } from '../json.js';

/*
 * The judge's tools for naming what is wrong in a frame or body a deployment sends (validate.ts, suite 6): problems
 * at JSON pointers, in words for a report. Held by their own unit tests: a
 * conformant target never sends the bad frame that shows a loosened check. The deployment's own
 * reading of what a client sends is submit.ts.
 */

/** One thing wrong, at a JSON pointer (RFC 6901) into the frame or body; "" is the whole value. */
export interface InbandProblem {
  readonly pointer: string;
  readonly message: string;
}

export type InbandCheck = { readonly ok: true } | { readonly ok: false; readonly problems: readonly InbandProblem[] };

export const at = (base: string, ...members: (string | number)[]): string => base + members.map((m) => `/${escapePointer(String(m))}`).join('');

export class Problems {
  readonly list: InbandProblem[] = [];
  add(pointer: string, message: string): void {
    this.list.push({ pointer, message });
  }
  result(): InbandCheck {
    return this.list.length === 0 ? { ok: true } : { ok: false, problems: Object.freeze([...this.list]) };
  }
}

export function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

export function checkType(value: JsonObject, expected: readonly InbandFrameType[], problems: Problems): boolean {
  const type = value[FRAME_MEMBERS.type];
  if ((expected as readonly unknown[]).includes(type)) return true;
  problems.add(at('', FRAME_MEMBERS.type), `must be ${expected.map((t) => `"${t}"`).join(' or ')}, is ${describe(type)}`);
  return false;
}

export function frameObject(value: unknown, problems: Problems): value is JsonObject {
  if (isJsonObject(value)) return true;
  problems.add('', `a frame must be a JSON object, is ${describe(value)}`);
  return false;
}

/** The problems as one line each, `<pointer>: <message>`, for reports. */
export function describeProblems(check: InbandCheck): string[] {
  return check.ok ? [] : check.problems.map((p) => `${p.pointer === '' ? '(frame)' : p.pointer}: ${p.message}`);
}
