import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';

export interface Ed25519KeyPair {
  publicKeyHex: string;
  privateKeyPem: string;
}

/** One Ed25519 key pair per application; the public key is published as 32 bytes of hex. */
export function generateApplicationKeyPair(): Ed25519KeyPair {
  // Encoded by the generation job itself: exporting the job's KeyObjects can deadlock on Node 20 (see
  // oauth/oidc/signing-keys.ts).
  const { publicKey: spki, privateKey: privateKeyPem } = generateKeyPairSync('ed25519', {
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  // An Ed25519 SPKI is a fixed 12-byte header followed by the raw 32-byte key.
  return { publicKeyHex: spki.subarray(spki.length - 32).toString('hex'), privateKeyPem };
}

/** Signature headers: Ed25519 over timestamp bytes || raw body bytes, hex encoded (platform/PROTOCOL.md §6). */
export function signatureHeaders(privateKeyPem: string, body: string, unixSeconds: number): Record<string, string> {
  const timestamp = String(unixSeconds);
  const signature = sign(
    null,
    Buffer.concat([Buffer.from(timestamp), Buffer.from(body)]),
    createPrivateKey(privateKeyPem),
  );
  return { 'X-Signature-Ed25519': signature.toString('hex'), 'X-Signature-Timestamp': timestamp };
}
