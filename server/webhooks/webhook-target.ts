// Where webhooks may go. A sandbox on a developer's machine posts to a receiver on localhost; a
// server reachable by others must not be turned into a proxy to its own network (SSRF), so unless
// private targets are allowed, URLs naming a loopback, private, link-local or otherwise non-public
// address are refused, and so are names that resolve to one (checked on every connection, so a
// name cannot be switched to an internal address after the check).
import { lookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) nonPublic.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) nonPublic.addSubnet(network, prefix, 'ipv6');

/** Whether an IP address is on the public internet (IPv4-mapped IPv6 addresses are judged as IPv4). */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return isPublicAddress(mapped);
  const family = isIP(address);
  if (family === 0) return false;
  return !nonPublic.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why a URL's host is not a public target, judged without DNS (IP literals and localhost names). */
export function nonPublicHostReason(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is this machine`;
  if (isIP(host) !== 0 && !isPublicAddress(host)) return `${host} is not a public address`;
  return undefined;
}

/** Names no receiver is ever at: reserved for documentation (RFC 2606: example.com, .net, .org, `.example`) or guaranteed not to resolve (`.invalid`). */
const RESERVED_NAME = /(^|\.)(example\.(com|net|org)|example|invalid)$/;

/**
 * Why a URL's host can never be a receiver (a reserved name), judged without DNS, whatever the
 * server allows: the sandbox's own examples name platform.example.com, and a delivery there would
 * otherwise wait on name resolution (seconds where DNS is slow or absent) or reach IANA's server.
 */
export function reservedHostReason(url: URL): string | undefined {
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  return RESERVED_NAME.test(host) ? `${host} is reserved for documentation (RFC 2606): no receiver is there` : undefined;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for http.request that fails the connection when the name resolves to a non-public address. */
export function publicOnlyLookup(hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err !== null) return callback(err, '');
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused !== undefined) {
      return callback(Object.assign(new Error(`${hostname} resolves to ${refused.address}, which is not a public address`), { code: 'ENONPUBLIC' }), '');
    }
    if ((options as LookupAllOptions).all === true) return callback(null, addresses);
    const first = addresses[0];
    if (first === undefined) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
    callback(null, first.address, first.family);
  });
}
