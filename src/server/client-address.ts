/**
 * What the activity log and the session list keep of a client address: its network, never the address itself
 * (IPv4 to /24, IPv6 to /48), so a row tells an office from another without identifying a device; and what a
 * rate limit counts against (IPv6 by its /64).
 */
import { isIPv4, isIPv6 } from 'node:net';

const plain = (ip: string | undefined) => (ip ?? '').trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

/** The first `count` groups of an IPv6 address, `::` expanded and leading zeros dropped. */
function ipv6Groups(address: string, count: number): string[] {
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return groups.slice(0, count).map((group) => Number.parseInt(group || '0', 16).toString(16));
}

/** `198.51.100.23` → `198.51.100.0/24`; `2001:db8:1:2::5` → `2001:db8:1::/48`; anything else → `''`. */
export function truncatedAddress(ip: string | undefined): string {
  const address = plain(ip);
  if (isIPv4(address)) return `${address.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIPv6(address)) return `${ipv6Groups(address, 3).join(':')}::/48`;
  return '';
}

/**
 * What a per-network rate limit counts against: an IPv4 address as it is, an IPv6 address by its /64, the
 * smallest network a provider hands one subscriber (RFC 6177), so the 2^64 addresses of one line share one
 * allowance. `2001:db8:1:2::5` and `2001:db8:1:2:ffff::1` → `2001:db8:1:2::/64`.
 */
export function limitedNetwork(ip: string | undefined): string {
  const address = plain(ip);
  if (isIPv6(address)) return `${ipv6Groups(address, 4).join(':')}::/64`;
  return address;
}
