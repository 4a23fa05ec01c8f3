import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { OAuth2GetKeys, OAuth2Key } from 'discord-api-spec';
import type { Store } from '../../store/types.js';

/** A published key-set entry: the RSA public key (`kty`, `n`, `e`) with its `kid`, `alg` and `use: "sig"`. */
export type PublicJwk = OAuth2Key;

interface ActiveKey {
  kid: string;
  alg: 'RS256';
  privateKey: KeyObject;
}

/**
 * The platform's ID-token signing keys. RS256 because it is the default every OIDC client accepts without
 * configuration. Keys persist in the store so tokens stay verifiable across restarts; the newest key signs and
 * all keys are published in the JWKS.
 */
export class OidcSigningKeys {
  private readonly active: ActiveKey;
  private readonly published: PublicJwk[];

  constructor(store: Store, now: () => number) {
    let records = store.signingKeys.list();
    if (records.length === 0) {
      const privateKey = generateRsaKey();
      const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' });
      // kid: a SHA-256 over the public modulus and exponent, stable for the key's lifetime.
      const kid = createHash('sha256').update(`${publicJwk.n}.${publicJwk.e}`).digest('base64url').slice(0, 22);
      store.signingKeys.insert({
        kid,
        alg: 'RS256',
        privateJwk: JSON.stringify(privateKey.export({ format: 'jwk' })),
        publicJwk: JSON.stringify({ ...publicJwk, kid, alg: 'RS256', use: 'sig' }),
        createdAt: now(),
      });
      records = store.signingKeys.list();
    }
    const newest = records[0]!;
    this.active = {
      kid: newest.kid,
      alg: 'RS256',
      privateKey: createPrivateKey({ key: JSON.parse(newest.privateJwk) as Record<string, string>, format: 'jwk' }),
    };
    this.published = records.map((record) => JSON.parse(record.publicJwk) as PublicJwk);
  }

  jwks(): OAuth2GetKeys {
    return { keys: this.published };
  }

  /** Signs a JWT synchronously (so tokens can be issued inside a database transaction). */
  signJwt(claims: Record<string, unknown>): string {
    const header = { alg: this.active.alg, typ: 'JWT', kid: this.active.kid };
    const input = `${base64url(header)}.${base64url(claims)}`;
    const signature = sign('sha256', Buffer.from(input), this.active.privateKey);
    return `${input}.${signature.toString('base64url')}`;
  }
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/**
 * A new RSA private key that shares nothing with the key-generation job. Node 20 can deadlock when a KeyObject
 * returned by generateKeyPairSync is exported as JWK: the export holds the key's mutex while allocating, a GC
 * finalizes the (already finished) generation job, and its destructor takes the same mutex. Asking the job for
 * DER and importing that gives a key object of our own, so no finalizer ever touches its mutex.
 */
export function generateRsaKey(modulusLength = 2048): KeyObject {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'der' },
  });
  return createPrivateKey({ key: privateKey, format: 'der', type: 'pkcs8' });
}
