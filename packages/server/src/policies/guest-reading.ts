import { BlockList, isIP } from 'node:net';
import type { PolicyActor } from './policy-management.js';

/**
 * Reading policies without an account (issue 28), the one rule every route asks: a project that turned guest reading
 * on lets a request read its published policies, and only those, when the request comes from one of the listed
 * networks (CIDR ranges: the unit kiosks'). Off, or from anywhere else, it asks to sign in.
 */
export interface GuestReading {
  enabled: boolean;
  /** Normalised CIDR ranges (normaliseRange). */
  ipRanges: string[];
}

/** "10.1.2.3" is "10.1.2.3/32"; "10.1.0.0/16" stays; IPv6 too. Null for anything else. */
export function normaliseRange(input: string): string | null {
  const value = input.trim();
  const [address = '', prefixText, extra] = value.split('/');
  if (extra !== undefined) return null;
  const family = isIP(address);
  if (family === 0) return null;
  const max = family === 4 ? 32 : 128;
  if (prefixText === undefined) return `${address.toLowerCase()}/${max}`;
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  if (prefix > max) return null;
  return `${address.toLowerCase()}/${prefix}`;
}

/** An IPv4 client seen through an IPv6 socket arrives as ::ffff:10.1.2.3. */
function plainAddress(ip: string): string {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

export function addressInRanges(ranges: readonly string[], ip: string): boolean {
  const address = plainAddress(ip);
  const family = isIP(address);
  if (family === 0) return false;
  const list = new BlockList();
  for (const range of ranges) {
    const [network = '', prefix] = range.split('/');
    const rangeFamily = isIP(network);
    if (rangeFamily === 0 || prefix === undefined) continue;
    list.addSubnet(network, Number(prefix), rangeFamily === 4 ? 'ipv4' : 'ipv6');
  }
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Whether a request from `ip` may read the project's published policies without signing in. */
export function guestMayRead(setting: GuestReading | null | undefined, ip: string): boolean {
  return Boolean(setting?.enabled) && addressInRanges(setting?.ipRanges ?? [], ip);
}

/** No user has this id (ids start at 1): a guest is asked on no workflow and is nobody in any record. */
export const NOBODY = 0;

/**
 * The actor a guest reads as: no role and no rules, so the policy rules (visibility.ts listedFor, documentsVisibleTo)
 * show published documents only, and never anything asked of a person. Nothing may be written in its name.
 */
export function guestActor(projectId: number, ip: string): PolicyActor {
  return { userId: NOBODY, projectId, isSuperadmin: false, role: null, rules: [], ip, requestId: null };
}
