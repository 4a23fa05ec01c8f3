/**
 * UDP IP discovery (PROTOCOL.md §13.4), 74 bytes, big-endian:
 * type u16 (1 request, 2 response) | length u16 = 70 | SSRC u32 | address 64 bytes NUL-terminated ASCII | port u16.
 */

export const DISCOVERY_BYTES = 74;
const REQUEST = 1;
const RESPONSE = 2;
const BODY_LENGTH = 70;
const ADDRESS_BYTES = 64;

/** The SSRC of a discovery request, or null when the datagram is not one. */
export function parseDiscoveryRequest(packet: Buffer): number | null {
  if (packet.length !== DISCOVERY_BYTES) return null;
  if (packet.readUInt16BE(0) !== REQUEST || packet.readUInt16BE(2) !== BODY_LENGTH) return null;
  return packet.readUInt32BE(4);
}

export function discoveryRequest(ssrc: number): Buffer {
  const packet = Buffer.alloc(DISCOVERY_BYTES);
  packet.writeUInt16BE(REQUEST, 0);
  packet.writeUInt16BE(BODY_LENGTH, 2);
  packet.writeUInt32BE(ssrc, 4);
  return packet;
}

export function discoveryResponse(ssrc: number, address: string, port: number): Buffer {
  const packet = Buffer.alloc(DISCOVERY_BYTES);
  packet.writeUInt16BE(RESPONSE, 0);
  packet.writeUInt16BE(BODY_LENGTH, 2);
  packet.writeUInt32BE(ssrc, 4);
  // At most 63 characters, so the NUL terminator always fits (an IPv6 text address is at most 45).
  packet.write(address.slice(0, ADDRESS_BYTES - 1), 8, 'ascii');
  packet.writeUInt16BE(port, 72);
  return packet;
}

export function parseDiscoveryResponse(packet: Buffer): { ssrc: number; address: string; port: number } | null {
  if (
    packet.length !== DISCOVERY_BYTES ||
    packet.readUInt16BE(0) !== RESPONSE ||
    packet.readUInt16BE(2) !== BODY_LENGTH
  )
    return null;
  const raw = packet.subarray(8, 8 + ADDRESS_BYTES);
  const nul = raw.indexOf(0);
  return {
    ssrc: packet.readUInt32BE(4),
    address: raw.subarray(0, nul === -1 ? raw.length : nul).toString('ascii'),
    port: packet.readUInt16BE(72),
  };
}
