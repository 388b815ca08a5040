import net from 'node:net';
import { AppError } from '../../../src-shared/errors';

/**
 * Which addresses main may read a clip from ("Add by URL"). The renderer names the address, so
 * main must not become its way into this machine or its network: https to public addresses only,
 * and this machine (http or https) only when the person who started Reelscout said so
 * (`--allow-loopback-urls`: test servers, the emulator). Private networks, link-local (cloud
 * metadata at 169.254.169.254), multicast and reserved ranges are never read.
 */
export interface RemoteUrlPolicy {
  allowLoopback: boolean;
}

export const LOOPBACK_FLAG = '--allow-loopback-urls';

const ON_THIS_COMPUTER = `an address on this computer is read only when Reelscout was started with ${LOOPBACK_FLAG}, and only the one typed in (never one a redirect names)`;

function blockList(v4: Array<[string, number]>, v6: Array<[string, number]>): net.BlockList {
  const b = new net.BlockList();
  for (const [a, p] of v4) b.addSubnet(a, p, 'ipv4');
  for (const [a, p] of v6) b.addSubnet(a, p, 'ipv6');
  return b;
}

const LOOPBACK = blockList([['127.0.0.0', 8]], [['::1', 128]]);

/** Not the public internet (IANA special-purpose registries): never read, whatever the flag. */
const NOT_PUBLIC = blockList(
  [
    ['0.0.0.0', 8], // "this network", 0.0.0.0 reaches this machine
    ['10.0.0.0', 8],
    ['100.64.0.0', 10], // carrier-grade NAT
    ['169.254.0.0', 16], // link-local, cloud metadata
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4], // multicast
    ['240.0.0.0', 4], // reserved, broadcast
  ],
  [
    ['::', 96], // unspecified, and the old IPv4-compatible form (::127.0.0.1)
    ['64:ff9b:1::', 48],
    ['100::', 64],
    ['2001:db8::', 32],
    ['fc00::', 7], // unique local
    ['fe80::', 10], // link-local
    ['ff00::', 8], // multicast
  ],
);

function family(address: string): 'ipv4' | 'ipv6' | null {
  const f = net.isIP(address);
  return f === 4 ? 'ipv4' : f === 6 ? 'ipv6' : null;
}

/** Why main may not connect to `address` for a URL of `protocol` (null: it may). */
export function addressRefusal(address: string, protocol: string, policy: RemoteUrlPolicy): string | null {
  const fam = family(address);
  if (!fam) return `${address} is not an IP address`;
  if (LOOPBACK.check(address, fam)) {
    return policy.allowLoopback ? null : `${address} is this computer: ${ON_THIS_COMPUTER}`;
  }
  if (NOT_PUBLIC.check(address, fam)) return `${address} is a private, link-local or reserved address: Reelscout reads clips only from the internet`;
  if (protocol !== 'https:') return 'plain http is read only from this computer (and only when allowed); use an https address';
  return null;
}

const hostOf = (u: URL) => u.hostname.replace(/^\[|\]$/g, '');
const isLocalName = (host: string) => /^localhost\.?$/i.test(host) || /\.localhost\.?$/i.test(host);

/**
 * Why this workstation does not read `url` under `policy` (its scheme, a user name in it, its host
 * literally this computer or a private network), or null when it may try: what playback says of a
 * clip added by URL, here or by another seat of the team, before reading it. Names are checked again
 * when connecting, as for every read.
 */
export function remoteUrlRefusal(url: string, policy: RemoteUrlPolicy): string | null {
  try {
    checkRemoteUrl(url, policy);
    return null;
  } catch (e) {
    if (e instanceof AppError) return e.message;
    throw e;
  }
}

/**
 * The address as main will read it, or `invalid` with the reason. Names are checked again on
 * every connection (remote-fetch.ts resolves them and checks each address), so a name that
 * resolves to this machine or a private network is refused there.
 */
export function checkRemoteUrl(raw: string | URL, policy: RemoteUrlPolicy): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new AppError('invalid', 'not a web address');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new AppError('invalid', `${u.protocol} addresses are not read: use https`);
  if (u.username || u.password) throw new AppError('invalid', 'an address with a user name or password is not read');
  const host = hostOf(u);
  if (family(host)) {
    const why = addressRefusal(host, u.protocol, policy);
    if (why) throw new AppError('invalid', why);
  } else if (isLocalName(host)) {
    if (!policy.allowLoopback) throw new AppError('invalid', `${host} is this computer: ${ON_THIS_COMPUTER}`);
  } else if (u.protocol !== 'https:') {
    throw new AppError('invalid', 'plain http is read only from this computer (and only when allowed); use an https address');
  }
  return u;
}
