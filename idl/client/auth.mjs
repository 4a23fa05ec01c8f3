// The Client's authentication: OAuth2 with PKCE, tokens, provisional accounts: its part of the API surface
// (idl/surface.mjs assembles the areas).

/** Callbacks of this area (the vocabulary: idl/surface.mjs, above `callbacks`). */
export const callbacks = [];

/**
 * The core service the generated C layer calls for this file's methods (`client->Auth().<Name>`); a method may name
 * another with its own `area` (null: core::Client itself, which keeps the token).
 */
export const area = 'auth';

/** Methods of Client in this area (the vocabulary: idl/surface.mjs, above `types`). */
export const methods = [
  // authentication
  {
    name: 'CreateAuthorizationCodeVerifier',
    out: { name: 'verifier', type: 'obj:AuthorizationCodeVerifier' },
    doc: 'A fresh PKCE pair: 32 CSPRNG bytes, BASE64URL verifier, S256 challenge.',
  },
  {
    name: 'Authorize',
    params: [
      { name: 'args', type: 'obj:AuthorizationArgs' },
      { name: 'cb', type: 'cb:Client.AuthorizationCallback' },
    ],
    doc:
      'OAuth2 authorization code flow: starts a loopback redirect ' +
      'listener on 127.0.0.1, hands the authorize URL to the\n' +
      'AuthorizeUrl callback (else opens the system browser) ' +
      'and completes with the code. A pending Authorize is aborted.',
  },
  {
    name: 'HandleAuthorizeRedirect',
    ts: {
      name: 'handleAuthorizeRedirect',
      kind: 'value',
      doc: 'Completes an authorize() that uses `customSchemeParam` with the redirect URL the app received.',
    },
    params: [{ name: 'url', type: 'string', max: 4096 }],
    doc:
      'svcpp addition: completes a pending Authorize that uses ' +
      'CustomSchemeParam with the redirect URL the host received\n' +
      '(<scheme>:/authorize/callback?code=…&state=…). Ignored when no such Authorize is pending.',
  },
  {
    name: 'AbortAuthorize',
    ts: { name: 'abortAuthorize', kind: 'value', doc: 'Ends a pending authorize() with ERR_SVCPP_ABORTED.' },
    doc: 'Completes a pending Authorize with ErrorType Aborted and closes its listener.',
  },
  {
    name: 'SetAuthorizeUrlCallback',
    params: [{ name: 'cb', type: 'cb:Client.AuthorizeUrlCallback', nullable: true }],
    doc: 'svcpp addition: receives the authorize URL of each Authorize instead of the system browser. NULL clears it.',
  },
  {
    name: 'GetToken',
    params: [
      { name: 'applicationId', type: 'u64' },
      { name: 'code', type: 'string', max: 512 },
      { name: 'codeVerifier', type: 'string', max: 128 },
      { name: 'redirectUri', type: 'string', max: 2048 },
      { name: 'cb', type: 'cb:Client.TokenExchangeCallback' },
    ],
    doc: 'Exchanges an authorization code (public client, PKCE verifier) for tokens.',
  },
  {
    name: 'GetProvisionalToken',
    params: [
      { name: 'applicationId', type: 'u64' },
      { name: 'externalAuthType', type: 'enum:AuthenticationExternalAuthType' },
      { name: 'externalAuthToken', type: 'string', max: 16384 },
      { name: 'cb', type: 'cb:Client.TokenExchangeCallback' },
    ],
    doc: 'Signs in a provisional account with an external credential (public client).',
  },
  {
    name: 'GetTokenFromProvisionalMerge',
    params: [
      { name: 'applicationId', type: 'u64' },
      { name: 'code', type: 'string', max: 512 },
      { name: 'codeVerifier', type: 'string', max: 128 },
      { name: 'redirectUri', type: 'string', max: 2048 },
      { name: 'externalAuthType', type: 'enum:AuthenticationExternalAuthType' },
      { name: 'externalAuthToken', type: 'string', max: 16384 },
      { name: 'cb', type: 'cb:Client.TokenExchangeCallback' },
    ],
    doc: 'GetToken that also merges the provisional account of the external credential into the signed-in account.',
  },
  {
    name: 'RefreshToken',
    params: [
      { name: 'applicationId', type: 'u64' },
      { name: 'refreshToken', type: 'string', max: 512 },
      { name: 'cb', type: 'cb:Client.TokenExchangeCallback' },
    ],
    doc:
      'Rotates a token pair; the old pair stops working. ' +
      'invalid_grant is AuthorizationFailed (treat like deauthorization).',
  },
  {
    name: 'RevokeToken',
    params: [
      { name: 'applicationId', type: 'u64' },
      { name: 'token', type: 'string', max: 512 },
      { name: 'cb', type: 'cb:Client.RevokeTokenCallback' },
    ],
    doc: "Revokes every token of the application for the token's user.",
  },
  {
    name: 'ExchangeChildToken',
    params: [
      { name: 'parentApplicationToken', type: 'string', max: 512 },
      { name: 'childApplicationId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.ExchangeChildTokenCallback' },
    ],
    doc: 'A token of a child application from a token of its parent (same expiry, no refresh token).',
  },
  {
    name: 'UnmergeIntoProvisionalAccount',
    params: [
      { name: 'applicationId', type: 'u64' },
      { name: 'externalAuthType', type: 'enum:AuthenticationExternalAuthType' },
      { name: 'externalAuthToken', type: 'string', max: 16384 },
      { name: 'cb', type: 'cb:Client.UnmergeIntoProvisionalAccountCallback' },
    ],
    doc: 'Moves the external identity off the full account into a new provisional account (public client).',
  },
  {
    name: 'UpdateProvisionalAccountDisplayName',
    ts: {
      name: 'updateProvisionalAccountDisplayName',
      kind: 'void',
      doc: 'Sets the display name of the signed-in provisional account (1–32 characters).',
    },
    params: [
      { name: 'name', type: 'string', max: 32 },
      { name: 'cb', type: 'cb:Client.UpdateProvisionalAccountDisplayNameCallback' },
    ],
    doc: 'Sets the display name of the signed-in provisional account (1–32 characters).',
  },
  {
    name: 'UpdateToken',
    area: null,
    params: [
      { name: 'tokenType', type: 'enum:AuthorizationTokenType' },
      { name: 'token', type: 'string', max: 512 },
      { name: 'cb', type: 'cb:Client.UpdateTokenCallback' },
    ],
    doc:
      'Sets the access token for HTTP calls and the gateway; ' +
      'call Connect from the callback. Only Bearer is accepted.',
  },
  {
    name: 'FetchCurrentUser',
    params: [
      { name: 'tokenType', type: 'enum:AuthorizationTokenType' },
      { name: 'token', type: 'string', max: 512 },
      { name: 'cb', type: 'cb:Client.FetchCurrentUserCallback' },
    ],
    doc: 'Validates a token by fetching its user (id, username) without connecting.',
  },
  {
    name: 'IsAuthenticated',
    area: null,
    const: true,
    returns: 'bool',
    doc: 'True when UpdateToken set a token (its validity is not checked).',
  },
  {
    name: 'SetTokenExpirationCallback',
    area: null,
    params: [{ name: 'cb', type: 'cb:Client.TokenExpirationCallback', nullable: true }],
    doc:
      'Single slot: fires once per token given to UpdateToken, ' +
      'shortly before it expires or when the platform rejects it.',
  },
  {
    name: 'RegisterAuthorizeRequestCallback',
    area: 'localClient',
    params: [{ name: 'cb', type: 'cb:Client.AuthorizeRequestCallback' }],
    doc:
      'Single slot: the local platform client asks the game to start account linking (call Authorize). Subscribed\n' +
      'over local RPC while registered, again after every reconnect; ' +
      'without a local client it is kept and never fires.',
  },
  {
    name: 'RemoveAuthorizeRequestCallback',
    area: 'localClient',
    doc: 'Clears the RegisterAuthorizeRequestCallback slot (and unsubscribes).',
  },
];
