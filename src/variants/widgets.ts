import type { WidgetServiceOptions } from '../reference/widgets/service.js';
import { BRIDGE_ERRORS } from '../spec/bridge-errors.js';
import { REQUIREMENTS as R } from '../spec/requirements.js';
import type { Variant } from './types.js';

/** Sections 2.5, 4.6 and 7.1: the reference host making another choice the spec allows. */
export const WIDGET_VARIANTS: readonly Variant[] = [
  {
    id: 'widget-host-refuses-link-as-invalid-args',
    description: 'refuses a bridge.openLink URL off the redirectDomains allowlist with invalid_args, judging the URL as an argument',
    readings: ['openLinkGate'],
    requirements: [R.widgetOpenLinkRedirectDomains.id],
    platform: {
      widgets: (o: WidgetServiceOptions): WidgetServiceOptions => ({ ...o, host: { ...(o.host || {}), openLinkRefusal: BRIDGE_ERRORS.invalid_args.code } }),
    },
  },
];
