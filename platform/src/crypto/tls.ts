import { X509Certificate } from 'node:crypto';
import { generate } from 'selfsigned';
import type { Store } from '../store/types.js';

export interface TlsMaterial {
  key: string;
  cert: string;
}

/**
 * A fresh self-signed P-256 certificate for localhost and 127.0.0.1. It is its own trust anchor: clients pass
 * it as their CA (RunningPlatform.caCertPem), so it is marked as a CA and as a TLS server certificate.
 */
export async function generateSelfSignedCertificate(now: Date = new Date()): Promise<TlsMaterial> {
  const notAfter = new Date(now.getTime() + 365 * 86_400_000);
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: notAfter,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

const META_KEY = 'tls:certificate';
/** A stored certificate this close to its end is replaced (clients then need the new one). */
const RENEW_BEFORE_MS = 7 * 86_400_000;

/**
 * The platform's certificate, kept with the database (its `meta` table, like the OIDC signing keys): a client that
 * trusts it keeps reconnecting across restarts. A new one is made for a new database, and when the stored one is
 * within a week of expiring (it lasts a year).
 */
export async function platformCertificate(store: Store, now: Date = new Date()): Promise<TlsMaterial> {
  const stored = store.meta.get(META_KEY);
  if (stored !== undefined) {
    const material = JSON.parse(stored) as TlsMaterial;
    if (Date.parse(new X509Certificate(material.cert).validTo) - now.getTime() > RENEW_BEFORE_MS) return material;
  }
  const material = await generateSelfSignedCertificate(now);
  store.meta.set(META_KEY, JSON.stringify(material));
  return material;
}
