export { parseIpAddress, formatIpv4, type IpAddress } from './ip-address.js';
export { parsePrefix, prefixContains, addressPrefix, type IpPrefix } from './prefix.js';
export { IPV4_SPECIAL_RANGES, IPV6_SPECIAL_RANGES, IPV4_MAPPED, IPV6_GLOBAL_UNICAST, type SpecialRange } from './special-ranges.js';
export { classifyAddress, classifyIp, isLoopbackAddress, unmapIpv4, type AddressClassification } from './addresses.js';
export {
  parseAllowList,
  parseAllowEntry,
  allowListCovers,
  isAddressAllowed,
  AllowListError,
  EMPTY_ALLOW_LIST,
  type AllowList,
  type AllowEntry,
} from './allow-list.js';
