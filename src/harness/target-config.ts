/** How the run tells the suites (in vitest workers) which target to use: one JSON environment variable. */
export const TARGET_ENV = 'CONFORMANCE_TARGET';

export type TargetConfig =
  | { readonly kind: 'in-process' }
  | {
      readonly kind: 'live';
      readonly baseUrl: string;
      readonly fixture: { readonly url: string; readonly adminUrl: string; readonly token: string };
      readonly clientAddressHeader?: string;
      readonly runId: string;
      readonly timeoutMs?: number;
      /** `--allow-spend --spend-cap N`: purchase checks may present payment credentials, paying at most N (minor units) in all. */
      readonly spend?: { readonly capMinorUnits: number };
    };

export function readTargetConfig(env: NodeJS.ProcessEnv = process.env): TargetConfig {
  const raw = env[TARGET_ENV];
  return raw ? (JSON.parse(raw) as TargetConfig) : { kind: 'in-process' };
}

/** The run's per-check timeout (`run --timeout`), for checks that would otherwise pick their own. */
export const CHECK_TIMEOUT_ENV = 'CONFORMANCE_CHECK_TIMEOUT_MS';

export function checkTimeoutMs(fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env[CHECK_TIMEOUT_ENV]);
  return Number.isSafeInteger(configured) && configured > 0 ? configured : fallback;
}

/** `run --agent-url URL`: the live agent the agent suites check (without it they check the embedded reference agent). */
export const AGENT_TARGET_ENV = 'CONFORMANCE_AGENT_URL';

export function readAgentUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env[AGENT_TARGET_ENV];
  return value ? value : undefined;
}
