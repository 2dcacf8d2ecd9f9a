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
    const long = `${'x'.repeat(100)} @`;
    expect(throttledSource(long)).toBe(`${'x'.repeat(100)}%20%40`);
  });

  it('asked again, each address gets the same answer (answers are remembered per address)', () => {
    const addresses = ['192.0.2.7', '192.0.2.8', '::ffff:192.0.2.7', '2001:db8:5:6::1', '2001:db8:5:7::1', 'not an address', `${'y'.repeat(80)}@`];
    const expected = ['192.0.2.7', '192.0.2.8', '192.0.2.7', '2001:db8:5:6::/64', '2001:db8:5:7::/64', 'not%20an%20address', `${'y'.repeat(80)}%40`];
    expect(addresses.map(throttledSource)).toEqual(expected);
    expect(addresses.map(throttledSource)).toEqual(expected);
  });
});
