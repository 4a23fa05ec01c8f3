/**
 * Unit rules of the voice server's building blocks: resume buffer numbering, RTP header sizes, discovery, ciphers,
 * loss.
 */
import { describe, expect, it } from 'vitest';
import { createTransportCipher } from '../../src/voice/ciphers.js';
import { discoveryResponse, parseDiscoveryRequest, parseDiscoveryResponse } from '../../src/voice/discovery.js';
import { LossInjector } from '../../src/voice/loss.js';
import { ResumeBuffer } from '../../src/voice/resume-buffer.js';
import { rtpsizeHeaderLength } from '../../src/voice/rtp.js';
import { discoveryRequest } from '../support/voice-client.js';
import { open, seal } from '../support/voice-crypto.js';

describe('resume buffer', () => {
  it('replays after seq_ack; -1 or absent replays everything while nothing was evicted', () => {
    const buffer = new ResumeBuffer(10);
    expect(buffer.after(-1)).toEqual([]);
    for (const frame of ['a', 'b', 'c']) buffer.push(frame);
    expect(buffer.after(1)!.map((m) => m.frame)).toEqual(['b', 'c']);
    expect(buffer.after(3)).toEqual([]);
    expect(buffer.after(-1)!.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect(buffer.after(undefined)!.map((m) => m.seq)).toEqual([1, 2, 3]);
    // A number never sent.
    expect(buffer.after(7)).toBeNull();
  });

  it('refuses when the missed messages were evicted, accepts an ack just before the oldest kept', () => {
    const buffer = new ResumeBuffer(2);
    for (const frame of ['a', 'b', 'c', 'd']) buffer.push(frame);
    expect(buffer.after(1)).toBeNull();
    expect(buffer.after(-1)).toBeNull();
    expect(buffer.after(2)!.map((m) => m.frame)).toEqual(['c', 'd']);
  });

  it('wraps the 16-bit sequence and still replays in order', () => {
    const buffer = new ResumeBuffer(8);
    for (let i = 0; i < 0xffff + 3; i++) buffer.push(`m${i}`);
    expect(buffer.lastSeq()).toBe(2);
    // Last messages: seq 65533, 65534, 65535, 0, 1, 2.
    expect(buffer.after(0xfffe)!.map((m) => m.seq)).toEqual([0xffff, 0, 1, 2]);
    expect(buffer.after(0)!.map((m) => m.seq)).toEqual([1, 2]);
  });
});

describe('RTP and discovery', () => {
  it('rtpsize header length counts CSRCs and the extension preamble, not the extension elements', () => {
    const base = Buffer.alloc(40);
    base[0] = 0x80;
    expect(rtpsizeHeaderLength(base)).toBe(12);
    base[0] = 0x82;
    expect(rtpsizeHeaderLength(base)).toBe(20);
    base[0] = 0x92;
    expect(rtpsizeHeaderLength(base)).toBe(24);
    base[0] = 0x40;
    expect(rtpsizeHeaderLength(base)).toBeNull();
    expect(rtpsizeHeaderLength(Buffer.from([0x8f, 0x78, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]))).toBeNull();
  });

  it('parses a 74-byte request and builds the published response', () => {
    expect(parseDiscoveryRequest(discoveryRequest(0xdeadbeef))).toBe(0xdeadbeef);
    expect(parseDiscoveryRequest(Buffer.alloc(74))).toBeNull();
    expect(parseDiscoveryRequest(discoveryRequest(1).subarray(0, 73))).toBeNull();
    const response = discoveryResponse(7, '203.0.113.9', 50004);
    expect(response).toHaveLength(74);
    expect(parseDiscoveryResponse(response)).toEqual({ ssrc: 7, address: '203.0.113.9', port: 50004 });
    expect(response.subarray(8 + '203.0.113.9'.length, 72).every((b) => b === 0)).toBe(true);
  });
});

describe('transport ciphers', () => {
  for (const mode of ['aead_aes256_gcm_rtpsize', 'aead_xchacha20_poly1305_rtpsize'] as const) {
    it(`${mode}: opens what the independent test implementation seals, and the reverse; rejects tampering`, () => {
      const key = Buffer.alloc(32, 7);
      const cipher = createTransportCipher(mode, key);
      const extension = Buffer.from([0x10, 0x01, 0, 0]);
      const packet = seal(mode, key, { sequence: 5, timestamp: 960, ssrc: 42, extension }, Buffer.from('opus'), 9);
      const opened = cipher.open(packet)!;
      expect(opened.header).toEqual(packet.subarray(0, 16));
      expect(opened.plaintext).toEqual(Buffer.concat([extension, Buffer.from('opus')]));
      const resealed = cipher.seal(opened.header, opened.plaintext, 10);
      expect(open(mode, key, resealed)).toMatchObject({
        sequence: 5,
        timestamp: 960,
        ssrc: 42,
        counter: 10,
        payload: Buffer.from('opus'),
      });
      const tampered = Buffer.from(packet);
      tampered.writeUInt8(tampered.readUInt8(13) ^ 1, 13);
      expect(cipher.open(tampered)).toBeNull();
      expect(createTransportCipher(mode, Buffer.alloc(32, 8)).open(packet)).toBeNull();
      expect(cipher.open(packet.subarray(0, 20))).toBeNull();
      expect(() => createTransportCipher(mode, Buffer.alloc(16))).toThrow(RangeError);
    });
  }
});

describe('loss injector', () => {
  it('is reproducible for a seed and refuses rates outside [0, 1)', () => {
    const draw = (seed: number) => {
      const loss = new LossInjector(0.25, seed);
      return Array.from({ length: 64 }, () => loss.drop());
    };
    expect(draw(3)).toEqual(draw(3));
    expect(draw(3)).not.toEqual(draw(4));
    expect(new LossInjector(0).drop()).toBe(false);
    expect(() => new LossInjector(1)).toThrow(RangeError);
    expect(() => new LossInjector(-0.1)).toThrow(RangeError);
  });
});
