import { AGENT_READINGS } from './readings/agents.js';
import { CLIENT_READINGS } from './readings/client.js';
import { COMMON_READINGS } from './readings/common.js';
import { PURCHASE_READINGS } from './readings/purchase.js';
import type { ReadingRecord } from './readings/record.js';
import { SIGNED_READINGS } from './readings/signed.js';
import { WIDGET_READINGS } from './readings/widgets.js';

export { CARD_MEMORY_TOLERANCE_S, LIVE_CLOCK_MARGIN_S } from './readings/signed.js';
export { SDK_TOKEN_LEEWAY_S } from './readings/agents.js';
export { CHALLENGE_EXPIRY_TOLERANCE_S, DAILY_CAP_RETRY_AFTER_MAX_S } from './readings/purchase.js';
export { RETRY_AFTER_MARGIN_MS } from './readings/client.js';
export type { ReadingRecord } from './readings/record.js';

/** Every reading of the spec, one file per area under readings/; docs/readings.md is generated from this list. */
export const READINGS = Object.freeze({
  ...SIGNED_READINGS,
  ...COMMON_READINGS,
  ...PURCHASE_READINGS,
  ...AGENT_READINGS,
  ...WIDGET_READINGS,
  ...CLIENT_READINGS,
});

export type ReadingId = keyof typeof READINGS;

export const READING_LIST: readonly ReadingRecord[] = Object.freeze(Object.values(READINGS));
