export { checkBareDomain, isBareDomain, type DomainRejection, type DomainVerdict } from './bare-domain.js';
export {
  buildCspPolicy,
  defaultCspPolicy,
  renderPolicy,
  CSP_POINTER,
  type CspDirectives,
  type CspLists,
  type RejectedDomain,
  type WidgetCspPolicy,
} from './policy.js';
export { openLinkDecision } from './open-link.js';
