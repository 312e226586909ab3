import { AGENT_VARIANTS } from './agent.js';
import { PURCHASE_VARIANTS } from './purchase.js';
import type { Variant } from './types.js';
import { VERIFIER_VARIANTS } from './verifier.js';
import { WIDGET_VARIANTS } from './widgets.js';

/** Every conformant variant of the reference deployments: another choice the spec allows, which the suite must pass. */
export const VARIANTS: readonly Variant[] = Object.freeze([...VERIFIER_VARIANTS, ...PURCHASE_VARIANTS, ...AGENT_VARIANTS, ...WIDGET_VARIANTS]);
