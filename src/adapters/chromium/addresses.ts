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

/** The eight 16-bit groups of an IPv6 address, a dotted IPv4 tail included. */
function groupsOf(ip: string): number[] {
  let text = ip;
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const front = head ? head.split(':') : [];
  const back = rest ? rest.split(':') : [];
  const groups = rest === undefined ? front : [...front, ...Array(8 - front.length - back.length).fill('0'), ...back];
  return groups.map((g) => Number.parseInt(g, 16));
}

/**
 * An IPv4 address carried inside IPv6 is that IPv4 address: mapped (::ffff:a.b.c.d), the old
 * compatible form (::a.b.c.d), and NAT64's well-known prefix (64:ff9b::a.b.c.d), which a
 * network with NAT64 hands to the IPv4 address itself.
 */
function plain(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  if (isIP(address) !== 6) return { address, family: 'ipv4' };
  const g = groupsOf(address);
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  const carried =
    (zeros(5) && (g[5] === 0xffff || g[5] === 0)) ||
    (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0));
  if (!carried || (zeros(7) && g[7]! <= 1)) return { address, family: 'ipv6' };
  return { address: [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join('.'), family: 'ipv4' };
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
