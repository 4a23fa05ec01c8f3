/**
 * Transport encryption of RTP packets in the two live "rtpsize" AEAD modes (PROTOCOL.md §13.5):
 *
 *   packet = header || AEAD(key, nonce, aad = header, plaintext) || tag(16) || counter(4, big-endian)
 *   nonce  = counter || zero bytes up to 12 (AES-256-GCM) or 24 (XChaCha20-Poly1305)
 *
 * `header` is the RTP header with its CSRCs and, when X=1, the 4-byte extension preamble; the extension elements
 * are encrypted with the payload. The relay never looks inside the plaintext (it never decodes Opus).
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import type { EncryptionMode } from './protocol.js';
import { rtpsizeHeaderLength } from './rtp.js';

export const TAG_BYTES = 16;
export const COUNTER_BYTES = 4;
export const KEY_BYTES = 32;

export interface TransportCipher {
  readonly mode: EncryptionMode;
  /** Decrypts a whole packet; null when it is malformed or does not authenticate. */
  open(packet: Buffer): { header: Buffer; plaintext: Buffer } | null;
  /** Encrypts `plaintext` under `header` with the given 32-bit nonce counter. */
  seal(header: Buffer, plaintext: Buffer, counter: number): Buffer;
}

function nonceFor(counterBytes: Buffer, length: number): Buffer {
  const nonce = Buffer.alloc(length);
  counterBytes.copy(nonce, 0, 0, COUNTER_BYTES);
  return nonce;
}

function counterBytes(counter: number): Buffer {
  const out = Buffer.alloc(COUNTER_BYTES);
  out.writeUInt32BE(counter >>> 0, 0);
  return out;
}

/** Splits a packet into header, ciphertext, tag and counter; null when too short or not RTP. */
function split(packet: Buffer): { header: Buffer; ciphertext: Buffer; tag: Buffer; counter: Buffer } | null {
  const headerLength = rtpsizeHeaderLength(packet);
  if (headerLength === null || packet.length < headerLength + TAG_BYTES + COUNTER_BYTES) return null;
  const end = packet.length - COUNTER_BYTES;
  return {
    header: packet.subarray(0, headerLength),
    ciphertext: packet.subarray(headerLength, end - TAG_BYTES),
    tag: packet.subarray(end - TAG_BYTES, end),
    counter: packet.subarray(end),
  };
}

/** The nonce counter a sealed packet carries (its last 4 bytes), or null when the packet cannot be one. */
export function transportCounter(packet: Buffer): number | null {
  const parts = split(packet);
  return parts ? parts.counter.readUInt32BE(0) : null;
}

class AesGcmCipher implements TransportCipher {
  readonly mode = 'aead_aes256_gcm_rtpsize' as const;
  constructor(private readonly key: Buffer) {}

  open(packet: Buffer): { header: Buffer; plaintext: Buffer } | null {
    const parts = split(packet);
    if (!parts) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, nonceFor(parts.counter, 12));
      decipher.setAAD(parts.header);
      decipher.setAuthTag(parts.tag);
      const plaintext = Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]);
      return { header: parts.header, plaintext };
    } catch {
      return null;
    }
  }

  seal(header: Buffer, plaintext: Buffer, counter: number): Buffer {
    const count = counterBytes(counter);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonceFor(count, 12));
    cipher.setAAD(header);
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([header, body, cipher.getAuthTag(), count]);
  }
}

class XChaChaCipher implements TransportCipher {
  readonly mode = 'aead_xchacha20_poly1305_rtpsize' as const;
  constructor(private readonly key: Buffer) {}

  open(packet: Buffer): { header: Buffer; plaintext: Buffer } | null {
    const parts = split(packet);
    if (!parts) return null;
    try {
      const sealed = packet.subarray(parts.header.length, packet.length - COUNTER_BYTES);
      const plaintext = xchacha20poly1305(this.key, nonceFor(parts.counter, 24), parts.header).decrypt(sealed);
      return {
        header: parts.header,
        plaintext: Buffer.from(plaintext.buffer, plaintext.byteOffset, plaintext.byteLength),
      };
    } catch {
      return null;
    }
  }

  seal(header: Buffer, plaintext: Buffer, counter: number): Buffer {
    const count = counterBytes(counter);
    const sealed = xchacha20poly1305(this.key, nonceFor(count, 24), header).encrypt(plaintext);
    return Buffer.concat([header, sealed, count]);
  }
}

export function createTransportCipher(mode: EncryptionMode, key: Buffer): TransportCipher {
  if (key.length !== KEY_BYTES) throw new RangeError(`transport key must be ${KEY_BYTES} bytes`);
  return mode === 'aead_aes256_gcm_rtpsize' ? new AesGcmCipher(key) : new XChaChaCipher(key);
}
