import { describe, expect, it } from 'vitest';
import { addressInRanges, guestMayRead, normaliseRange } from './guest-reading.js';

describe('guest reading', () => {
  it('normalises addresses and ranges and refuses anything else', () => {
    expect(normaliseRange(' 10.1.2.3 ')).toBe('10.1.2.3/32');
    expect(normaliseRange('10.1.0.0/16')).toBe('10.1.0.0/16');
    expect(normaliseRange('2001:DB8::/32')).toBe('2001:db8::/32');
    expect(normaliseRange('10.1.0.0/33')).toBeNull();
    expect(normaliseRange('10.1.0.0/16/2')).toBeNull();
    expect(normaliseRange('kiosk-network')).toBeNull();
    expect(normaliseRange('10.1.0.0/x')).toBeNull();
  });

  it('lets in only addresses inside a listed range, IPv4 seen through IPv6 included', () => {
    const ranges = ['10.20.0.0/16', '192.168.5.7/32', '2001:db8::/32'];
    expect(addressInRanges(ranges, '10.20.99.1')).toBe(true);
    expect(addressInRanges(ranges, '::ffff:10.20.99.1')).toBe(true);
    expect(addressInRanges(ranges, '10.21.0.1')).toBe(false);
    expect(addressInRanges(ranges, '192.168.5.7')).toBe(true);
    expect(addressInRanges(ranges, '192.168.5.8')).toBe(false);
    expect(addressInRanges(ranges, '2001:db8:1::5')).toBe(true);
    expect(addressInRanges(ranges, 'not an address')).toBe(false);
  });

  it('is off unless switched on, whatever the ranges', () => {
    expect(guestMayRead({ enabled: false, ipRanges: ['0.0.0.0/0'] }, '10.0.0.1')).toBe(false);
    expect(guestMayRead(null, '10.0.0.1')).toBe(false);
    expect(guestMayRead({ enabled: true, ipRanges: [] }, '10.0.0.1')).toBe(false);
    expect(guestMayRead({ enabled: true, ipRanges: ['10.0.0.0/8'] }, '10.0.0.1')).toBe(true);
  });
});
