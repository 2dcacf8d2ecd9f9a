// Who a throttle counts: the address a request came from (Express's `req.ip`, which believes a
// proxy's X-Forwarded-For only as TRUST_PROXY says). An IPv4 address is one client; an IPv6 client
// usually holds a whole /64 and can change addresses within it at will, so its /64 is the client.
import ipaddr from 'ipaddr.js';

/**
 * The client a throttle counts for `address`: an IPv4 address, an IPv6 /64 (`2001:db8:1:2::/64`),
 * or, for anything else, the text percent-encoded (no spaces, no `@`: it goes into cache revocations).
 */
export function throttledSource(address: string): string {
  // Behind a trusted proxy the address is whatever X-Forwarded-For says: only what can be an IP
  // address is remembered, so the map stays small whatever a client sends.
  if (address.length > MAX_ADDRESS_LENGTH) return parse(address);
  let source = known.get(address);
  if (source === undefined) {
    // Parsed once per address, not on every authenticated request; the map is bounded.
    if (known.size >= MAX_KNOWN) known.clear();
    source = parse(address);
    known.set(address, source);
  }
  return source;
}

const MAX_KNOWN = 10_000;
/** The longest IPv6 address text, an IPv4-mapped one with a zone index, is well under this. */
const MAX_ADDRESS_LENGTH = 64;
const known = new Map<string, string>();

function parse(address: string): string {
  if (!ipaddr.isValid(address)) return encodeURIComponent(address);
  // process() turns an IPv4-mapped IPv6 address (::ffff:192.0.2.1, as a dual-stack socket reports it) into IPv4.
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}
