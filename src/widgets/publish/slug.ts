import { WIDGET_AGENT_SLUG } from '../../spec/publish.js';

/** The first six characters of a user id, lower case (4.5 step 2's userId6; see WIDGET_AGENT_SLUG). */
export function userId6(userId: string): string {
  return userId.toLowerCase().slice(0, WIDGET_AGENT_SLUG.userIdLength);
}

/** A bundle's slug from its manifest name: accents dropped, lower case, [a-z0-9] runs joined by "-", bounded length. */
export function bundleSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, WIDGET_AGENT_SLUG.separator)
    .slice(0, WIDGET_AGENT_SLUG.bundleSlugMaxLength)
    .replace(/^-+|-+$/g, '');
  return slug || WIDGET_AGENT_SLUG.emptyBundleSlug;
}

/** `<prefix>-<userId6>-<bundleSlug>`, and for a remix `...-r<N>` (4.5 step 2). */
export function agentSlug(userId: string, name: string, remixNumber?: number): string {
  const base = [WIDGET_AGENT_SLUG.prefix, userId6(userId), bundleSlug(name)].join(WIDGET_AGENT_SLUG.separator);
  return remixNumber === undefined ? base : `${base}${WIDGET_AGENT_SLUG.remixSuffix}${remixNumber}`;
}
