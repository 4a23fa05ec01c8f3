// The Client's the client itself: static helpers, setup, connection; the callbacks of the core (status, logs, tokens,
// users, guilds): its part of the API surface (idl/surface.mjs assembles the areas).

/** Callbacks of this area (the vocabulary: idl/surface.mjs, above `callbacks`). */
export const callbacks = [
  {
    name: 'FreeFn',
    doc: 'Releases user data. Runs on a thread that is inside an svcpp call, never on an SDK thread.',
    params: [{ name: 'ptr', type: 'voidptr' }],
    raw: true,
  },
  {
    name: 'CallbacksPendingFn',
    doc:
      'Wakeup hook: callbacks are pending for a client. Runs on an SDK thread (or the thread that queued the work);\n' +
      'must not block and must not call svcpp. Answer by scheduling a pump on your own thread.',
    params: [],
    thread: 'sdk',
  },
  {
    name: 'Client.LogCallback',
    doc: 'A log line at or above the registered minimum severity. Tokens and secrets never appear in log lines.',
    params: [
      { name: 'message', type: 'string' },
      { name: 'severity', type: 'enum:LoggingSeverity' },
    ],
  },
  {
    name: 'Client.OnStatusChanged',
    doc:
      'The client status changed; error and errorDetail say why ' +
      'when it is a failure (errorDetail: close code or HTTP status).',
    params: [
      { name: 'status', type: 'enum:Client.Status' },
      { name: 'error', type: 'enum:Client.Error' },
      { name: 'errorDetail', type: 'i32' },
    ],
  },
  {
    name: 'Client.AuthorizationCallback',
    doc: 'Authorize finished: on success code and redirectUri go to GetToken (with the PKCE verifier).',
    params: [
      { name: 'result', type: 'obj:ClientResult' },
      { name: 'code', type: 'string' },
      { name: 'redirectUri', type: 'string' },
    ],
  },
  {
    name: 'Client.AuthorizeUrlCallback',
    doc:
      'svcpp addition: the authorize URL of a pending Authorize, ' +
      "for the host to open (a launcher's browser window).",
    params: [{ name: 'url', type: 'string' }],
  },
  {
    name: 'Client.TokenExchangeCallback',
    doc: 'A token request finished. expiresIn in seconds; refreshToken is empty when none was issued.',
    params: [
      { name: 'result', type: 'obj:ClientResult' },
      { name: 'accessToken', type: 'string' },
      { name: 'refreshToken', type: 'string' },
      { name: 'tokenType', type: 'enum:AuthorizationTokenType' },
      { name: 'expiresIn', type: 'i32' },
      { name: 'scopes', type: 'string' },
    ],
  },
  {
    name: 'Client.ExchangeChildTokenCallback',
    doc: 'ExchangeChildToken finished (child tokens have no refresh token).',
    params: [
      { name: 'result', type: 'obj:ClientResult' },
      { name: 'accessToken', type: 'string' },
      { name: 'tokenType', type: 'enum:AuthorizationTokenType' },
      { name: 'expiresIn', type: 'i32' },
      { name: 'scopes', type: 'string' },
    ],
  },
  {
    name: 'Client.RevokeTokenCallback',
    doc: 'RevokeToken finished.',
    params: [{ name: 'result', type: 'obj:ClientResult' }],
  },
  {
    name: 'Client.UpdateTokenCallback',
    doc: 'UpdateToken finished: call Connect from here.',
    params: [{ name: 'result', type: 'obj:ClientResult' }],
  },
  {
    name: 'Client.UnmergeIntoProvisionalAccountCallback',
    doc: 'UnmergeIntoProvisionalAccount finished.',
    params: [{ name: 'result', type: 'obj:ClientResult' }],
  },
  {
    name: 'Client.UpdateProvisionalAccountDisplayNameCallback',
    doc: 'UpdateProvisionalAccountDisplayName finished.',
    params: [{ name: 'result', type: 'obj:ClientResult' }],
  },
  {
    name: 'Client.FetchCurrentUserCallback',
    doc: "FetchCurrentUser finished: the id and username of the token's user.",
    params: [
      { name: 'result', type: 'obj:ClientResult' },
      { name: 'id', type: 'u64' },
      { name: 'name', type: 'string' },
    ],
  },
  {
    name: 'Client.TokenExpirationCallback',
    doc: 'The token given to UpdateToken expires soon (or was rejected): refresh it and call UpdateToken.',
    params: [],
  },
  {
    name: 'Client.MissedEventsCallback',
    doc:
      'svcpp addition: the client reconnected with a new gateway ' +
      'session (the old one could not be resumed, e.g. after a\n' +
      'platform restart), so events of the gap were not delivered. ' +
      'The SDK has rebuilt its caches (users, relationships,\n' +
      'lobbies from READY; cached messages dropped) ' +
      'before this fires and before Ready; refetch what the game keeps itself.',
    params: [],
  },
  {
    name: 'Client.AuthorizeRequestCallback',
    doc: 'The platform asked the game to start account linking (call Authorize).',
    params: [],
  },
  {
    name: 'Client.GetUserGuildsCallback',
    doc: 'GetUserGuilds finished: the guilds the user is a member of (borrowed; Clone what you keep).',
    params: [
      { name: 'result', type: 'obj:ClientResult' },
      { name: 'guilds', type: 'list:obj:GuildMinimal' },
    ],
  },
  {
    name: 'Client.GetGuildChannelsCallback',
    doc: "GetGuildChannels finished: the guild's channels sorted by position (borrowed; Clone what you keep).",
    params: [
      { name: 'result', type: 'obj:ClientResult' },
      { name: 'guildChannels', type: 'list:obj:GuildChannel' },
    ],
  },
  {
    name: 'Client.UserUpdatedCallback',
    doc: 'A known user changed (name, avatar, status, activity); read it with GetUser.',
    params: [{ name: 'userId', type: 'u64' }],
    payload: { name: 'user', lookup: 'GetUser', args: ['userId'] },
  },
];

/** This file's methods are core::Client's own (lifecycle, pump, status, token): no area service. */
export const area = null;

/** Methods of Client in this area (the vocabulary: idl/surface.mjs, above `types`). */
export const methods = [
  // static helpers (every enum also gets Svcpp_<Enum>ToString, e.g. Svcpp_Client_StatusToString)
  { name: 'GetDefaultCommunicationScopes', static: true, returns: 'string', doc: '"openid sdk.social_layer".' },
  { name: 'GetDefaultPresenceScopes', static: true, returns: 'string', doc: '"openid sdk.social_layer_presence".' },
  { name: 'GetVersionMajor', static: true, returns: 'i32', doc: 'Product version, major.' },
  { name: 'GetVersionMinor', static: true, returns: 'i32', doc: 'Product version, minor.' },
  { name: 'GetVersionPatch', static: true, returns: 'i32', doc: 'Product version, patch.' },
  { name: 'GetVersionHash', static: true, returns: 'string', doc: 'Source revision the library was built from.' },
  // setup
  { name: 'GetApplicationId', const: true, returns: 'u64', doc: 'The application id, 0 until set.' },
  {
    name: 'SetApplicationId',
    params: [{ name: 'applicationId', type: 'u64' }],
    doc: 'Sets the application id (the default ClientId of AuthorizationArgs).',
  },
  {
    name: 'GetHttpRequestTimeout',
    const: true,
    returns: 'i32',
    doc: 'svcpp addition: the HTTP request timeout in ms.',
  },
  {
    name: 'SetHttpRequestTimeout',
    params: [{ name: 'httpTimeoutInMilliseconds', type: 'i32', min: 1 }],
    doc: 'Timeout of each HTTP request in ms (default 30000); values < 1 are rejected with InvalidArgument.',
  },
  { name: 'GetStatus', const: true, returns: 'enum:Client.Status', doc: 'Current connection status.' },
  {
    name: 'SetStatusChangedCallback',
    params: [{ name: 'cb', type: 'cb:Client.OnStatusChanged', nullable: true }],
    doc: 'Single slot: replaces the previous callback; a NULL callback clears it.',
  },
  {
    name: 'AddLogCallback',
    params: [
      { name: 'minSeverity', type: 'enum:LoggingSeverity' },
      { name: 'cb', type: 'cb:Client.LogCallback' },
    ],
    out: { name: 'token', type: 'u64' },
    doc: 'Additive: every registration receives log lines at or above minSeverity. Remove with RemoveCallback(token).',
  },
  {
    name: 'RemoveCallback',
    params: [{ name: 'token', type: 'u64' }],
    doc: 'Ends an additive registration; its user data is freed. Unknown token: InvalidArgument.',
  },
  {
    name: 'SetLogDir',
    params: [
      { name: 'path', type: 'string', max: 4096 },
      { name: 'minSeverity', type: 'enum:LoggingSeverity' },
    ],
    returns: 'bool',
    doc:
      'Writes log lines at or above minSeverity to <path>/svcpp.log (overwritten per run); ' +
      'None stops. False when the file cannot be opened.',
  },
  // connection
  {
    name: 'Connect',
    doc: 'Opens the gateway session with the token of UpdateToken; progress through the status callback.',
  },
  { name: 'Disconnect', doc: 'Closes the gateway session; ends in Status Disconnected.' },
  {
    name: 'GetLastConnectionFailure',
    const: true,
    returns: 'obj:ConnectionFailure',
    optional: true,
    doc:
      'svcpp addition: why the last connection ended in Disconnected with an error (set before that status\n' +
      'callback is queued, cleared by Connect); absent after a clean Disconnect or while connected.',
  },
  {
    name: 'SetMissedEventsCallback',
    params: [{ name: 'cb', type: 'cb:Client.MissedEventsCallback', nullable: true }],
    doc: 'svcpp addition. Single slot: a reconnect could not resume the session (see the callback). NULL clears it.',
  },
  {
    name: 'GetDiscardedGatewayMessageCount',
    const: true,
    returns: 'u64',
    doc:
      'svcpp addition: gateway messages this client could not read and discarded since it was created (each also\n' +
      'logged at Warning). 0 in a healthy session.',
  },
];
