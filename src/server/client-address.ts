/**
 * What the activity log and the session list keep of a client address: its network, never the address itself
 * (IPv4 to /24, IPv6 to /48), so a row tells an office from another without identifying a device.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** `198.51.100.23` → `198.51.100.0/24`; `2001:db8:1:2::5` → `2001:db8:1::/48`; anything else → `''`. */
export function truncatedAddress(ip: string | undefined): string {
  const address = (ip ?? '').trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (isIPv4(address)) return `${address.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIPv6(address)) {
    const [head = '', tail = ''] = address.split('::');
    const left = head ? head.split(':') : [];
    const right = tail ? tail.split(':') : [];
    const groups = address.includes('::')
      ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
      : left;
    const network = groups.slice(0, 3).map((group) => Number.parseInt(group || '0', 16).toString(16));
    return `${network.join(':')}::/48`;
  }
  return '';
}
