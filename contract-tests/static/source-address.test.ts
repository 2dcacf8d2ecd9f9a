// Who a failure limit counts (server/shared/source-address.ts): an IPv4 address, or an IPv6 /64,
// however the address is written; anything else as text that cannot break a cache revocation.
import { describe, expect, it } from 'vitest';
import { throttledSource } from '../../server/shared/source-address.ts';

describe('throttledSource', () => {
  it('an IPv4 address is itself, also as a dual-stack socket reports it', () => {
    expect(throttledSource('192.0.2.1')).toBe('192.0.2.1');
    expect(throttledSource('::ffff:192.0.2.1')).toBe('192.0.2.1');
  });

  it('an IPv6 address is its /64, however it is written', () => {
    expect(throttledSource('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(throttledSource('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(throttledSource('2001:DB8:1:2:0:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(throttledSource('2001:db8:1:3::1')).not.toBe(throttledSource('2001:db8:1:2::1'));
    expect(throttledSource('::1')).toBe('0:0:0:0::/64');
  });

  it('anything else is kept, encoded: no space or @ reaches a revocation message', () => {
    expect(throttledSource('')).toBe('');
    expect(throttledSource('not an address')).toBe('not%20an%20address');
    expect(throttledSource('a@b')).toBe('a%40b');
  });
});
