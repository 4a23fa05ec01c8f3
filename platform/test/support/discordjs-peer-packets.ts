/** The packets the library peer plays and the test client sends: recognisable bytes with an Opus-like TOC byte. */
export const peerPacket = (n: number): Buffer => Buffer.from([0xfc, 0xff, 0xfe, n, ...Buffer.from(`opus-${n}`)]);
