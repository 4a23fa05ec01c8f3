/**
 * The RTP fields the relay needs (RFC 3550 fixed header): version, payload type, SSRC, and the "rtpsize" header
 * length that is authenticated but not encrypted (PROTOCOL.md §13.5).
 */

export const RTP_HEADER_BYTES = 12;
/** The published voice payload type (Opus). */
export const OPUS_PAYLOAD_TYPE = 120;

export function isRtp(packet: Buffer): boolean {
  return packet.length >= RTP_HEADER_BYTES && (packet[0]! & 0xc0) === 0x80;
}

export function payloadType(packet: Buffer): number {
  return packet[1]! & 0x7f;
}

export function ssrcOf(packet: Buffer): number {
  return packet.readUInt32BE(8);
}

/**
 * 12 bytes + 4 per CSRC + (when X=1) the 4-byte extension preamble (profile and length in words); the extension
 * elements themselves belong to the encrypted part in the rtpsize modes. null when the packet is too short.
 */
export function rtpsizeHeaderLength(packet: Buffer): number | null {
  if (!isRtp(packet)) return null;
  const csrcCount = packet[0]! & 0x0f;
  const extension = (packet[0]! & 0x10) !== 0;
  const length = RTP_HEADER_BYTES + 4 * csrcCount + (extension ? 4 : 0);
  return packet.length >= length ? length : null;
}
