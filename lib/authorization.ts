// AuthorizationArgs and AuthorizationCodeChallenge: thin classes over the native value objects. Every
// property reads or writes the native object (no JS copy to drift); optional fields are `undefined` when
// unset. GC frees a forgotten object; dispose() frees it now.
import { type BackendName, loadBackend } from './loader.js';
import { AuthenticationCodeChallengeMethod, IntegrationType } from '../contract/enums.js';
import type { NativeApi, NativeHandle } from '../contract/native-api.js';
import type { AuthorizationCodeChallengeInit } from '../contract/snapshots.js';
export type { AuthorizationCodeChallengeInit } from '../contract/snapshots.js';

export interface ValueObjectOptions {
  /** Which backend holds the native object (default 'napi'); pass objects only to a Client of the same backend. */
  backend?: BackendName;
}

export class AuthorizationCodeChallenge {
  /** @internal */ readonly api: NativeApi;
  /** @internal */ readonly handle: NativeHandle<'AuthorizationCodeChallenge'>;

  constructor(init?: Partial<AuthorizationCodeChallengeInit>, options?: ValueObjectOptions);
  /** @internal adopts a native handle */
  constructor(
    init: Partial<AuthorizationCodeChallengeInit> | undefined,
    options: ValueObjectOptions,
    adopt: { api: NativeApi; handle: NativeHandle<'AuthorizationCodeChallenge'> },
  );
  constructor(
    init: Partial<AuthorizationCodeChallengeInit> = {},
    options: ValueObjectOptions = {},
    adopt?: { api: NativeApi; handle: NativeHandle<'AuthorizationCodeChallenge'> },
  ) {
    this.api = adopt?.api ?? loadBackend(options.backend);
    this.handle = adopt?.handle ?? this.api.AuthorizationCodeChallenge_Init();
    if (init.method !== undefined) this.method = init.method;
    if (init.challenge !== undefined) this.challenge = init.challenge;
  }

  get method(): AuthenticationCodeChallengeMethod {
    return this.api.AuthorizationCodeChallenge_Method(this.handle);
  }
  set method(value: AuthenticationCodeChallengeMethod) {
    this.api.AuthorizationCodeChallenge_SetMethod(this.handle, value);
  }

  /** BASE64URL(SHA256(verifier)), no padding. */
  get challenge(): string {
    return this.api.AuthorizationCodeChallenge_Challenge(this.handle);
  }
  set challenge(value: string) {
    this.api.AuthorizationCodeChallenge_SetChallenge(this.handle, value);
  }

  clone(): AuthorizationCodeChallenge {
    return new AuthorizationCodeChallenge(
      undefined,
      {},
      { api: this.api, handle: this.api.AuthorizationCodeChallenge_Clone(this.handle) },
    );
  }

  toJSON(): AuthorizationCodeChallengeInit {
    return { method: this.method, challenge: this.challenge };
  }

  dispose(): void {
    this.api.AuthorizationCodeChallenge_Drop(this.handle);
  }
  [Symbol.dispose](): void {
    this.dispose();
  }
}

export interface AuthorizationArgsInit {
  /** Application id; 0n (unset) means the Client's applicationId. */
  clientId?: bigint;
  scopes?: string;
  state?: string;
  nonce?: string;
  codeChallenge?: AuthorizationCodeChallenge | AuthorizationCodeChallengeInit;
  integrationType?: IntegrationType;
  customSchemeParam?: string;
}

/** Arguments of Client.authorize(). */
export class AuthorizationArgs {
  /** @internal */ readonly api: NativeApi;
  /** @internal */ readonly handle: NativeHandle<'AuthorizationArgs'>;

  constructor(init?: AuthorizationArgsInit, options?: ValueObjectOptions);
  /** @internal adopts a native handle */
  constructor(
    init: undefined,
    options: ValueObjectOptions,
    adopt: { api: NativeApi; handle: NativeHandle<'AuthorizationArgs'> },
  );
  constructor(
    init: AuthorizationArgsInit = {},
    options: ValueObjectOptions = {},
    adopt?: { api: NativeApi; handle: NativeHandle<'AuthorizationArgs'> },
  ) {
    this.api = adopt?.api ?? loadBackend(options.backend);
    this.handle = adopt?.handle ?? this.api.AuthorizationArgs_Init();
    Object.assign(this, init);
  }

  /** Application id (a bigint snowflake); 0n means "the Client's applicationId". */
  get clientId(): bigint {
    return this.api.AuthorizationArgs_ClientId(this.handle);
  }
  set clientId(value: bigint) {
    this.api.AuthorizationArgs_SetClientId(this.handle, value);
  }

  /** Space-separated OAuth2 scopes (see Client.defaultCommunicationScopes). */
  get scopes(): string {
    return this.api.AuthorizationArgs_Scopes(this.handle);
  }
  set scopes(value: string) {
    this.api.AuthorizationArgs_SetScopes(this.handle, value);
  }

  /** CSRF state; undefined = the SDK generates one. */
  get state(): string | undefined {
    return this.api.AuthorizationArgs_State(this.handle);
  }
  set state(value: string | undefined) {
    this.api.AuthorizationArgs_SetState(this.handle, value);
  }

  /** OpenID Connect nonce, echoed in the id_token. */
  get nonce(): string | undefined {
    return this.api.AuthorizationArgs_Nonce(this.handle);
  }
  set nonce(value: string | undefined) {
    this.api.AuthorizationArgs_SetNonce(this.handle, value);
  }

  /** PKCE challenge (a copy: changing it does not change these args). */
  get codeChallenge(): AuthorizationCodeChallenge | undefined {
    const handle = this.api.AuthorizationArgs_CodeChallenge(this.handle);
    return handle && new AuthorizationCodeChallenge(undefined, {}, { api: this.api, handle });
  }
  set codeChallenge(value: AuthorizationCodeChallenge | AuthorizationCodeChallengeInit | undefined) {
    if (value === undefined || value instanceof AuthorizationCodeChallenge) {
      this.api.AuthorizationArgs_SetCodeChallenge(this.handle, value?.handle);
      return;
    }
    const challenge = new AuthorizationCodeChallenge(
      value,
      {},
      { api: this.api, handle: this.api.AuthorizationCodeChallenge_Init() },
    );
    try {
      this.api.AuthorizationArgs_SetCodeChallenge(this.handle, challenge.handle);
    } finally {
      challenge.dispose();
    }
  }

  get integrationType(): IntegrationType | undefined {
    return this.api.AuthorizationArgs_IntegrationType(this.handle);
  }
  set integrationType(value: IntegrationType | undefined) {
    this.api.AuthorizationArgs_SetIntegrationType(this.handle, value);
  }

  /** Custom URI scheme for mobile redirects: <scheme>:/authorize/callback. */
  get customSchemeParam(): string | undefined {
    return this.api.AuthorizationArgs_CustomSchemeParam(this.handle);
  }
  set customSchemeParam(value: string | undefined) {
    this.api.AuthorizationArgs_SetCustomSchemeParam(this.handle, value);
  }

  /** An independent deep copy. */
  clone(): AuthorizationArgs {
    return new AuthorizationArgs(
      undefined,
      {},
      { api: this.api, handle: this.api.AuthorizationArgs_Clone(this.handle) },
    );
  }

  dispose(): void {
    this.api.AuthorizationArgs_Drop(this.handle);
  }
  [Symbol.dispose](): void {
    this.dispose();
  }
}
