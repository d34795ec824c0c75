import ipaddr from 'ipaddr.js';

/**
 * Whether a webhook may not reach an address unless private targets are allowed (SSRF defence).
 * Classified with ipaddr.js; an IPv6 address that carries an IPv4 one (mapped, IPv4-compatible,
 * NAT64, 6to4, Teredo, ISATAP) is private when any address it carries is.
 */
export function isPrivateAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/%.*$/, ''));
  } catch {
    return true; // not an address we can classify: never connect to it
  }
  if (parsed.kind() === 'ipv4') return isPrivateIpv4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  if (privateIpv6Ranges.has(v6.range()) || v6.match(localNat64)) return true;
  return embeddedIpv4(v6).some(isPrivateIpv4);
}

const privateIpv4Ranges = new Set(['unspecified', 'broadcast', 'multicast', 'linkLocal', 'loopback', 'carrierGradeNat', 'private']);
// Reserved blocks that are neither documentation examples nor public: IETF protocol assignments,
// benchmarking, and the former class E.
const reservedIpv4 = ['192.0.0.0/24', '198.18.0.0/15', '240.0.0.0/4'].map((cidr) => ipaddr.IPv4.parseCIDR(cidr));

function isPrivateIpv4(address: ipaddr.IPv4): boolean {
  return privateIpv4Ranges.has(address.range()) || reservedIpv4.some((cidr) => address.match(cidr));
}

const privateIpv6Ranges = new Set<string>([
  'unspecified',
  'linkLocal',
  'multicast',
  'loopback',
  'uniqueLocal',
  'deprecatedSiteLocal',
  'discard',
]);
// RFC 8215's local-use NAT64 prefix: the network decides where the IPv4 part sits.
const localNat64 = ipaddr.IPv6.parseCIDR('64:ff9b:1::/48');

function ipv4Of(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);
}

/** Every IPv4 address an IPv6 address carries by a known embedding. */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = address.parts as [number, number, number, number, number, number, number, number];
  const found: ipaddr.IPv4[] = [];
  const zeroTo = (end: number) => p.slice(0, end).every((part) => part === 0);
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (RFC 6145), ::a.b.c.d (IPv4-compatible, deprecated).
  if (zeroTo(5) && (p[5] === 0xffff || p[5] === 0)) found.push(ipv4Of(p[6], p[7]));
  if (zeroTo(4) && p[4] === 0xffff && p[5] === 0) found.push(ipv4Of(p[6], p[7]));
  // 64:ff9b::a.b.c.d (NAT64, RFC 6052).
  if (address.range() === 'rfc6052') found.push(ipv4Of(p[6], p[7]));
  // 2002:aabb:ccdd::/48 (6to4).
  if (p[0] === 0x2002) found.push(ipv4Of(p[1], p[2]));
  // 2001:0:server:server:flags:port:client^ffff:client^ffff (Teredo).
  if (p[0] === 0x2001 && p[1] === 0) found.push(ipv4Of(p[2], p[3]), ipv4Of(p[6] ^ 0xffff, p[7] ^ 0xffff));
  // ISATAP interface identifiers: ::0:5efe:a.b.c.d and ::200:5efe:a.b.c.d under any prefix.
  if ((p[4] === 0 || p[4] === 0x200) && p[5] === 0x5efe) found.push(ipv4Of(p[6], p[7]));
  return found;
}
