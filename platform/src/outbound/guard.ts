/**
 * The one check of every outbound request whose destination someone configured over HTTP (PROTOCOL.md §7
 * "Outbound requests"): webhook events, interaction PINGs and deliveries, the portal's test event, identity-provider
 * discovery, the activity proxy's targets. Server-side request forgery is the danger: a bot token that can set a
 * webhook URL must not make the platform POST to its own development routes, to a database on the loopback
 * interface or to a cloud metadata address.
 *
 * - The platform's own listeners are refused always: any address of this machine (loopback, unspecified, an
 *   interface address) on one of its ports, and the names it advertises.
 * - Every address that is not public unicast — loopback, private, link-local, unspecified, multicast, carrier-grade
 *   NAT, reserved, and the IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4, Teredo, IPv4-compatible) —
 *   is refused unless the operator allowed its range (`outboundAllow`; development mode allows loopback).
 * - A name is resolved once, each address checked, and the request connects to a checked address (`lookup`
 *   returns it), so there is no window for DNS rebinding; redirects are never followed (node:http does not).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';

/** Development mode's allowance (PlatformOptions.outboundAllow): loopback receivers, never the platform itself. */
export const LOOPBACK_RANGES: readonly string[] = ['127.0.0.0/8', '::1/128'];

/**
 * Sent with every request the platform makes through the guard: the development routes refuse any request that
 * carries it (admin/dev-guard.ts), so even a destination the checks let through cannot reach them. `Via` is a
 * header a web page cannot set (a forbidden request header), and proxies add theirs after ours.
 */
export const OUTBOUND_VIA = '1.1 svcpp-platform';
export const OUTBOUND_VIA_TOKEN = /(^|,)\s*[^,\s]+\s+svcpp-platform(\s|,|$)/i;

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Where the platform itself listens: filled in once it does (ports may be ephemeral). */
export interface OwnListeners {
  /** TCP ports of this process's listeners (HTTP API, attachments, voice gateway). */
  ports: ReadonlySet<number>;
  /** `host:port` (lower case, effective port) of every URL the platform advertises. */
  authorities: ReadonlySet<string>;
}

export interface OutboundGuardOptions {
  /** CIDR ranges (or single addresses) allowed although not public. */
  allow: readonly string[];
  own: () => OwnListeners;
  /** Name resolution (every address of a name); tests pass their own. */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  /** This machine's interface addresses; tests pass their own. */
  localAddresses?: () => readonly string[];
}

/** The destination is refused; `message` says why in words a developer can act on. */
export class OutboundRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefusedError';
  }
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** `::/96` (IPv4-compatible, deprecated) is not among the library's special ranges: an embedded IPv4 address too. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

const defaultResolve = async (hostname: string): Promise<ResolvedAddress[]> =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

const interfaceAddresses = (): string[] =>
  Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));

/** `address` or `address/prefix`; a clear error names what is wrong (start-up options are checked with it). */
export function parseRange(text: string): [Address, number] {
  try {
    // Only the usual notations (node:net's): ipaddr.js would also take `10.0.0` or `0x0a.1` as an address.
    if (isIP(text.split('/')[0]!) === 0) throw new Error('not an address');
    if (text.includes('/')) return ipaddr.parseCIDR(text);
    const address = ipaddr.parse(text);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    throw new RangeError(
      `outboundAllow: "${text}" is not an address range (CIDR such as 10.0.0.0/8 or fd00::/8, or one address)`,
    );
  }
}

/** localhost and `*.localhost` are loopback by definition (RFC 6761 §6.3), whatever a resolver says. */
function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

export class OutboundGuard {
  private readonly allowed: Array<[Address, number]>;
  private readonly resolveName: (hostname: string) => Promise<ResolvedAddress[]>;
  private readonly localAddresses: () => readonly string[];

  constructor(private readonly options: OutboundGuardOptions) {
    this.allowed = options.allow.map(parseRange);
    this.resolveName = options.resolve ?? defaultResolve;
    this.localAddresses = options.localAddresses ?? interfaceAddresses;
  }

  /**
   * Configuration time: why the platform would not send to `url`, or undefined. A name that does not resolve now
   * is accepted (it may later; the send-time check decides), one whose every address is refused is not.
   */
  async problem(url: string): Promise<string | undefined> {
    try {
      await this.destination(new URL(url));
      return undefined;
    } catch (error) {
      return error instanceof OutboundRefusedError ? error.message : undefined;
    }
  }

  /**
   * Send time: the address a request to `url` connects to — resolved once, checked, first allowed one in the
   * resolver's order. Throws OutboundRefusedError for a refused destination (or a resolver error).
   */
  async destination(url: URL): Promise<ResolvedAddress> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new OutboundRefusedError(`${url.protocol} URLs are not sent to (http or https only)`);
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const own = this.options.own();
    if (own.authorities.has(`${hostname.toLowerCase()}:${port}`)) throw this.itself(url);
    const candidates: ResolvedAddress[] = ipaddr.isValid(hostname)
      ? [{ address: hostname, family: ipaddr.parse(hostname).kind() === 'ipv6' ? 6 : 4 }]
      : isLocalhostName(hostname)
        ? [
            { address: '127.0.0.1', family: 4 },
            { address: '::1', family: 6 },
          ]
        : await this.resolveName(hostname);
    let refusal: OutboundRefusedError | undefined;
    for (const candidate of candidates) {
      const why = this.refusal(candidate.address, port, own);
      if (why === undefined) return candidate;
      refusal ??=
        why === 'itself'
          ? this.itself(url)
          : new OutboundRefusedError(
              `${url.host} is ${candidate.address === hostname ? 'a' : `${candidate.address}, a`} ${why} address: ` +
                'the platform sends requests there only when its operator allows the range ' +
                '(outboundAllow, --allow-outbound)',
            );
    }
    throw refusal ?? new OutboundRefusedError(`${url.host} has no address`);
  }

  /** A `lookup` for node:net that answers with the checked address only (no second resolution). */
  static pinnedLookup(destination: ResolvedAddress): LookupFunction {
    return (_hostname, options, callback) => {
      if (options.all)
        (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, [destination]);
      else callback(null, destination.address, destination.family);
    };
  }

  /** Why `text` on `port` is refused (a range name, or 'itself'), or undefined when allowed. */
  private refusal(text: string, port: number, own: OwnListeners): string | undefined {
    const address = ipaddr.process(text);
    let range: string = address.range();
    if (range === 'unicast' && address.kind() === 'ipv6' && address.match(IPV4_COMPATIBLE)) range = 'ipv4Compatible';
    const local =
      range === 'loopback' ||
      range === 'unspecified' ||
      this.localAddresses().some((other) => sameAddress(other, address));
    if (local && own.ports.has(port)) return 'itself';
    if (range === 'unicast') return undefined;
    return this.allowed.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits))
      ? undefined
      : rangeWords(range);
  }

  private itself(url: URL): OutboundRefusedError {
    return new OutboundRefusedError(`${url.host} is the platform itself: it never sends requests to its own listeners`);
  }
}

function sameAddress(text: string, address: Address): boolean {
  try {
    return ipaddr.process(text.split('%')[0]!).toNormalizedString() === address.toNormalizedString();
  } catch {
    return false;
  }
}

const RANGE_WORDS: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  uniqueLocal: 'private (unique local)',
  linkLocal: 'link-local',
  deprecatedSiteLocal: 'site-local',
  unspecified: 'unspecified',
  multicast: 'multicast',
  broadcast: 'broadcast',
  carrierGradeNat: 'carrier-grade NAT',
  ipv4Compatible: 'IPv4-compatible',
  rfc6145: 'IPv4-translated',
  rfc6052: 'NAT64 (embedded IPv4)',
  '6to4': '6to4 (embedded IPv4)',
  teredo: 'Teredo (embedded IPv4)',
};

function rangeWords(range: string): string {
  return RANGE_WORDS[range] ?? `special-purpose (${range})`;
}
