/**
 * What a run tells the suites: the target, the agent to check, the per-check timeout, the seed, the selection
 * and the self-test. The harness hands it to vitest with `provide`; a suite reads it with `inject`
 * (suites/lib/context.ts). Nothing travels through environment variables or module state, so two runs can go
 * on in one process at once.
 */

/** The deployment a run checks: the embedded reference (in-process), or one over HTTP. */
export type TargetConfig =
  | { readonly kind: 'in-process' }
  | {
      readonly kind: 'live';
      readonly baseUrl: string;
      /** `--also-base-url`: another instance of the same deployment, for the checks that state must be shared by every instance. */
      readonly alsoBaseUrl?: string;
      /** Where the deployment reaches the fixture host, and how the run publishes documents there. */
      readonly fixture: { readonly url: string; readonly adminUrl: string; readonly token: string };
      /** A header the deployment takes the client address from (only where it honours one, behind a proxy). */
      readonly clientAddressHeader?: string;
      readonly runId: string;
      readonly timeoutMs?: number;
      /** `--allow-spend --spend-cap N`: purchase checks may present payment credentials, paying at most N (minor units) in all. */
      readonly spend?: { readonly capMinorUnits: number };
      /** `--allow-waits`: checks of time-bound rules wait in real time (minutes), each wait announced. */
      readonly allowWaits?: boolean;
      /** `--owner-key KEY`: the operator's platform key the deployment accepts in X-Service-Owner-Key (5.2 key continuity). */
      readonly ownerKey?: string;
      /** `--control-url URL`: the deployment's test control (docs/contracts.md section 5), to put it in named states. */
      readonly controlUrl?: string;
      /** `--widget-host-url URL`: the deployment's widget host page, `{postId}` in it (docs/contracts.md section 6); without it the host-side browser checks are not run. */
      readonly widgetHostUrl?: string;
    };

/**
 * A mutant written as data (no code), for faults given from outside the catalogue: it adds one header to every
 * answer of the platform. The self-test's own test uses one to show that a fault no check observes fails the gate.
 */
export interface DeclaredMutant {
  readonly id: string;
  readonly description: string;
  readonly requirements: readonly string[];
  readonly addHeader: { readonly name: string; readonly value: string };
}

/**
 * The names a deployment writes where the spec writes the neutral word Service or a placeholder: `run
 * --service-name` (header names and the 401 realm, src/spec/naming.ts), `--problems-url`, `--payment-problems-url`
 * and `--terms-url` ({problems_url}, {payment_problems_url}, {terms_url}). Absent: the spec's neutral names, and
 * addresses learned from the deployment's answers.
 */
export interface DeploymentNames {
  readonly serviceName?: string;
  readonly problemsUrl?: string;
  readonly paymentProblemsUrl?: string;
  readonly termsUrl?: string;
}

export interface SelfTestConfig {
  readonly extra?: readonly DeclaredMutant[];
}

export interface RunContext {
  readonly target: TargetConfig;
  /** `run --agent-url`: the live agent the agent suites check; absent, they check the embedded reference agent. */
  readonly agentUrl?: string;
  /**
   * `run --agent-client ID:SECRET`: a client the live agent's token endpoint knows (4.3 POST /auth/token), and the
   * @name it asks a token for (the agent itself by default). Absent, the check of a good grant is not run live.
   */
  readonly agentClient?: { readonly id: string; readonly secret: string; readonly target?: string };
  /** `run --timeout`: per check and per request, for checks that would otherwise pick their own. */
  readonly timeoutMs?: number;
  /** Drives the property-based checks; the same seed repeats their cases. */
  readonly seed: number;
  /** Requirement ids and check ids (`--only`); empty selects every check of the files run. */
  readonly selection: readonly string[];
  /** `run --self-test`: each check is also tried against the mutants naming its requirements. */
  readonly selfTest?: SelfTestConfig;
  /** `run --chromium PATH`: the Chromium the browser checks launch (else CHROMIUM_PATH, else /usr/bin/chromium). */
  readonly chromiumPath?: string;
  /** `run --service-name` and the like: the deployment's own names (in-process, the embedded reference takes the service name too). */
  readonly deployment?: DeploymentNames;
}

/** What a suite sees when no run provided a context (plain `vitest` over suites/): the embedded reference, all checks. */
export const DEFAULT_RUN_CONTEXT: RunContext = Object.freeze<RunContext>({ target: { kind: 'in-process' }, seed: 1, selection: [] });

// The run hands this context to vitest's provide; typing the key needs vitest's own declarations (types only).
import type {} from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    conformance: RunContext;
  }
}
