import { INBAND_REQUIREMENTS } from '../spec/inband.js';
import { SDK_AUTH_REQUIREMENTS } from '../spec/sdk-auth.js';
import { WIDGET_PROBLEMS } from '../spec/widgets.js';
import type { UntestableRequirement } from './types.js';

/**
 * Catalogue requirements no check of a conformance run can observe, each with the reason. The self-test does not
 * fail for want of a check or a mutant for these; everything else without a check fails it.
 */
export const UNTESTABLE: readonly UntestableRequirement[] = Object.freeze([
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
