import dns from 'node:dns';
import net, { BlockList } from 'node:net';
import { parseNetwork } from '../../core/config-reader';

/**
 * Where webhooks may be delivered: public addresses, and the networks an operator allows
 * (`WEBHOOK_ALLOW_NETWORKS`). Anything else a subscriber could aim the service at (itself on
 * loopback, the cloud's metadata service on link-local, the site's private networks) is refused:
 * at subscription for an address written in the URL or `localhost`, and at every delivery for
 * the addresses the name resolves to, checked as the connection is made (a name that changes its
 * answer between the check and the connection reaches nothing it should not).
 */

/**
 * Addresses that are not public (IANA special-purpose registries, IPv4 and IPv6). IPv4-mapped
 * IPv6 addresses (`::ffff:a.b.c.d`) are judged by their IPv4 address ({@link mappedIpv4}): a
 * BlockList also checks an IPv4 address against its IPv6 rules as mapped, so `::ffff:0:0/96`
 * here would refuse every IPv4 address.
 */
const NOT_PUBLIC: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'], // "this" network
  ['10.0.0.0', 8, 'ipv4'], // private
  ['100.64.0.0', 10, 'ipv4'], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local (cloud metadata services)
  ['172.16.0.0', 12, 'ipv4'], // private
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.0.2.0', 24, 'ipv4'], // documentation
  ['192.168.0.0', 16, 'ipv4'], // private
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation
  ['203.0.113.0', 24, 'ipv4'], // documentation
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, and the broadcast address
  ['::', 128, 'ipv6'], // unspecified
  ['::1', 128, 'ipv6'], // loopback
  ['64:ff9b::', 96, 'ipv6'], // NAT64 to IPv4
  ['64:ff9b:1::', 48, 'ipv6'], // local-use NAT64
  ['100::', 64, 'ipv6'], // discard
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['fc00::', 7, 'ipv6'], // unique local
  ['fe80::', 10, 'ipv6'], // link-local
  ['ff00::', 8, 'ipv6'], // multicast
];

const notPublic = new BlockList();
for (const [address, prefix, family] of NOT_PUBLIC) notPublic.addSubnet(address, prefix, family);

/** The IPv4 address inside an IPv4-mapped IPv6 one (`::ffff:7f00:1` is 127.0.0.1), if it is one. */
function mappedIpv4(address: string): string | undefined {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const hi = parseInt(hex[1], 16);
  const lo = parseInt(hex[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** The networks of `WEBHOOK_ALLOW_NETWORKS` (checked when the configuration is read). */
export function allowedNetworks(list: string[]): BlockList {
  const allowed = new BlockList();
  for (const entry of list) {
    const network = parseNetwork(entry);
    if (!network) throw new Error(`WEBHOOK_ALLOW_NETWORKS: "${entry}" is not an address or a network`);
    allowed.addSubnet(network.address, network.prefix, network.family);
  }
  return allowed;
}

/** How a name's addresses are found: `dns.lookup` (the system's resolver, /etc/hosts included). */
export type Resolve = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

export class ReceiverAddresses {
  constructor(
    private readonly allowed: BlockList = new BlockList(),
    private readonly resolve: Resolve = dns.lookup,
  ) {}

  /** Why a delivery may not go to `address` (an IP address), or null when it may. */
  refusal(address: string): string | null {
    const family = net.isIP(address);
    if (!family) return `${address} is not an IP address`;
    if (family === 6 && /^::ffff:/i.test(address)) {
      const v4 = mappedIpv4(address);
      return v4 ? this.refusal(v4) : `${address} is not a public address`;
    }
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (this.allowed.check(address, type) || !notPublic.check(address, type)) return null;
    return `${address} is not a public address (WEBHOOK_ALLOW_NETWORKS lists the private networks webhooks may reach)`;
  }

  /**
   * Why a subscription to `url` is refused now, or null: its host written as an address that is
   * refused, or `localhost`. Other names are checked at each delivery (see {@link lookup}).
   */
  urlRefusal(url: URL): string | null {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (net.isIP(host)) return this.refusal(host);
    const name = host.toLowerCase().replace(/\.$/, '');
    if (name === 'localhost' || name.endsWith('.localhost')) return this.refusal('127.0.0.1');
    return null;
  }

  /**
   * A `lookup` for `http.request`: the name's addresses without those refused, an error naming
   * them when none is left. Node calls it as it connects, so the addresses checked are those used.
   */
  readonly lookup: net.LookupFunction = (hostname, options, callback) => {
    this.resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) {
        callback(err, '', 0);
        return;
      }
      const usable = addresses.filter((a) => this.refusal(a.address) === null);
      if (!usable.length) {
        const refused = addresses.map((a) => a.address).join(', ');
        callback(
          Object.assign(new Error(`${hostname} resolves to no public address (${refused})`), {
            code: 'EADDRNOTPUBLIC',
          }),
          '',
          0,
        );
        return;
      }
      if ((options as { all?: boolean }).all)
        (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, usable);
      else callback(null, usable[0].address, usable[0].family);
    });
  };
}
