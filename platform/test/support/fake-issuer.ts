import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { generateSelfSignedCertificate } from '../../src/crypto/tls.js';

export type DiscoveryMode =
  'ok' | 'missing' | 'redirect' | 'wrong-issuer' | 'no-jwks-uri' | 'http-jwks-uri' | 'rs256-only';
export type JwksMode = 'ok' | 'missing' | 'redirect';

/**
 * An OIDC identity provider on https://localhost with its own self-signed certificate (the platform trusts it
 * through `outboundCaPems`). Its behaviour can be switched to produce every discovery failure the platform
 * must detect.
 */
export interface FakeIssuer {
  issuer: string;
  caPem: string;
  discovery: DiscoveryMode;
  jwks: JwksMode;
  requests: string[];
  /** Signs an ES256 ID token; claims default to a valid token for `audience`. */
  sign(
    claims: JWTPayload,
    options?: { kid?: string | null; alg?: string; key?: CryptoKey | Uint8Array },
  ): Promise<string>;
  close(): Promise<void>;
}

export async function startFakeIssuer(audience: string): Promise<FakeIssuer> {
  const tls = await generateSelfSignedCertificate();
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const publicJwk = { ...(await exportJWK(publicKey)), kid: 'key-1', alg: 'ES256', use: 'sig' };
  const state: FakeIssuer = {
    issuer: '',
    caPem: tls.cert,
    discovery: 'ok',
    jwks: 'ok',
    requests: [],
    sign: async (claims, options = {}) => {
      const now = Math.floor(Date.now() / 1000);
      const header: Record<string, string> = { alg: options.alg ?? 'ES256' };
      if (options.kid !== null) header.kid = options.kid ?? 'key-1';
      return new SignJWT({ iss: state.issuer, aud: audience, sub: 'player-1', iat: now, exp: now + 3600, ...claims })
        .setProtectedHeader(header as { alg: string })
        .sign(options.key ?? privateKey);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    state.requests.push(req.url ?? '');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/.well-known/openid-configuration') {
      switch (state.discovery) {
        case 'missing':
          return json(404, { error: 'not found' });
        case 'redirect':
          res.writeHead(302, { location: `${state.issuer}/elsewhere/openid-configuration` });
          return res.end();
        default: {
          const document: Record<string, unknown> = {
            issuer: state.discovery === 'wrong-issuer' ? 'https://someone-else.example.com' : state.issuer,
            jwks_uri: state.discovery === 'http-jwks-uri' ? `http://localhost/jwks` : `${state.issuer}/jwks`,
            id_token_signing_alg_values_supported: state.discovery === 'rs256-only' ? ['RS256'] : ['ES256', 'RS256'],
          };
          if (state.discovery === 'no-jwks-uri') delete document.jwks_uri;
          return json(200, document);
        }
      }
    }
    if (req.url === '/jwks') {
      if (state.jwks === 'missing') return json(404, { error: 'not found' });
      if (state.jwks === 'redirect') {
        res.writeHead(301, { location: `${state.issuer}/elsewhere/jwks` });
        return res.end();
      }
      return json(200, { keys: [publicJwk] });
    }
    // Redirect targets: serving them proves the platform never followed the redirect.
    if (req.url?.startsWith('/elsewhere/'))
      return json(200, {
        issuer: state.issuer,
        jwks_uri: `${state.issuer}/jwks`,
        id_token_signing_alg_values_supported: ['ES256'],
        keys: [publicJwk],
      });
    return json(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  state.issuer = `https://localhost:${(server.address() as AddressInfo).port}`;
  return state;
}
