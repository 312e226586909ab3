import type { AgentCheckProblemCode } from '../spec/agent-check.js';

/**
 * One thing wrong with an agent's documents, said so an implementer can act on it at 2 a.m.: what was found,
 * what the spec wants, how to fix it. A warning does not make the agent fail.
 */
export interface AgentProblem {
  readonly code: AgentCheckProblemCode;
  /** The catalogue requirement it breaks. */
  readonly requirement: string;
  readonly url: string;
  readonly message: string;
  readonly level: 'error' | 'warning';
}

export function problem(code: AgentCheckProblemCode, requirement: string, url: string, message: string, level: AgentProblem['level'] = 'error'): AgentProblem {
  return { code, requirement, url, message, level };
}

/** The members of a JWK that are its private key (RFC 7518 6.2.2, 6.3.2, 6.4.1): never quoted in a message. */
const PRIVATE_JWK_MEMBERS: readonly string[] = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** The private members a JWK-like object (one with kty) carries, in the order RFC 7518 names them. */
export function privateMembersOf(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('kty' in value)) return [];
  return PRIVATE_JWK_MEMBERS.filter((m) => m in value);
}

/**
 * JSON.stringify for a value quoted in a message, clipped so a huge value cannot drown the sentence. The private
 * members of any JWK in it show as "[private, not shown]": a message must not spread a key it found exposed.
 */
export function shown(value: unknown): string {
  const text =
    value === undefined
      ? 'nothing'
      : JSON.stringify(value, function (this: unknown, member: string, v: unknown) {
          return privateMembersOf(this).includes(member) ? '[private, not shown]' : v;
        });
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/** What a published private key means, and what to do, naming the private members found (never their values). */
export function exposedKeyMessage(at: string, members: readonly string[]): string {
  const named = members.length === 1 ? `the private member ${members[0]}` : `the private members ${members.join(', ')}`;
  return `${at} carries ${named}: the private key is exposed, public now to anyone who fetched it. Take it down at once, generate a new key (the old one is compromised; agent-platform-conformance keygen) and publish only the public half: kty, crv, x, use and kid.`;
}
