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

/** JSON.stringify for a value quoted in a message, clipped so a huge value cannot drown the sentence. */
export function shown(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
