import { isIPv4, isIPv6 } from 'node:net';

/**
 * One client, one spelling: the address a request's limits count against. A trusted proxy may
 * name its client with the port it came from (`203.0.113.7:50001`, `[2001:db8::7]:443`), new on
 * every connection, and IPv6 has many spellings of one address (`2001:DB8:0::1`, an IPv4
 * address as `::ffff:1.1.1.1`). Counted as given, each would be a client of its own, and the
 * limits would hold nobody behind such a proxy. What is no address is counted as written.
 */
export function clientAddress(raw: string): string {
  const given = raw.trim();
  const bare =
    /^\[([^\]]+)\](?::\d+)?$/.exec(given)?.[1] ?? /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(given)?.[1] ?? given;
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return given.toLowerCase();
  let host: string;
  try {
    // The URL parser writes an IPv6 address in its one short form (RFC 5952).
    host = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  } catch {
    // A zone (fe80::1%eth0) is no part of a URL's host.
    return bare.toLowerCase();
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!mapped) return host;
  const hi = Number.parseInt(mapped[1]!, 16);
  const lo = Number.parseInt(mapped[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}
