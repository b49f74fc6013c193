import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Where a run's browser may go. A playbook is written by whoever holds a desk; its pages must
// not be a way to read what only the server's own machine or network can reach. Link-local
// addresses (a cloud's metadata service at 169.254.169.254) are refused always; the machine's
// own and private networks' addresses when the operator says so (DESK_RUN_PRIVATE_ADDRESSES),
// as a server hosting several owners' desks should. A local install keeps them: its demo's
// portal, and many an office's, is on 127.0.0.1 or the office network.

export type PrivateAddresses = 'allow' | 'refuse';

const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LINK_LOCAL.addSubnet('fe80::', 10, 'ipv6');

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');

/** An IPv4 address written inside IPv6 (::ffff:127.0.0.1) is that IPv4 address. */
function plain(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export interface Refused {
  /** The address refused: the host as written when it is one, else what its name stands for. */
  address: string;
  why: 'link-local' | 'private';
}

function refusedIp(ip: string, policy: PrivateAddresses): Refused['why'] | null {
  const { address, family } = plain(ip);
  if (LINK_LOCAL.check(address, family)) return 'link-local';
  return policy === 'refuse' && PRIVATE.check(address, family) ? 'private' : null;
}

/** How a name is resolved; the system's resolver unless a test says otherwise. */
export type Resolve = (host: string) => Promise<Array<{ address: string }>>;

const systemResolve: Resolve = (host) => lookup(host, { all: true, verbatim: true });

/** Where a host may be reached, why it may not be, or null when its name does not resolve. */
export type Destination = { address: string } | { refused: Refused } | null;

/**
 * The address the browser may reach a host at. A name is refused when any address it stands for
 * is, and is reached at the address checked: the browser never resolves the name again itself.
 */
export async function destination(
  hostname: string,
  policy: PrivateAddresses,
  resolve: Resolve = systemResolve,
): Promise<Destination> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const why = refusedIp(host, policy);
    return why ? { refused: { address: host, why } } : { address: host };
  }
  let found: Array<{ address: string }>;
  try {
    found = await resolve(host);
  } catch {
    return null;
  }
  for (const a of found) {
    const why = refusedIp(a.address, policy);
    if (why) return { refused: { address: a.address, why } };
  }
  return found[0] ? { address: found[0].address } : null;
}

/** What a run's step says of a page it was not let open. */
export function refusalWords(hostname: string, r: Refused): string {
  const where = r.address === hostname.replace(/^\[|\]$/g, '') ? r.address : `${hostname} (${r.address})`;
  return r.why === 'link-local'
    ? `the desk does not open pages at ${where}, a link-local address, where a cloud machine's own settings and keys are served`
    : `the desk does not open pages at ${where}, an address on its own machine or network (DESK_RUN_PRIVATE_ADDRESSES is refuse)`;
}
