/** IP addresses (5.2's publicly routable rule) and allow lists of addresses and prefixes. */
export { parseIpAddress } from './ip-address.js';
export { classifyAddress, isLoopbackAddress } from './addresses.js';
export { parseAllowList, parseAllowEntry, allowListCovers, isAddressAllowed, AllowListError, EMPTY_ALLOW_LIST, type AllowList } from './allow-list.js';
