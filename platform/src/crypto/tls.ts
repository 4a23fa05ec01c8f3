import { generate } from 'selfsigned';

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
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}
