import { describe, expect, it } from 'vitest';
import {
  AuthenticationCodeChallengeMethod,
  AuthorizationArgs,
  AuthorizationCodeChallenge,
  IntegrationType,
  SvcppError,
} from '../lib/index.js';
import { BACKENDS } from './backends.js';

describe.each(BACKENDS)('AuthorizationArgs over %s', (backend) => {
  const make = (init = {}) => new AuthorizationArgs(init, { backend });

  it('starts with the documented defaults: clientId 0n, empty scopes, every optional undefined', () => {
    const args = make();
    expect(args.clientId).toBe(0n);
    expect(args.scopes).toBe('');
    expect(args.state).toBeUndefined();
    expect(args.nonce).toBeUndefined();
    expect(args.codeChallenge).toBeUndefined();
    expect(args.integrationType).toBeUndefined();
    expect(args.customSchemeParam).toBeUndefined();
  });

  it('round-trips every field', () => {
    const args = make({
      clientId: 18446744073709551615n,
      scopes: 'openid sdk.social_layer',
      state: 'state-é✓',
      nonce: 'nonce',
      codeChallenge: {
        method: AuthenticationCodeChallengeMethod.S256,
        challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuKBe9-jJsg',
      },
      integrationType: IntegrationType.UserInstall,
      customSchemeParam: 'mygame',
    });
    expect(args.clientId).toBe(18446744073709551615n);
    expect(args.scopes).toBe('openid sdk.social_layer');
    expect(args.state).toBe('state-é✓');
    expect(args.nonce).toBe('nonce');
    expect(args.codeChallenge?.toJSON()).toEqual({
      method: AuthenticationCodeChallengeMethod.S256,
      challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuKBe9-jJsg',
    });
    expect(args.integrationType).toBe(IntegrationType.UserInstall);
    expect(args.customSchemeParam).toBe('mygame');
  });

  it('distinguishes an empty optional string from an unset one, and clears with undefined', () => {
    const args = make({ state: '', integrationType: IntegrationType.GuildInstall });
    expect(args.state).toBe('');
    expect(args.integrationType).toBe(IntegrationType.GuildInstall);
    args.state = undefined;
    args.integrationType = undefined;
    expect(args.state).toBeUndefined();
    expect(args.integrationType).toBeUndefined();
  });

  it('accepts an AuthorizationCodeChallenge object and returns independent copies', () => {
    const challenge = new AuthorizationCodeChallenge({ challenge: 'abc' }, { backend });
    const args = make({ codeChallenge: challenge });
    challenge.challenge = 'changed';
    const copy = args.codeChallenge!;
    expect(copy.challenge).toBe('abc');
    copy.challenge = 'also changed';
    expect(args.codeChallenge?.challenge).toBe('abc');
    args.codeChallenge = undefined;
    expect(args.codeChallenge).toBeUndefined();
  });

  it('clones deeply: changing the clone leaves the original alone', () => {
    const original = make({
      scopes: 'a',
      state: 's',
      codeChallenge: { method: AuthenticationCodeChallengeMethod.S256, challenge: 'c' },
    });
    const clone = original.clone();
    clone.scopes = 'b';
    clone.state = undefined;
    clone.codeChallenge = { method: AuthenticationCodeChallengeMethod.S256, challenge: 'd' };
    expect(original.scopes).toBe('a');
    expect(original.state).toBe('s');
    expect(original.codeChallenge?.challenge).toBe('c');
    expect(clone.scopes).toBe('b');
  });

  it('rejects an unknown enum value with ERR_SVCPP_INVALID_ARGUMENT and keeps the old value', () => {
    const args = make({ integrationType: IntegrationType.UserInstall });
    expect(() => {
      args.integrationType = 42 as IntegrationType;
    }).toThrow(expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }));
    expect(args.integrationType).toBe(IntegrationType.UserInstall);
  });

  it('rejects an over-limit string (code points, not bytes) and keeps the old value', () => {
    const args = make({ customSchemeParam: 'ok' });
    args.customSchemeParam = 'é'.repeat(256); // 512 bytes, 256 code points: at the limit
    expect(args.customSchemeParam).toBe('é'.repeat(256));
    let error: unknown;
    try {
      args.customSchemeParam = 'x'.repeat(257);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SvcppError);
    expect((error as SvcppError).code).toBe('ERR_SVCPP_INVALID_ARGUMENT');
    expect((error as SvcppError).message).toMatch(/CustomSchemeParam/);
    expect(args.customSchemeParam).toBe('é'.repeat(256));
  });

  it('rejects a negative or too large clientId', () => {
    const args = make();
    expect(() => {
      args.clientId = -1n;
    }).toThrow(expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }));
    expect(() => {
      args.clientId = 1n << 64n;
    }).toThrow(expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }));
  });

  it('throws ERR_SVCPP_INVALID_HANDLE after dispose()', () => {
    const args = make({ scopes: 'a' });
    args.dispose();
    expect(() => args.scopes).toThrow(expect.objectContaining({ code: 'ERR_SVCPP_INVALID_HANDLE' }));
  });
});

describe('handles across backends', () => {
  it('rejects a handle of the other backend or of another type with ERR_SVCPP_INVALID_HANDLE', async () => {
    const { loadBackend } = await import('../lib/index.js');
    const napi = loadBackend('napi');
    const koffi = loadBackend('koffi');
    const napiArgs = napi.AuthorizationArgs_Init();
    const koffiArgs = koffi.AuthorizationArgs_Init();
    expect(() => koffi.AuthorizationArgs_Scopes(napiArgs)).toThrow(
      expect.objectContaining({ code: 'ERR_SVCPP_INVALID_HANDLE' }),
    );
    expect(() => napi.AuthorizationArgs_Scopes(koffiArgs)).toThrow(
      expect.objectContaining({ code: 'ERR_SVCPP_INVALID_HANDLE' }),
    );
    const challenge = napi.AuthorizationCodeChallenge_Init();
    expect(() => napi.AuthorizationArgs_Scopes(challenge as never)).toThrow(
      expect.objectContaining({ code: 'ERR_SVCPP_INVALID_HANDLE' }),
    );
  });

  it("N-API handles keep their own object and type however many are alive (the addon's handle slots grow by chunks)", async () => {
    const { loadBackend } = await import('../lib/index.js');
    const napi = loadBackend('napi');
    const argsList = Array.from({ length: 3000 }, (_, i) => {
      const args = napi.AuthorizationArgs_Init();
      napi.AuthorizationArgs_SetScopes(args, `scope-${i}`);
      return args;
    });
    const challenges = Array.from({ length: 1500 }, () => napi.AuthorizationCodeChallenge_Init());
    expect(argsList.map((args) => napi.AuthorizationArgs_Scopes(args))).toEqual(argsList.map((_, i) => `scope-${i}`));
    for (const challenge of [challenges[0], challenges[1499]]) {
      expect(() => napi.AuthorizationArgs_Scopes(challenge as never)).toThrow(
        expect.objectContaining({ code: 'ERR_SVCPP_INVALID_HANDLE' }),
      );
    }
    for (const value of [{}, 1, 'x', null, undefined, () => {}]) {
      expect(() => napi.AuthorizationArgs_Scopes(value as never)).toThrow(
        expect.objectContaining({ code: 'ERR_SVCPP_INVALID_HANDLE' }),
      );
    }
    for (const args of argsList) napi.AuthorizationArgs_Drop(args);
    expect(() => napi.AuthorizationArgs_Scopes(argsList[2999])).toThrow(
      expect.objectContaining({ code: 'ERR_SVCPP_INVALID_HANDLE' }),
    );
    for (const challenge of challenges) napi.AuthorizationCodeChallenge_Drop(challenge);
  });
});
