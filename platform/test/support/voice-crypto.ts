/**
 * The test client's own RTP packetizing and transport encryption, written from the published packet layout and
 * independent of src/voice (so a bug there cannot cancel out against the same bug here):
 *
 *   packet = RTP header (12 B, + 4-byte extension preamble when X=1) || AEAD(plaintext) || tag(16) || counter(4, BE)
 *   nonce  = counter || zeros to 12 (AES-256-GCM) or 24 (XChaCha20-Poly1305); AAD = the header.
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';

export type Mode = 'aead_aes256_gcm_rtpsize' | 'aead_xchacha20_poly1305_rtpsize';
export const AES: Mode = 'aead_aes256_gcm_rtpsize';
export const XCHACHA: Mode = 'aead_xchacha20_poly1305_rtpsize';

export interface RtpFields {
  sequence: number;
  timestamp: number;
  ssrc: number;
  /** One-byte-header extension elements (RFC 8285), encrypted with the payload; length a multiple of 4. */
  extension?: Buffer;
}

export function rtpHeader(fields: RtpFields): Buffer {
  const header = Buffer.alloc(fields.extension ? 16 : 12);
  header[0] = fields.extension ? 0x90 : 0x80;
  header[1] = 0x78;
  header.writeUInt16BE(fields.sequence & 0xffff, 2);
  header.writeUInt32BE(fields.timestamp >>> 0, 4);
  header.writeUInt32BE(fields.ssrc >>> 0, 8);
  if (fields.extension) {
    header.writeUInt16BE(0xbede, 12);
    header.writeUInt16BE(fields.extension.length / 4, 14);
  }
  return header;
}

function nonce(counter: Buffer, mode: Mode): Buffer {
  const out = Buffer.alloc(mode === 'aead_aes256_gcm_rtpsize' ? 12 : 24);
  counter.copy(out, 0);
  return out;
}

export function seal(mode: Mode, key: Buffer, fields: RtpFields, payload: Buffer, counter: number): Buffer {
  const header = rtpHeader(fields);
  const plaintext = fields.extension ? Buffer.concat([fields.extension, payload]) : payload;
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter >>> 0);
  if (mode === 'aead_aes256_gcm_rtpsize') {
    const cipher = createCipheriv('aes-256-gcm', key, nonce(count, mode));
    cipher.setAAD(header);
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([header, body, cipher.getAuthTag(), count]);
  }
  const sealed = xchacha20poly1305(key, nonce(count, mode), header).encrypt(plaintext);
  return Buffer.concat([header, sealed, count]);
}

export interface OpenedPacket {
  sequence: number;
  timestamp: number;
  ssrc: number;
  counter: number;
  payload: Buffer;
}

/** Decrypts a received packet (throws when it does not authenticate); strips extension elements when X=1. */
export function open(mode: Mode, key: Buffer, packet: Buffer): OpenedPacket {
  const csrc = packet[0]! & 0x0f;
  const hasExtension = (packet[0]! & 0x10) !== 0;
  const headerLength = 12 + 4 * csrc + (hasExtension ? 4 : 0);
  const header = packet.subarray(0, headerLength);
  const count = packet.subarray(packet.length - 4);
  const body = packet.subarray(headerLength, packet.length - 4);
  let plaintext: Buffer;
  if (mode === 'aead_aes256_gcm_rtpsize') {
    const decipher = createDecipheriv('aes-256-gcm', key, nonce(count, mode));
    decipher.setAAD(header);
    decipher.setAuthTag(body.subarray(body.length - 16));
    plaintext = Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]);
  } else {
    plaintext = Buffer.from(xchacha20poly1305(key, nonce(count, mode), header).decrypt(body));
  }
  const extensionBytes = hasExtension ? 4 * header.readUInt16BE(headerLength - 2) : 0;
  return {
    sequence: packet.readUInt16BE(2),
    timestamp: packet.readUInt32BE(4),
    ssrc: packet.readUInt32BE(8),
    counter: count.readUInt32BE(0),
    payload: plaintext.subarray(extensionBytes),
  };
}
