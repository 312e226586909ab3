import { BRIDGE_ERROR_LIST, BRIDGE_ERRORS } from '../spec/bridge-errors.js';
import { ENDPOINT_ERRORS } from '../spec/endpoint-errors.js';
import { INBAND_REQUIREMENTS } from '../spec/inband.js';
import { LIMITS } from '../spec/limits.js';
import { SDK_AUTH_REQUIREMENTS } from '../spec/sdk-auth.js';
import { WIDGET_PROBLEMS } from '../spec/widgets.js';
import type { UntestableRequirement } from './types.js';

const BRIDGE_REASON =
  'a host bridge error travels between a widget iframe and its host page (postMessage, 4.6); the spec shows no HTTP status for it (7.1) and a conformance run, which speaks HTTP to a deployment, sees neither side';

/**
 * Catalogue requirements no check of a conformance run can observe, each with the reason. The self-test does not
 * fail for want of a check or a mutant for these; everything else without a check fails it.
 */
export const UNTESTABLE: readonly UntestableRequirement[] = Object.freeze([
  {
    id: ENDPOINT_ERRORS.responseSizeCapExceeded.id,
    reason: 'the spec gives RESPONSE_SIZE_CAP_EXCEEDED no status and no size, and no request can make an agent answer too large',
  },
  // FN_NOT_FOUND is observed over MCP: a tool whose function was not published answers it (suites 4.4, 4.5).
  ...BRIDGE_ERROR_LIST.filter((r) => r.id !== BRIDGE_ERRORS.FN_NOT_FOUND.id).map((r) => ({ id: r.id, reason: BRIDGE_REASON })),
  {
    id: LIMITS.serviceUnavailableRetries.id,
    reason: 'how often a widget retries service_unavailable is behaviour of the bridge client in the page, not of a deployment',
  },
  {
    id: INBAND_REQUIREMENTS.buyerPointerRule.id,
    reason: 'the pointer rule is behaviour of a buying SDK client, which the run is itself; a deployment cannot break it',
  },
  { id: SDK_AUTH_REQUIREMENTS.configValid.id, reason: "the auth skill's configuration lives inside the agent; no request or answer carries it" },
  {
    id: WIDGET_PROBLEMS.entryNotLinked.id,
    reason:
      'a rule of the bundle (2.5 folder layout) that the spec ties to nothing a deployment does: check-widget judges it in a bundle (READING-WIDGET-PUBLISH-OBSERVED)',
  },
  {
    id: WIDGET_PROBLEMS.assetMissing.id,
    reason:
      'a rule of the bundle (iconRef and themeRef name files of the folder) that the spec ties to nothing a deployment does: check-widget judges it in a bundle (READING-WIDGET-PUBLISH-OBSERVED)',
  },
  { id: SDK_AUTH_REQUIREMENTS.authContext.id, reason: "the AuthContext is an object handed to the agent's own handler; no request or answer carries it" },
]);
