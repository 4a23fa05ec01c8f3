// The one description of the svcpp API surface.
//
// Everything mechanical is generated from this file by `npm run gen` (tools/gen):
//   native/include/svcpp.h            the C ABI declarations (the contract engine plugins link against)
//   native/include/svcpp.hpp          the header-only C++ wrapper over the C ABI
//   native/capi/generated/*.cpp       extern "C" marshalling: handle/argument validation, conversion, call into core
//   native/core/generated/*.hpp       plain C++ value structs and enums the core works with
//   bindings/napi/generated/*.cpp     Node-API glue over the C ABI
//   bindings/koffi/generated.ts       koffi declarations of the C ABI
//   contract/*.ts                     the TypeScript view of the C ABI that lib/ and bindings/koffi share (enums,
//                                     the NativeApi interface both backends implement, the snapshot data)
//   lib/generated/errc.ts             the face's error codes and the ABI version its loader checks
//   lib/generated/client-methods.ts   the Client methods of the TypeScript face that only forward (a `ts` hint per
//                                     method)
// Generated files are checked in; `npm run gen:check` (part of the tests) fails when one is stale.
//
// The Client's methods and callbacks live per area in idl/client/<area>.mjs; this file assembles them.
// Adding an SDK method = describe it here (or in its area's file), implement it in native/core, test it
// (docs/adding-an-sdk-method.md).
//
// Type vocabulary (strings):
//   bool i32 u32 u64 f32      scalars
//   string                    UTF-8, Svcpp_String in C, std::string in C++, string in TS
//   enum:Name                 a 32-bit enum declared below (class-scoped names use a dot: enum:Client.Status)
//   obj:Name                  a value object declared below (Svcpp_Name handle)
//   cb:Name                   a callback declared below; expands to the (callback, userDataFree, userData) triple
//   list:obj:Name             a span of Name objects (Svcpp_NameSpan {ptr, size} in C, std::vector in C++, an array
//                             of handles in TS; native/SEMANTICS.md "Spans"): a callback parameter (borrowed), a
//                             method result (caller-owned) or a field of a value type whose elements are value objects
//                             declared above it (getter: caller-owned span; setter: borrowed span, every element
//                             copied)
//   list:u64                  a span of ids (Svcpp_UInt64Span {uint64_t *ptr; size_t size}, std::vector<uint64_t>,
//                             bigint[] in TS): where list:obj may appear; a result's buffer is freed with Svcpp_Free
//   map                       string -> string properties (Svcpp_Properties; native/SEMANTICS.md "Maps"):
//                             core::Properties (a std::map), std::unordered_map in the C++ wrapper, Record<string,
//                             string> in TS. A method parameter (borrowed, copied; duplicate keys rejected), a method
//                             result or const getter (Svcpp_Properties *out, sorted by key bytes, freed with
//                             Svcpp_FreeProperties), a callback parameter (borrowed) or a field of a value type.
//                             Options on a map parameter or field: maxKeys, maxKey, maxValue (code points) — hard ABI
//                             limits checked synchronously (InvalidArgument); leave a limit out when the service owns
//                             it.
// Lists and maps are never `optional` (empty is their absent state) and are not method parameters except maps.
// A parameter or field with `optional: true` uses the C ABI optional conventions (pointer in, bool + out-param out).
// `max` on a string is a hard ABI limit in code points, checked synchronously (Svcpp_Errc_InvalidArgument).

import * as core from './client/core.mjs';
import * as auth from './client/auth.mjs';
import * as users from './client/users.mjs';
import * as guilds from './client/guilds.mjs';
import * as messages from './client/messages.mjs';
import * as lobbies from './client/lobbies.mjs';
import * as relationships from './client/relationships.mjs';
import * as presence from './client/presence.mjs';
import * as localClient from './client/local-client.mjs';
import * as voice from './client/voice.mjs';
import * as pump from './client/pump.mjs';

export const abi = { major: 1, minor: 0 };
export const product = { major: 0, minor: 1, patch: 0 };

/** @type {Array<{name: string, doc: string, bitmask?: boolean, values: Array<[string, number, string?]>}>} */
export const enums = [
  {
    name: 'Errc',
    doc:
      'Synchronous result of every C ABI call that can be misused. ' +
      'Never a domain failure (those are ClientResults).',
    values: [
      ['Ok', 0, 'success'],
      ['InvalidHandle', 1, 'NULL, zeroed or wrong-type handle, or a handle used after Drop'],
      ['NullArgument', 2, 'a required pointer was NULL'],
      ['InvalidArgument', 3, 'unknown enum value, NaN, duplicate property key, out-of-range or over-limit value'],
      ['InvalidUtf8', 4, 'a string argument is not valid UTF-8'],
      ['ClientDestroyed', 5, 'the owning client was dropped'],
      ['Busy', 6, 'nested or concurrent pump of the same queue, or Drop racing a pump on another thread'],
      ['NotSupported', 7, 'feature not built in or not available on this OS'],
      ['OutOfMemory', 8, 'allocation failed'],
      ['AbiMismatch', 9, 'the caller was compiled against an incompatible ABI major version'],
      ['Internal', 10, 'an internal error; the message (Svcpp_GetLastErrorMessage) says more'],
    ],
  },
  {
    name: 'LoggingSeverity',
    doc: 'Severity of a log line; a log callback receives lines at or above its minimum.',
    values: [
      ['Verbose', 1],
      ['Info', 2],
      ['Warning', 3],
      ['Error', 4],
      ['None', 5, 'as a minimum: receive nothing'],
    ],
  },
  {
    name: 'ErrorType',
    doc: 'What kind of failure a ClientResult reports (None = success).',
    values: [
      ['None', 0],
      ['NetworkError', 1],
      ['HTTPError', 2],
      ['ClientNotReady', 3],
      ['Disabled', 4],
      ['ClientDestroyed', 5],
      ['ValidationError', 6],
      ['Aborted', 7],
      ['AuthorizationFailed', 8],
      ['RPCError', 9],
    ],
  },
  {
    name: 'HttpStatusCode',
    doc: 'HTTP status of a ClientResult of type HTTPError (None otherwise).',
    values: [
      ['None', 0],
      ['Continue', 100],
      ['SwitchingProtocols', 101],
      ['Processing', 102],
      ['EarlyHints', 103],
      ['Ok', 200],
      ['Created', 201],
      ['Accepted', 202],
      ['NonAuthoritativeInfo', 203],
      ['NoContent', 204],
      ['ResetContent', 205],
      ['PartialContent', 206],
      ['MultiStatus', 207],
      ['AlreadyReported', 208],
      ['ImUsed', 209],
      ['MultipleChoices', 300],
      ['MovedPermanently', 301],
      ['Found', 302],
      ['SeeOther', 303],
      ['NotModified', 304],
      ['TemporaryRedirect', 307],
      ['PermanentRedirect', 308],
      ['BadRequest', 400],
      ['Unauthorized', 401],
      ['PaymentRequired', 402],
      ['Forbidden', 403],
      ['NotFound', 404],
      ['MethodNotAllowed', 405],
      ['NotAcceptable', 406],
      ['ProxyAuthRequired', 407],
      ['RequestTimeout', 408],
      ['Conflict', 409],
      ['Gone', 410],
      ['LengthRequired', 411],
      ['PreconditionFailed', 412],
      ['PayloadTooLarge', 413],
      ['UriTooLong', 414],
      ['UnsupportedMediaType', 415],
      ['RangeNotSatisfiable', 416],
      ['ExpectationFailed', 417],
      ['MisdirectedRequest', 421],
      ['UnprocessableEntity', 422],
      ['Locked', 423],
      ['FailedDependency', 424],
      ['TooEarly', 425],
      ['UpgradeRequired', 426],
      ['PreconditionRequired', 428],
      ['TooManyRequests', 429],
      ['RequestHeaderFieldsTooLarge', 431],
      ['InternalServerError', 500],
      ['NotImplemented', 501],
      ['BadGateway', 502],
      ['ServiceUnavailable', 503],
      ['GatewayTimeout', 504],
      ['HttpVersionNotSupported', 505],
      ['VariantAlsoNegotiates', 506],
      ['InsufficientStorage', 507],
      ['LoopDetected', 508],
      ['NotExtended', 510],
      ['NetworkAuthorizationRequired', 511],
    ],
  },
  {
    name: 'AudioSystem',
    doc: 'Audio system of the voice engine (ClientCreateOptions.ExperimentalAudioSystem).',
    values: [
      ['Standard', 0],
      ['Game', 1],
    ],
  },
  {
    name: 'AuthenticationCodeChallengeMethod',
    doc: 'PKCE challenge method; only S256 exists.',
    values: [['S256', 0]],
  },
  {
    name: 'IntegrationType',
    doc: 'How the application is installed (AuthorizationArgs.IntegrationType).',
    values: [
      ['GuildInstall', 0],
      ['UserInstall', 1],
    ],
  },
  {
    name: 'AuthorizationTokenType',
    doc: 'Kind of access token (UpdateToken, FetchCurrentUser, token callbacks). Only Bearer is accepted.',
    values: [
      ['User', 0],
      ['Bearer', 1],
    ],
  },
  {
    name: 'AuthenticationExternalAuthType',
    doc: 'Kind of external credential behind a provisional account (wire strings: platform/PROTOCOL.md §5).',
    values: [
      ['OIDC', 0],
      ['EpicOnlineServicesAccessToken', 1],
      ['EpicOnlineServicesIdToken', 2],
      ['SteamSessionTicket', 3],
      ['UnityServicesIdToken', 4],
      ['PlatformBotIssuedAccessToken', 5],
      ['AppleIdToken', 6],
      ['PlayStationNetworkIdToken', 7],
    ],
  },
  {
    name: 'StatusType',
    doc: 'Online status of a user.',
    values: [
      ['Online', 0],
      ['Offline', 1],
      ['Blocked', 2],
      ['Idle', 3],
      ['Dnd', 4],
      ['Invisible', 5],
      ['Streaming', 6],
      ['Unknown', 7],
    ],
  },
  {
    name: 'ChannelType',
    doc: 'Kind of a channel (GuildChannel.Type).',
    values: [
      ['GuildText', 0],
      ['Dm', 1],
      ['GuildVoice', 2],
      ['GroupDm', 3],
      ['GuildCategory', 4],
      ['GuildNews', 5],
      ['GuildStore', 6],
      ['GuildNewsThread', 10],
      ['GuildPublicThread', 11],
      ['GuildPrivateThread', 12],
      ['GuildStageVoice', 13],
      ['GuildDirectory', 14],
      ['GuildForum', 15],
      ['GuildMedia', 16],
      ['Lobby', 17],
      ['EphemeralDm', 18],
    ],
  },
  {
    name: 'ExternalIdentityProviderType',
    doc: 'Who issued the external identity behind a user application profile.',
    values: [
      ['OIDC', 0],
      ['EpicOnlineServices', 1],
      ['Steam', 2],
      ['Unity', 3],
      ['PlatformBot', 4],
      ['None', 5],
      ['Unknown', 6],
    ],
  },
  {
    name: 'AdditionalContentType',
    doc: 'What a message carries besides its text (MessageHandle.AdditionalContent).',
    values: [
      ['Other', 0],
      ['Attachment', 1],
      ['Poll', 2],
      ['VoiceMessage', 3],
      ['Thread', 4],
      ['Embed', 5],
      ['Sticker', 6],
    ],
  },
  {
    name: 'DisclosureTypes',
    doc: 'A disclosure the game should show next to a message (MessageHandle.DisclosureType).',
    values: [['MessageDataVisibleOnPlatform', 3, "the message is also visible in the platform's own client"]],
  },
  {
    name: 'UserHandle.AvatarType',
    doc: 'Image format of an avatar URL (UserHandle::AvatarUrl).',
    values: [
      ['Gif', 0],
      ['Webp', 1],
      ['Png', 2],
      ['Jpeg', 3],
    ],
  },
  {
    name: 'Client.Status',
    doc: 'Connection status of a Client (see the status machine in the README).',
    values: [
      ['Disconnected', 0],
      ['Connecting', 1],
      ['Connected', 2],
      ['Ready', 3],
      ['Reconnecting', 4],
      ['Disconnecting', 5],
      ['HttpWait', 6, 'waiting for an HTTP prerequisite before opening the gateway socket'],
    ],
  },
  {
    name: 'Client.Error',
    doc: 'Why a status change happened, when it is a failure.',
    values: [
      ['None', 0],
      ['ConnectionFailed', 1],
      ['UnexpectedClose', 2],
      ['ConnectionCanceled', 3],
    ],
  },
  {
    name: 'Client.Thread',
    doc: 'SDK-owned threads (SetThreadPriority, CpuAffinityMask).',
    values: [
      ['Client', 0],
      ['Voice', 1],
      ['Network', 2],
    ],
  },
  {
    name: 'ConnectionFailureReason',
    doc:
      'svcpp addition: why connecting failed (Client.GetLastConnectionFailure), ' +
      'so a host can tell a person what to fix.',
    values: [
      ['None', 0, 'no failure recorded'],
      ['InvalidUrl', 1, 'the API base or gateway URL is not an http(s)/ws(s) URL'],
      ['NameNotResolved', 2, 'the host name has no address (DNS)'],
      ['ConnectionRefused', 3, 'nothing listens at that address and port'],
      ['TimedOut', 4, 'no answer in time (connect, TLS, HTTP, or no READY after Identify)'],
      [
        'TlsVerificationFailed',
        5,
        'the server certificate did not verify (unknown CA, wrong name, expired): see Message',
      ],
      ['TlsFailed', 6, 'another TLS failure (protocol, handshake, CA file)'],
      ['NetworkError', 7, 'the connection broke or the peer did not speak HTTP/WebSocket'],
      ['HttpError', 8, 'gateway discovery answered with an HTTP error (HttpStatus)'],
      ['InvalidToken', 9, 'no token, or the platform rejected it (close code 4004): get a new one'],
      ['ClosedByServer', 10, 'the platform ended the session with a terminal close code (CloseCode)'],
    ],
  },
  {
    name: 'RelationshipType',
    doc:
      'One axis of the relationship with another user (platform or game). ' +
      'Implicit and Suggestion are never produced by svcpp.',
    values: [
      ['None', 0],
      ['Friend', 1],
      ['Blocked', 2],
      ['PendingIncoming', 3],
      ['PendingOutgoing', 4],
      ['Implicit', 5],
      ['Suggestion', 6],
    ],
  },
  {
    name: 'RelationshipGroupType',
    doc: 'The groups of a friends list (GetRelationshipsByGroup).',
    values: [
      ['OnlinePlayingGame', 0, 'friends online with an activity of this application'],
      ['OnlineElsewhere', 1, 'friends online otherwise'],
      ['Offline', 2, 'everyone else with a relationship'],
    ],
  },
  {
    name: 'ActivityTypes',
    doc: 'Kind of an activity; UpdateRichPresence accepts Playing, Listening, Watching and Competing.',
    values: [
      ['Playing', 0],
      ['Streaming', 1],
      ['Listening', 2],
      ['Watching', 3],
      ['CustomStatus', 4],
      ['Competing', 5],
      ['HangStatus', 6],
    ],
  },
  {
    name: 'StatusDisplayTypes',
    doc: 'Which field of an activity a status line shows.',
    values: [
      ['Name', 0],
      ['State', 1],
      ['Details', 2],
    ],
  },
  {
    name: 'ActivityPartyPrivacy',
    doc: 'Who may ask to join a party.',
    values: [
      ['Private', 0],
      ['Public', 1],
    ],
  },
  {
    name: 'ActivityActionTypes',
    doc: 'Kind of a game invite: Join (come play with me) or JoinRequest (may I join you?).',
    values: [
      ['Invalid', 0],
      ['Join', 1],
      ['JoinRequest', 5],
    ],
  },
  {
    name: 'ActivityGamePlatforms',
    doc: 'Platforms an activity can be joined from (a bitmask: combine with |).',
    bitmask: true,
    values: [
      ['Desktop', 1],
      ['Xbox', 2],
      ['Samsung', 4],
      ['IOS', 8],
      ['Android', 16],
      ['Embedded', 32],
      ['PS4', 64],
      ['PS5', 128],
    ],
  },
  {
    name: 'AudioModeType',
    doc: 'How a call decides when to transmit: voice activity (VAD) or push-to-talk (PTT). MODE_UNINIT reads as VAD.',
    values: [
      ['MODE_UNINIT', 0],
      ['MODE_VAD', 1],
      ['MODE_PTT', 2],
    ],
  },
  {
    name: 'Call.Status',
    doc:
      'Status of a lobby voice call (the status machine in docs/voice.md). ' +
      'A recoverable network drop is Reconnecting,\n' +
      'never Disconnected.',
    values: [
      ['Disconnected', 0],
      ['Joining', 1, 'voice state sent on the main gateway, waiting for the voice server'],
      ['Connecting', 2, 'voice gateway socket opening, Identify sent'],
      ['SignalingConnected', 3, 'voice Ready received; UDP discovery and protocol selection'],
      ['Connected', 4, 'session description received: media flows'],
      ['Reconnecting', 5, 'the voice connection dropped and is being resumed'],
      ['Disconnecting', 6, 'EndCall in progress'],
    ],
  },
  {
    name: 'Call.Error',
    doc:
      'Why a call status change happened, when it is a failure (errorDetail: ' +
      'the voice close code, when one applies).',
    values: [
      ['None', 0],
      ['SignalingConnectionFailed', 1, 'the voice gateway could not be reached or refused the session'],
      ['SignalingUnexpectedClose', 2, 'the voice gateway ended the session with a terminal close code'],
      ['VoiceConnectionFailed', 3, 'UDP discovery or protocol selection failed (no common encryption mode)'],
      ['JoinTimeout', 4, 'no voice server within 10 s of joining'],
      ['Forbidden', 5, 'the platform refused the join (not a lobby member)'],
    ],
  },
];

/**
 * Callbacks. `thread: 'pump'` (the default) means the callback only runs inside Svcpp_RunCallbacks /
 * Svcpp_Client_RunCallbacks on the pumping thread; `thread: 'sdk'` means it runs on an SDK thread.
 *
 * `payload` (JavaScript bindings only; the C callback is unchanged): the event's object travels with it. The JS
 * function gets one more argument after the C ones, `name`: the snapshot of what the Client lookup `lookup` answers
 * for the callback arguments `args` (GetUser(userId) …), read when the event is delivered to JavaScript — in the same
 * crossing as the delivery on N-API — or undefined when the lookup finds nothing (native/SEMANTICS.md "Event
 * payloads"). Only for events of a Client setter, and `lookup` must have a lookup snapshot (tools/gen/snapshots.mjs).
 */
export const callbacks = [
  ...core.callbacks,
  ...messages.callbacks,
  ...lobbies.callbacks,
  ...relationships.callbacks,
  ...presence.callbacks,
  ...localClient.callbacks,
  ...voice.callbacks,
];

/**
 * Object types. kind:
 *   value   a plain value object: generated core struct, field getters/setters, deep Clone
 *   handle  a live view of cached state: a hand-written core class (`header`) whose const member functions
 *           are the getters; Clone copies the reference; IsValid is false once the client is gone
 *   client  the root object; its methods are implemented by hand, each in the core service of its `area`
 *           (idl/client/<area>.mjs: native/core/<area>/<area>_service.hpp) or, without one, in native/core/client
 * A method with `optional: true` returns `bool f(self, ..., T *out)`: false (out untouched) when absent.
 * `init: true` = the application may construct it (Svcpp_<T>_Init).
 */
export const types = [
  {
    name: 'ClientCreateOptions',
    kind: 'value',
    init: true,
    doc: 'Options for Svcpp_Client_InitWithOptions. Empty base URLs mean the defaults.',
    fields: [
      {
        name: 'ApiBase',
        type: 'string',
        max: 2048,
        doc: 'Base URL of the HTTP API, e.g. http://127.0.0.1:8080/api/v10 (default: the local platform).',
      },
      {
        name: 'WebBase',
        type: 'string',
        max: 2048,
        doc: 'Base URL of the web pages (OAuth2 consent), e.g. http://127.0.0.1:8080.',
      },
      {
        name: 'CaFile',
        type: 'string',
        max: 4096,
        doc:
          'svcpp addition: PEM file of extra trusted CAs (for a local ' +
          'platform with a self-signed certificate). Verification stays on.',
      },
      { name: 'ExperimentalAudioSystem', type: 'enum:AudioSystem', doc: 'Audio system of the voice engine.' },
      {
        name: 'ExperimentalAndroidPreventCommsForBluetooth',
        type: 'bool',
        doc: 'Android: keep Bluetooth headsets out of communication mode.',
      },
      {
        name: 'CpuAffinityMask',
        type: 'u64',
        optional: true,
        doc: 'Pins SDK threads to these CPUs (bit n = CPU n); absent = no pinning.',
      },
      {
        name: 'IpcPath',
        type: 'string',
        max: 4096,
        doc:
          "svcpp addition: the local platform client's socket (empty: the SVCPP_IPC_PATH environment variable, else\n" +
          'discord-ipc-0..9 under XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP or /tmp).',
      },
    ],
  },
  {
    name: 'ClientResult',
    kind: 'value',
    init: true, // svcpp addition: constructible so hosts can unit-test their callback code
    doc: 'Outcome of an asynchronous operation. Type() == None means success.',
    fields: [
      { name: 'Type', type: 'enum:ErrorType', doc: 'Kind of failure; None = success.' },
      { name: 'Error', type: 'string', doc: 'Human-readable description, always set on failure.' },
      {
        name: 'ErrorCode',
        type: 'i32',
        doc: 'JSON error code from the response body (HTTPError) or RPC error code; else 0.',
      },
      { name: 'Status', type: 'enum:HttpStatusCode', doc: 'HTTP status (HTTPError only).' },
      { name: 'ResponseBody', type: 'string', doc: 'Raw response body (HTTPError).' },
      { name: 'Retryable', type: 'bool', doc: 'True for 429 and transient network or 5xx failures.' },
      { name: 'RetryAfter', type: 'f32', doc: 'Seconds to wait before retrying (from a 429).' },
    ],
    methods: [
      { name: 'Successful', doc: 'Type() == None.', const: true, returns: 'bool' },
      { name: 'ToString', doc: 'One-line summary: type, status, code, message.', const: true, returns: 'string' },
    ],
  },
  {
    name: 'AuthorizationCodeChallenge',
    kind: 'value',
    init: true,
    doc: 'PKCE challenge sent with Authorize (AuthorizationArgs.CodeChallenge).',
    fields: [
      { name: 'Method', type: 'enum:AuthenticationCodeChallengeMethod', doc: 'Always S256.' },
      { name: 'Challenge', type: 'string', max: 128, doc: 'BASE64URL(SHA256(verifier)), no padding.' },
    ],
  },
  {
    name: 'AuthorizationCodeVerifier',
    kind: 'value',
    init: false,
    doc:
      'A PKCE pair from Svcpp_Client_CreateAuthorizationCodeVerifier: ' +
      'the challenge goes into AuthorizationArgs, the verifier into GetToken.',
    fields: [
      { name: 'Challenge', type: 'obj:AuthorizationCodeChallenge', doc: 'The S256 challenge of Verifier.' },
      {
        name: 'Verifier',
        type: 'string',
        max: 128,
        doc: '43 characters of BASE64URL from 32 CSPRNG bytes (RFC 7636).',
      },
    ],
  },
  {
    name: 'AuthorizationArgs',
    kind: 'value',
    init: true,
    doc: 'Arguments of Client::Authorize.',
    fields: [
      {
        name: 'ClientId',
        type: 'u64',
        doc: 'Application id; 0 (unset) means the value given to Svcpp_Client_SetApplicationId.',
      },
      {
        name: 'Scopes',
        type: 'string',
        max: 1024,
        doc: 'Space-separated OAuth2 scopes (see GetDefaultCommunicationScopes).',
      },
      {
        name: 'State',
        type: 'string',
        optional: true,
        max: 1024,
        doc: 'CSRF state; leave unset and the SDK generates one from a CSPRNG.',
      },
      {
        name: 'Nonce',
        type: 'string',
        optional: true,
        max: 1024,
        doc: 'OpenID Connect nonce, echoed in the id_token.',
      },
      {
        name: 'CodeChallenge',
        type: 'obj:AuthorizationCodeChallenge',
        optional: true,
        doc: 'PKCE challenge; needed for the GetToken flow.',
      },
      {
        name: 'IntegrationType',
        type: 'enum:IntegrationType',
        optional: true,
        doc: 'How the application is installed.',
      },
      {
        name: 'CustomSchemeParam',
        type: 'string',
        optional: true,
        max: 256,
        doc: 'Custom URI scheme for mobile redirects: <scheme>:/authorize/callback.',
      },
    ],
  },
  {
    name: 'ActivityButton',
    kind: 'value',
    init: true,
    doc: 'A button of a rich presence activity (Activity.Buttons): a label and the URL it opens.',
    fields: [
      {
        name: 'Label',
        type: 'string',
        max: 32,
        doc: 'Text of the button (1–32 characters; an empty label is rejected by the service).',
      },
      { name: 'Url', type: 'string', max: 512, doc: 'URL the button opens (1–512 characters).' },
    ],
  },
  {
    name: 'LinkedLobby',
    kind: 'value',
    init: true,
    doc: 'The lobby a guild channel is linked to.',
    fields: [
      { name: 'ApplicationId', type: 'u64', doc: 'The application that owns the lobby.' },
      { name: 'LobbyId', type: 'u64', doc: 'The lobby id.' },
    ],
  },
  {
    name: 'ConnectionFailure',
    kind: 'value',
    init: false,
    doc: 'svcpp addition: why the last Connect ended in Disconnected with an error (Client.GetLastConnectionFailure).',
    fields: [
      { name: 'Reason', type: 'enum:ConnectionFailureReason', doc: 'The kind of failure.' },
      {
        name: 'Message',
        type: 'string',
        doc: 'What failed, for a person (e.g. the certificate problem); never holds a token.',
      },
      {
        name: 'Retryable',
        type: 'bool',
        doc: 'Whether trying again later may succeed; never for certificate, URL or token failures.',
      },
      { name: 'CloseCode', type: 'i32', doc: 'The gateway close code (InvalidToken, ClosedByServer), else 0.' },
      {
        name: 'HttpStatus',
        type: 'enum:HttpStatusCode',
        doc: 'The HTTP status of a failed gateway discovery (HttpError), else None.',
      },
    ],
  },
  {
    name: 'LinkedChannel',
    kind: 'value',
    init: false,
    doc: 'The guild channel a lobby is linked to (LobbyHandle.LinkedChannel).',
    fields: [
      { name: 'Id', type: 'u64', doc: 'The channel id.' },
      { name: 'Name', type: 'string', doc: 'The channel name.' },
      { name: 'GuildId', type: 'u64', doc: 'The guild the channel belongs to.' },
    ],
  },
  {
    name: 'AdditionalContent',
    kind: 'value',
    init: true,
    header: 'values/additional_content.hpp',
    doc: 'What a message carries besides its text (attachments, a poll, …), for games that show a placeholder.',
    fields: [
      { name: 'Type', type: 'enum:AdditionalContentType', doc: 'Kind of content.' },
      { name: 'Title', type: 'string', optional: true, max: 1024, doc: 'A title for the content, when it has one.' },
      // The reference declares Count as uint8_t; the IDL has no 8-bit integer, so it is a u32 here.
      {
        name: 'Count',
        type: 'u32',
        doc: 'How many items of this kind the message carries (the reference type is u8).',
      },
    ],
    methods: [
      {
        name: 'Equals',
        const: true,
        params: [{ name: 'other', type: 'obj:AdditionalContent' }],
        returns: 'bool',
        doc: 'Field-wise equality.',
      },
    ],
  },
  {
    name: 'AudioDevice',
    kind: 'value',
    header: 'voice/audio_device_value.hpp',
    doc:
      'An audio input or output device. svcpp also offers "null" (silence in, discard out) and "file:<path>" (a WAV\n' +
      'file as microphone, or the WAV file what is heard is written to) on every machine: docs/voice.md "Devices".',
    fields: [
      { name: 'Id', type: 'string', max: 4096, doc: 'The id SetInputDevice/SetOutputDevice take.' },
      { name: 'Name', type: 'string', max: 4096, doc: 'A name for people.' },
      { name: 'IsDefault', type: 'bool', doc: 'The system default device.' },
    ],
    methods: [
      {
        name: 'Equals',
        const: true,
        params: [{ name: 'other', type: 'obj:AudioDevice' }],
        returns: 'bool',
        doc: 'Same id.',
      },
    ],
  },
  {
    name: 'VADThresholdSettings',
    kind: 'value',
    doc: 'The voice-activity threshold of a call (Call.GetVADThreshold).',
    fields: [
      { name: 'VadThreshold', type: 'f32', doc: 'Manual threshold in dBFS, -100..0 (default -60).' },
      {
        name: 'Automatic',
        type: 'bool',
        doc: 'True: the engine adapts the threshold to the noise floor (the default).',
      },
    ],
  },
  {
    name: 'CallEncryptionState',
    kind: 'value',
    doc: 'svcpp addition: the end-to-end encryption (DAVE) state of a call (Call.GetEncryptionState), a snapshot.',
    fields: [
      {
        name: 'ProtocolVersion',
        type: 'i32',
        doc: 'DAVE protocol version of the call: 1 = end-to-end encrypted, 0 = not (yet).',
      },
      {
        name: 'Epoch',
        type: 'u64',
        doc: "The MLS epoch our audio is encrypted in; 0 before this user holds the call's group.",
      },
      {
        name: 'TransitionPending',
        type: 'bool',
        doc: 'A key change was prepared and waits for the voice server to execute it.',
      },
      {
        name: 'Passthrough',
        type: 'bool',
        doc: 'Audio may travel in clear: only during a transition to or from an unencrypted call.',
      },
    ],
  },
  {
    name: 'UserMessageSummary',
    kind: 'value',
    init: false,
    doc: 'The latest direct message with one user (GetUserMessageSummaries).',
    fields: [
      { name: 'UserId', type: 'u64', doc: 'The other user.' },
      { name: 'LastMessageId', type: 'u64', doc: 'The most recent message between the two users.' },
    ],
  },
  {
    name: 'GuildMinimal',
    kind: 'value',
    init: false,
    doc: 'A guild the user is a member of (GetUserGuilds).',
    fields: [
      { name: 'Id', type: 'u64', doc: 'The guild id.' },
      { name: 'Name', type: 'string', doc: 'The guild name.' },
    ],
  },
  {
    name: 'GuildChannel',
    kind: 'value',
    init: false,
    doc: 'A channel of a guild (GetGuildChannels), with what lobby linking needs to know about it.',
    fields: [
      { name: 'Id', type: 'u64', doc: 'The channel id.' },
      { name: 'Name', type: 'string', doc: 'The channel name.' },
      { name: 'Type', type: 'enum:ChannelType', doc: 'Text, voice, category, …' },
      { name: 'Position', type: 'i32', doc: 'Sort position within the guild (GetGuildChannels sorts by it).' },
      { name: 'ParentId', type: 'u64', optional: true, doc: 'The category the channel is in, when it is in one.' },
      {
        name: 'IsLinkable',
        type: 'bool',
        doc:
          'A text channel, not NSFW, not linked, ' +
          'where the user may Manage Channels, View Channel and Send Messages.',
      },
      {
        name: 'IsViewableAndWriteableByAllMembers',
        type: 'bool',
        doc: 'Every member may view the channel and send messages in it.',
      },
      {
        name: 'LinkedLobby',
        type: 'obj:LinkedLobby',
        optional: true,
        doc: 'The lobby linked to the channel, when there is one.',
      },
    ],
  },
  {
    name: 'ActivityAssets',
    kind: 'value',
    init: true,
    doc: 'Images and their hover texts of an activity. Limits (checked by UpdateRichPresence) in characters.',
    fields: [
      { name: 'LargeImage', type: 'string', optional: true, doc: 'Asset key or URL of the large image, 1–300.' },
      { name: 'LargeText', type: 'string', optional: true, doc: 'Hover text of the large image, 2–128.' },
      { name: 'LargeUrl', type: 'string', optional: true, doc: 'Opened when the large image is clicked, 1–256.' },
      { name: 'SmallImage', type: 'string', optional: true, doc: 'Asset key or URL of the small image, 1–300.' },
      { name: 'SmallText', type: 'string', optional: true, doc: 'Hover text of the small image, 2–128.' },
      { name: 'SmallUrl', type: 'string', optional: true, doc: 'Opened when the small image is clicked, 1–256.' },
      {
        name: 'InviteCoverImage',
        type: 'string',
        optional: true,
        doc: 'Asset key or URL of the banner of game invites, 1–300.',
      },
    ],
  },
  {
    name: 'ActivityTimestamps',
    kind: 'value',
    init: true,
    doc:
      'Start and end of an activity in Unix milliseconds (values below 100000000000 are taken as seconds and\n' +
      'converted). An End shows a countdown; 0 = unset.',
    fields: [
      { name: 'Start', type: 'u64', doc: 'When the activity started (elapsed time display); 0 = unset.' },
      { name: 'End', type: 'u64', doc: 'When the activity ends (countdown display); 0 = unset.' },
    ],
  },
  {
    name: 'ActivityParty',
    kind: 'value',
    init: true,
    doc: 'The party of an activity; with a join secret and room left it makes the activity joinable.',
    fields: [
      { name: 'Id', type: 'string', doc: 'Party id, 2–128 characters.' },
      { name: 'CurrentSize', type: 'i32', doc: 'Members in the party, ≥ 1.' },
      { name: 'MaxSize', type: 'i32', doc: 'Party capacity, ≥ 0 (0 = no maximum shown); when set, ≥ CurrentSize.' },
      { name: 'Privacy', type: 'enum:ActivityPartyPrivacy', doc: 'Who may ask to join.' },
    ],
  },
  {
    name: 'ActivitySecrets',
    kind: 'value',
    init: true,
    doc: 'Secrets of an activity (never shown; handed to whoever joins).',
    fields: [
      { name: 'Join', type: 'string', doc: 'What a joining player receives (AcceptActivityInvite), 2–128 characters.' },
    ],
  },
  {
    name: 'Activity',
    kind: 'value',
    init: true,
    doc:
      'A rich presence activity (UpdateRichPresence; UserHandle::GameActivity). Fields are validated by\n' +
      'UpdateRichPresence (ValidationError naming the field); lengths in characters.',
    fields: [
      { name: 'Name', type: 'string', doc: "Displayed name, ≤ 128; empty = the application's name." },
      { name: 'Type', type: 'enum:ActivityTypes', doc: 'Playing, Listening, Watching or Competing.' },
      {
        name: 'StatusDisplayType',
        type: 'enum:StatusDisplayTypes',
        optional: true,
        doc: 'Which field the status line shows.',
      },
      { name: 'State', type: 'string', optional: true, doc: 'Second line (e.g. "In a group"), 2–128.' },
      { name: 'StateUrl', type: 'string', optional: true, doc: 'Link of State, 2–256.' },
      { name: 'Details', type: 'string', optional: true, doc: 'First line (e.g. "Ranked match"), 2–128.' },
      { name: 'DetailsUrl', type: 'string', optional: true, doc: 'Link of Details, 2–256.' },
      {
        name: 'ApplicationId',
        type: 'u64',
        optional: true,
        doc: 'The application (set by the platform from the token: not sent by UpdateRichPresence).',
      },
      {
        name: 'ParentApplicationId',
        type: 'u64',
        optional: true,
        doc: 'The parent application, for child applications.',
      },
      { name: 'Assets', type: 'obj:ActivityAssets', optional: true, doc: 'Images.' },
      { name: 'Timestamps', type: 'obj:ActivityTimestamps', optional: true, doc: 'Elapsed or countdown display.' },
      { name: 'Party', type: 'obj:ActivityParty', optional: true, doc: 'The party (needed for invites).' },
      { name: 'Secrets', type: 'obj:ActivitySecrets', optional: true, doc: 'The join secret (needed for invites).' },
      {
        name: 'SupportedPlatforms',
        type: 'enum:ActivityGamePlatforms',
        doc: 'Platforms the activity can be joined from (0 = Desktop).',
      },
      {
        name: 'Buttons',
        type: 'list:obj:ActivityButton',
        doc: 'Custom buttons of the activity card (at most 2; see AddButton).',
      },
    ],
    header: 'values/activity.hpp',
    methods: [
      {
        name: 'AddButton',
        params: [{ name: 'button', type: 'obj:ActivityButton' }],
        doc: 'Appends a button (copied). A third one is kept here and refused by UpdateRichPresence (ValidationError).',
      },
      {
        name: 'GetButtons',
        const: true,
        returns: 'list:obj:ActivityButton',
        doc: 'The buttons, in the order they were added.',
      },
      {
        name: 'Equals',
        const: true,
        params: [{ name: 'other', type: 'obj:Activity' }],
        returns: 'bool',
        doc: 'Every field equal (buttons in order).',
      },
    ],
  },
  {
    name: 'ActivityInvite',
    kind: 'value',
    init: true,
    doc:
      'A game invite or join request (ActivityInvite callbacks; ' +
      'SendActivityJoinRequestReply, AcceptActivityInvite).',
    fields: [
      { name: 'SenderId', type: 'u64', doc: 'Who sent it.' },
      { name: 'ChannelId', type: 'u64', doc: 'The DM channel it travelled in.' },
      { name: 'MessageId', type: 'u64', doc: 'The message that carries it (what AcceptActivityInvite accepts).' },
      {
        name: 'Type',
        type: 'enum:ActivityActionTypes',
        doc: 'Join (an invite) or JoinRequest (the sender asks to join).',
      },
      { name: 'ApplicationId', type: 'u64', doc: 'The application it is for.' },
      { name: 'ParentApplicationId', type: 'u64', doc: 'The parent of that application (0 = none).' },
      { name: 'PartyId', type: 'string', doc: "The party of the sender's activity." },
      { name: 'SessionId', type: 'string', doc: "The sender's session." },
      {
        name: 'IsValid',
        type: 'bool',
        doc:
          'False once it expired (6 h) or the sender left the party. This field replaces the\n' +
          "generic Svcpp_X_IsValid for this type (the reference's name); it is false for an invalid handle too.",
      },
    ],
  },
  {
    name: 'RelationshipHandle',
    kind: 'handle',
    header: 'relationships/relationship_handle.hpp',
    doc:
      'A live view of the relationship with one user, on both axes (platform and game): getters read the current\n' +
      'state; a user without a relationship reads None on both. After the client is dropped: defaults, IsValid false.',
    methods: [
      { name: 'Id', const: true, returns: 'u64', doc: "The other user's id." },
      {
        name: 'PlatformRelationshipType',
        const: true,
        returns: 'enum:RelationshipType',
        doc: 'The platform axis (global friends, blocks).',
      },
      {
        name: 'GameRelationshipType',
        const: true,
        returns: 'enum:RelationshipType',
        doc: "The game axis (this application's friends).",
      },
      { name: 'IsSpamRequest', const: true, returns: 'bool', doc: 'An incoming request the platform flagged as spam.' },
      { name: 'User', const: true, returns: 'obj:UserHandle', optional: true, doc: 'The other user, when cached.' },
    ],
  },
  {
    name: 'UserApplicationProfileHandle',
    kind: 'handle',
    header: 'users/user_application_profile_handle.hpp',
    doc:
      "A live view of one of the signed-in user's profiles for this application (its external identity):\n" +
      'getters read the current state; once the profile, the user or the client is gone they return defaults and\n' +
      'IsValid is false.',
    methods: [
      {
        name: 'AvatarHash',
        const: true,
        returns: 'string',
        doc: 'Avatar hash of the profile (empty when it has none).',
      },
      { name: 'Metadata', const: true, returns: 'string', doc: 'Metadata of the profile (empty when it has none).' },
      {
        name: 'ProviderId',
        const: true,
        returns: 'string',
        optional: true,
        doc: 'The identity provider (the OIDC issuer), when it has one.',
      },
      { name: 'ProviderIssuedUserId', const: true, returns: 'string', doc: 'The user id the provider issued.' },
      {
        name: 'ProviderType',
        const: true,
        returns: 'enum:ExternalIdentityProviderType',
        doc: 'Kind of identity provider.',
      },
      { name: 'Username', const: true, returns: 'string', doc: 'The name of the profile.' },
    ],
  },
  {
    name: 'UserHandle',
    kind: 'handle',
    header: 'users/user_handle.hpp',
    doc:
      "A live view of a user in the client's cache: getters read the current state; after the client is dropped\n" +
      'they return defaults and IsValid is false.',
    methods: [
      { name: 'Id', const: true, returns: 'u64', doc: 'The user id (0 when invalid).' },
      { name: 'Username', const: true, returns: 'string', doc: 'Unique username (generated for provisional users).' },
      {
        name: 'GlobalName',
        const: true,
        returns: 'string',
        optional: true,
        doc: 'The global (display) name, when set.',
      },
      { name: 'DisplayName', const: true, returns: 'string', doc: 'GlobalName when set, else Username.' },
      { name: 'Avatar', const: true, returns: 'string', optional: true, doc: 'Avatar hash, when the user has one.' },
      {
        name: 'AvatarUrl',
        const: true,
        returns: 'string',
        params: [
          { name: 'animatedType', type: 'enum:UserHandle.AvatarType' },
          { name: 'staticType', type: 'enum:UserHandle.AvatarType' },
        ],
        doc: 'CDN URL of the avatar (animatedType for a_ hashes, else staticType); the default avatar without one.',
      },
      {
        name: 'Status',
        const: true,
        returns: 'enum:StatusType',
        doc: 'Online status (Offline until presence says otherwise).',
      },
      { name: 'IsProvisional', const: true, returns: 'bool', doc: 'True for a provisional (game-only) account.' },
      {
        name: 'GuildTag',
        const: true,
        returns: 'string',
        optional: true,
        doc: 'svcpp addition: the primary guild tag the user displays, when enabled.',
      },
      {
        name: 'UserApplicationProfiles',
        const: true,
        returns: 'list:obj:UserApplicationProfileHandle',
        doc: "The user's profiles for this application (known for the signed-in user; empty for others).",
      },
      {
        name: 'GameActivity',
        const: true,
        returns: 'obj:Activity',
        optional: true,
        doc: "The user's activity for this application (rich presence), when they have one.",
      },
      {
        name: 'Relationship',
        const: true,
        returns: 'obj:RelationshipHandle',
        doc: 'The relationship with the user (None on both axes without one).',
      },
    ],
  },
  {
    name: 'LobbyMemberHandle',
    kind: 'handle',
    header: 'lobbies/lobby_member_handle.hpp',
    doc:
      'A live view of a member of a cached lobby: getters read the current state; once the member, the lobby or the\n' +
      'client is gone they return defaults and IsValid is false.',
    methods: [
      { name: 'Id', const: true, returns: 'u64', doc: "The member's user id (0 when invalid)." },
      {
        name: 'Connected',
        const: true,
        returns: 'bool',
        doc: 'True while the member has a session for the application (membership is not presence).',
      },
      { name: 'Metadata', const: true, returns: 'map', doc: "The member's metadata (empty when it has none)." },
      {
        name: 'User',
        const: true,
        returns: 'obj:UserHandle',
        optional: true,
        doc: "The member's user, when the cache knows it.",
      },
      {
        name: 'CanLinkLobby',
        const: true,
        returns: 'bool',
        doc: 'The member may link the lobby to a guild channel (set through the server API only).',
      },
      {
        name: 'AdditionalName',
        const: true,
        returns: 'string',
        optional: true,
        doc: "svcpp addition: the member's server-set display name (1–80 characters), when set.",
      },
    ],
  },
  {
    name: 'LobbyHandle',
    kind: 'handle',
    header: 'lobbies/lobby_handle.hpp',
    doc:
      'A live view of a lobby the user is a member of: getters read the current state; once the lobby is gone\n' +
      '(left, deleted, disconnected) or the client is dropped they return defaults and IsValid is false.',
    methods: [
      { name: 'Id', const: true, returns: 'u64', doc: 'The lobby id (0 when invalid).' },
      {
        name: 'LobbyMemberIds',
        const: true,
        returns: 'list:u64',
        doc: "The member ids in the platform's order, this user included.",
      },
      {
        name: 'LobbyMembers',
        const: true,
        returns: 'list:obj:LobbyMemberHandle',
        doc: 'One handle per member, this user included.',
      },
      {
        name: 'GetLobbyMemberHandle',
        const: true,
        params: [{ name: 'memberId', type: 'u64' }],
        returns: 'obj:LobbyMemberHandle',
        optional: true,
        doc: 'The member with this user id; absent when it is not a member.',
      },
      { name: 'Metadata', const: true, returns: 'map', doc: "The lobby's metadata (empty when it has none)." },
      {
        name: 'LinkedChannel',
        const: true,
        returns: 'obj:LinkedChannel',
        optional: true,
        doc: 'The guild channel the lobby is linked to, when it is linked.',
      },
      {
        name: 'GetCallInfoHandle',
        const: true,
        returns: 'obj:CallInfoHandle',
        optional: true,
        doc: "Who is in the lobby's voice call, without joining it; absent while nobody is in the call.",
      },
    ],
  },
  {
    name: 'ChannelHandle',
    kind: 'handle',
    header: 'messages/channel_handle.hpp',
    doc: 'A live view of a channel messages go through: a persistent DM channel or a lobby (ephemeral DMs have none).',
    methods: [
      { name: 'Id', const: true, returns: 'u64', doc: 'The channel id (0 when invalid).' },
      { name: 'Name', const: true, returns: 'string', doc: 'The channel name (empty for DMs and lobbies).' },
      {
        name: 'Recipients',
        const: true,
        returns: 'list:u64',
        doc: 'DMs: the other participant; lobbies: every member.',
      },
      { name: 'Type', const: true, returns: 'enum:ChannelType', doc: 'Dm, GroupDm or Lobby.' },
    ],
  },
  {
    name: 'MessageHandle',
    kind: 'handle',
    header: 'messages/message_handle.hpp',
    doc:
      'A live view of a lobby or direct message. The handle keeps the message readable after the cache evicted it\n' +
      '(the cache holds the 25 most recent per channel); edits reach it while it is cached. After the client is\n' +
      'dropped the getters return defaults and IsValid is false.',
    methods: [
      { name: 'Id', const: true, returns: 'u64', doc: 'The message id (0 when invalid).' },
      {
        name: 'Content',
        const: true,
        returns: 'string',
        doc: 'The text with user mentions and custom emoji rendered readable (@name, :emoji:).',
      },
      { name: 'RawContent', const: true, returns: 'string', doc: 'The text as sent.' },
      { name: 'AuthorId', const: true, returns: 'u64', doc: 'The user who sent it.' },
      {
        name: 'Author',
        const: true,
        returns: 'obj:UserHandle',
        optional: true,
        doc: 'The author, when the cache knows the user.',
      },
      {
        name: 'ChannelId',
        const: true,
        returns: 'u64',
        doc: "The DM channel (as this user sees it: the other user's id for ephemeral DMs) or the lobby id.",
      },
      {
        name: 'Channel',
        const: true,
        returns: 'obj:ChannelHandle',
        optional: true,
        doc: 'The channel, for persistent DMs and lobbies the user is in.',
      },
      {
        name: 'Lobby',
        const: true,
        returns: 'obj:LobbyHandle',
        optional: true,
        doc: 'The lobby of a lobby message, while the user is a member.',
      },
      {
        name: 'RecipientId',
        const: true,
        returns: 'u64',
        doc: 'The user a DM was sent to, or the lobby of a lobby message.',
      },
      {
        name: 'Recipient',
        const: true,
        returns: 'obj:UserHandle',
        optional: true,
        doc: 'The recipient of a DM, when the cache knows the user.',
      },
      { name: 'SentTimestamp', const: true, returns: 'u64', doc: 'When it was sent, Unix milliseconds.' },
      {
        name: 'EditedTimestamp',
        const: true,
        returns: 'u64',
        doc: 'When it was last edited, Unix milliseconds; 0 = never.',
      },
      { name: 'Metadata', const: true, returns: 'map', doc: 'The metadata the sender attached (empty when none).' },
      {
        name: 'ModerationMetadata',
        const: true,
        returns: 'map',
        doc: "Metadata the application's server set for moderation (empty when none).",
      },
      {
        name: 'AdditionalContent',
        const: true,
        returns: 'obj:AdditionalContent',
        optional: true,
        doc:
          'Attachments, polls, … the message carries. ' +
          "The platform's game messages are text only: always absent today.",
      },
      {
        name: 'DisclosureType',
        const: true,
        returns: 'enum:DisclosureTypes',
        optional: true,
        doc: 'A disclosure to show with the message. The platform sends none yet: always absent today.',
      },
      {
        name: 'ApplicationId',
        const: true,
        returns: 'u64',
        optional: true,
        doc: 'The application the message was sent from, when known.',
      },
      {
        name: 'SentFromGame',
        const: true,
        returns: 'bool',
        doc: "True when sent through the SDK (rather than the platform's own client).",
      },
      {
        name: 'AdditionalName',
        const: true,
        returns: 'string',
        optional: true,
        doc: 'The server-set display name of the lobby member who sent it, when set.',
      },
    ],
  },
  {
    name: 'VoiceStateHandle',
    kind: 'handle',
    header: 'voice/voice_state_handle.hpp',
    doc:
      "A live view of a call participant's voice state: " +
      'defaults and IsValid false once they left or the call ended.',
    methods: [
      { name: 'SelfMute', const: true, returns: 'bool', doc: 'The participant muted their microphone.' },
      {
        name: 'SelfDeaf',
        const: true,
        returns: 'bool',
        doc: 'The participant deafened themselves (they hear nothing and send nothing).',
      },
    ],
  },
  {
    name: 'CallInfoHandle',
    kind: 'handle',
    header: 'voice/call_info_handle.hpp',
    doc:
      "A live view of a lobby's voice call seen from outside it " +
      '(LobbyHandle.GetCallInfoHandle): who is in it and their\n' +
      "voice states, from the lobby's voice-state events. " +
      'Defaults and IsValid false once nobody is in the call, the\n' +
      'lobby is gone or the client is dropped.',
    methods: [
      {
        name: 'ChannelId',
        const: true,
        returns: 'u64',
        doc: "The lobby id (a lobby's call is its channel); 0 when invalid.",
      },
      { name: 'GuildId', const: true, returns: 'u64', doc: 'Always 0: lobby calls belong to no guild.' },
      { name: 'GetParticipants', const: true, returns: 'list:u64', doc: 'The users in the call, ordered by id.' },
      {
        name: 'GetVoiceStateHandle',
        const: true,
        params: [{ name: 'userId', type: 'u64' }],
        returns: 'obj:VoiceStateHandle',
        optional: true,
        doc: 'The voice state of a participant; absent when not in the call.',
      },
    ],
  },
  {
    name: 'Call',
    kind: 'handle',
    header: 'voice/call.hpp',
    doc:
      'A lobby voice call this user is in: status, participants and local audio controls. Invalid (defaults,\n' +
      'IsValid false) once EndCall/EndCalls finished, ' +
      'the call ended on its own (Disconnected) or the client is gone.\n' +
      'Setters on an invalid call: InvalidHandle. Status machine and audio thread: docs/voice.md.',
    methods: [
      { name: 'GetStatus', const: true, returns: 'enum:Call.Status', doc: 'The call status.' },
      { name: 'GetChannelId', const: true, returns: 'u64', doc: 'The lobby id of the call.' },
      { name: 'GetGuildId', const: true, returns: 'u64', doc: 'Always 0: lobby calls belong to no guild.' },
      {
        name: 'GetParticipants',
        const: true,
        returns: 'list:u64',
        doc: 'The users in the call, this user included once Connected.',
      },
      {
        name: 'GetVoiceStateHandle',
        const: true,
        params: [{ name: 'userId', type: 'u64' }],
        returns: 'obj:VoiceStateHandle',
        optional: true,
        doc: 'The voice state of a participant; absent when not in the call.',
      },
      {
        name: 'SetStatusChangedCallback',
        params: [{ name: 'cb', type: 'cb:Call.OnStatusChanged', nullable: true }],
        doc: 'Single slot. NULL clears it.',
      },
      {
        name: 'SetParticipantChangedCallback',
        params: [{ name: 'cb', type: 'cb:Call.OnParticipantChanged', nullable: true }],
        doc: 'Single slot. NULL clears it.',
      },
      {
        name: 'SetOnVoiceStateChangedCallback',
        params: [{ name: 'cb', type: 'cb:Call.OnVoiceStateChanged', nullable: true }],
        doc: 'Single slot. NULL clears it.',
      },
      {
        name: 'SetSpeakingStatusChangedCallback',
        params: [{ name: 'cb', type: 'cb:Call.OnSpeakingStatusChanged', nullable: true }],
        doc: 'Single slot. NULL clears it.',
      },
      {
        name: 'GetSelfMute',
        const: true,
        returns: 'bool',
        doc: "This user's microphone is muted in this call (or by SetSelfMuteAll).",
      },
      {
        name: 'SetSelfMute',
        params: [{ name: 'mute', type: 'bool' }],
        doc: "Mutes this user's microphone in this call; others see the voice state change.",
      },
      {
        name: 'GetSelfDeaf',
        const: true,
        returns: 'bool',
        doc: 'This user is deafened in this call (or by SetSelfDeafAll).',
      },
      {
        name: 'SetSelfDeaf',
        params: [{ name: 'deaf', type: 'bool' }],
        doc: 'Deafens this user: nothing is played and nothing is sent.',
      },
      {
        name: 'GetLocalMute',
        const: true,
        params: [{ name: 'userId', type: 'u64' }],
        returns: 'bool',
        doc: 'This user muted that participant locally.',
      },
      {
        name: 'SetLocalMute',
        params: [
          { name: 'userId', type: 'u64' },
          { name: 'mute', type: 'bool' },
        ],
        doc: 'Mutes a participant for this user only (0: InvalidArgument).',
      },
      {
        name: 'GetParticipantVolume',
        const: true,
        params: [{ name: 'userId', type: 'u64' }],
        returns: 'f32',
        doc: 'Local volume of a participant, 0..200 (100 = unity, the default).',
      },
      {
        name: 'SetParticipantVolume',
        params: [
          { name: 'userId', type: 'u64' },
          { name: 'volume', type: 'f32' },
        ],
        doc:
          'Local volume of a participant, 0..200 (100 = unity); ' +
          'out of range or NaN: InvalidArgument, nothing changed.',
      },
      {
        name: 'GetAudioMode',
        const: true,
        returns: 'enum:AudioModeType',
        doc: 'VAD or PTT (MODE_UNINIT until set: behaves as VAD).',
      },
      {
        name: 'SetAudioMode',
        params: [{ name: 'audioMode', type: 'enum:AudioModeType' }],
        doc: 'Voice activity or push-to-talk.',
      },
      {
        name: 'GetPTTActive',
        const: true,
        returns: 'bool',
        doc: 'The push-to-talk key is held (the game owns the key binding).',
      },
      {
        name: 'SetPTTActive',
        params: [{ name: 'active', type: 'bool' }],
        doc: 'In PTT mode: transmit while true (plus the release delay).',
      },
      {
        name: 'GetPTTReleaseDelay',
        const: true,
        returns: 'u32',
        doc: 'Milliseconds transmission goes on after the key is released (default 0).',
      },
      {
        name: 'SetPTTReleaseDelay',
        params: [{ name: 'releaseDelayMs', type: 'u32' }],
        doc: 'Release delay in ms (recommended 20; above 10000: InvalidArgument).',
      },
      {
        name: 'GetVADThreshold',
        const: true,
        returns: 'obj:VADThresholdSettings',
        doc: 'The voice-activity threshold.',
      },
      {
        name: 'SetVADThreshold',
        params: [
          { name: 'automatic', type: 'bool' },
          { name: 'threshold', type: 'f32' },
        ],
        doc:
          'Automatic, or a manual threshold in dBFS -100..0 ' +
          '(out of range or NaN: InvalidArgument, nothing changed).',
      },
      // end-to-end encryption (DAVE): svcpp additions
      {
        name: 'GetEncryptionState',
        const: true,
        returns: 'obj:CallEncryptionState',
        doc: 'svcpp addition: the end-to-end encryption state (all zero/false once the call is over).',
      },
      {
        name: 'SetEncryptionStateChangedCallback',
        params: [{ name: 'cb', type: 'cb:Call.OnEncryptionStateChanged', nullable: true }],
        doc: 'svcpp addition. Single slot. NULL clears it.',
      },
      {
        name: 'GetPrivacyCode',
        const: true,
        returns: 'string',
        doc:
          "svcpp addition: the call's 30-digit privacy code for the current epoch (the same for every member; empty\n" +
          'before this user holds the group), for players to compare out of band.',
      },
      {
        name: 'GetParticipantFramesDecrypted',
        const: true,
        params: [{ name: 'userId', type: 'u64' }],
        returns: 'u64',
        doc:
          'svcpp addition: frames from this user the DAVE frame ' +
          'cryptor decrypted in this call (they go on to the jitter\n' +
          'buffer and the mixer); 0 for a user never heard, and once the call is over. With the next two: why a\n' +
          'participant is silent.',
      },
      {
        name: 'GetParticipantFramesPassedThrough',
        const: true,
        params: [{ name: 'userId', type: 'u64' }],
        returns: 'u64',
        doc:
          'svcpp addition: frames from this user accepted in clear ' +
          '(the Opus silence frame, or any frame during passthrough).',
      },
      {
        name: 'GetParticipantFramesDropped',
        const: true,
        params: [{ name: 'userId', type: 'u64' }],
        returns: 'u64',
        doc:
          'svcpp addition: frames from this user the frame cryptor refused: ' +
          'no key for their epoch or generation, failed\n' +
          'authentication, replayed, too old, or in clear outside passthrough.',
      },
      {
        name: 'GetParticipantFramesPlayed',
        const: true,
        params: [{ name: 'userId', type: 'u64' }],
        returns: 'u64',
        doc:
          'svcpp addition: frames from this user played out: ' +
          'taken from the jitter buffer in turn and decoded from their\n' +
          'own packet (not concealed, not rebuilt from FEC), ' +
          'or an Opus silence frame the jitter buffer skipped to bring its\n' +
          'delay back to the target (played as the silence it carries, ' +
          'only shorter); 0 for a user never heard, and once\n' +
          'the call is over. Decrypted or passed-through frames that ' +
          'were not played were lost after decryption (late, or\n' +
          "speech skipped past the jitter buffer's 500 ms bound).",
      },
      {
        name: 'GetParticipantFingerprint',
        const: true,
        params: [{ name: 'userId', type: 'u64' }],
        returns: 'string',
        doc:
          "svcpp addition: the 45-digit verification fingerprint of this user and `userId` (DAVE's pairwise\n" +
          "fingerprint of both users' MLS signature keys, " +
          'scrypt-hashed; docs/voice.md): the same on both sides, for\n' +
          "players to compare out of band. Empty when either is not in the call's group, or `userId` is this user.\n" +
          'Costs tens of milliseconds (scrypt).',
      },
      {
        name: 'GetFramesEncrypted',
        const: true,
        returns: 'u64',
        doc:
          "svcpp addition: this user's audio frames sent as DAVE " +
          'ciphertext in this call (not the silence frames sent in\n' +
          'clear, nor frames dropped while this user holds no group, e.g. alone in the call; 0 once the call is over).',
      },
    ],
  },
  {
    name: 'Client',
    kind: 'client',
    doc: 'The root object: owns the SDK threads, caches and callback registrations.',
    constructors: [
      { name: 'Init', doc: 'A client against the default (local platform) base URLs.', params: [] },
      {
        name: 'InitWithBases',
        doc: 'A client against the given API and web base URLs.',
        params: [
          { name: 'apiBase', type: 'string', max: 2048 },
          { name: 'webBase', type: 'string', max: 2048 },
        ],
      },
      {
        name: 'InitWithOptions',
        doc: 'A client with the given options (copied).',
        params: [{ name: 'options', type: 'obj:ClientCreateOptions' }],
      },
    ],
    methods: [core, auth, users, guilds, messages, lobbies, relationships, presence, voice, pump].flatMap(inArea),
  },
];

/**
 * An area file's methods, each tagged with the core service that implements it: the file's `area` unless the method
 * names its own (native/core/<area>/<area>_service.hpp; null: core::Client itself).
 */
function inArea(file) {
  return file.methods.map((m) => ('area' in m ? m : { ...m, area: file.area }));
}

/** Global functions that are neither constructors nor methods of a type (hand-written in native/capi/library.cpp). */
// One crossing per snapshot: every object type gets a generated `<Type>_Snapshot(handle, drop?)` in the N-API and
// koffi layers that reads all its parameterless getters into one plain object (keys: the getter names, first
// letter lowered) and, with `drop`, drops the handle in the same call (native/SEMANTICS.md "Snapshots"). Nested
// objects are snapshots too. These say what differs from "every parameterless getter, nested objects in full":
export const snapshots = {
  // getters left out (a cycle, or a nested object whose own snapshot nobody reads)
  skip: {
    UserHandle: ['Relationship'],
    MessageHandle: ['Channel', 'Recipient'],
    Activity: ['GetButtons'],
    ClientResult: ['Successful', 'ToString'],
  },
  // the TypeScript face's snapshot types that are a snapshot as it is: generated under their public names (with the
  // docs below and each getter's doc on its field) into contract/snapshots.ts and exported from the package; a
  // face type that adapts a snapshot (LobbySnapshot, GuildSnapshot) is written by hand in lib/ over the generated one
  public: {
    UserHandle: {
      name: 'UserSnapshot',
      doc: "A user as the SDK's cache knew it when the snapshot was taken. Ids are bigint snowflakes.",
    },
    UserApplicationProfileHandle: {
      name: 'UserApplicationProfileSnapshot',
      doc: "One of the user's profiles for this application: an external identity (e.g. a game account).",
    },
    RelationshipHandle: {
      name: 'RelationshipSnapshot',
      doc: "The relationship with one user on both axes, as the SDK's cache knew it when the snapshot was taken.",
    },
    LobbyMemberHandle: {
      name: 'LobbyMemberSnapshot',
      doc: 'A member of a lobby (this user included). Membership is not presence: see `connected`.',
    },
    LinkedChannel: { name: 'LinkedChannelSnapshot', doc: 'The guild channel a lobby is linked to.' },
    LinkedLobby: { name: 'LinkedLobbySnapshot', doc: 'The lobby a guild channel is linked to.' },
    GuildChannel: {
      name: 'GuildChannelSnapshot',
      doc: 'A channel of a guild, with what lobby linking needs to know about it.',
    },
    MessageHandle: {
      name: 'MessageSnapshot',
      doc: 'A lobby or direct message as the SDK knew it when the snapshot was taken.',
    },
    AdditionalContent: {
      name: 'AdditionalContentSnapshot',
      doc: "What a message carries besides its text (the platform's game messages are text only: never set today).",
    },
    ChannelHandle: {
      name: 'ChannelSnapshot',
      doc: 'A channel messages go through: a persistent DM channel or a lobby.',
    },
    UserMessageSummary: { name: 'UserMessageSummarySnapshot', doc: 'The latest direct message with one user.' },
    ConnectionFailure: {
      name: 'ConnectionFailureSnapshot',
      doc: 'Why connecting failed, as the SDK saw it (SvcppConnectionError.cause).',
    },
    AudioDevice: {
      name: 'AudioDeviceSnapshot',
      doc: 'An audio device as the system (or the file and null devices) offers it.',
    },
    VoiceStateHandle: { name: 'VoiceStateSnapshot', doc: "A participant's voice state as the platform reports it." },
    Activity: {
      name: 'ActivitySnapshot',
      doc: "An activity as read back (a user's game activity): every field of {@link Activity} present.",
    },
    ActivityAssets: { name: 'ActivityAssetsSnapshot', doc: 'The images of an activity as read back.' },
    ActivityTimestamps: {
      name: 'ActivityTimestampsSnapshot',
      doc: 'The start and end of an activity as read back, Unix milliseconds (0 = not set).',
    },
    ActivityParty: { name: 'ActivityPartySnapshot', doc: 'The party of an activity as read back.' },
    ActivitySecrets: { name: 'ActivitySecretsSnapshot', doc: 'The secrets of an activity as read back.' },
    ActivityButton: { name: 'ActivityButton', doc: 'A custom button of an activity card.' },
    ActivityInvite: {
      name: 'ActivityInvite',
      doc: "A game invite or join request, as received in 'activityInviteCreated' / 'activityInviteUpdated'.",
    },
    GuildMinimal: { name: 'GuildSnapshot', doc: 'A guild the user is a member of.' },
    CallEncryptionState: {
      name: 'EncryptionState',
      doc: "svcpp addition: a call's end-to-end encryption (DAVE) state.",
    },
    AuthorizationCodeChallenge: {
      name: 'AuthorizationCodeChallengeInit',
      doc: 'A PKCE challenge as plain data (what createAuthorizationCodeVerifier returns).',
    },
    AuthorizationCodeVerifier: {
      name: 'AuthorizationCodeVerifierSnapshot',
      doc: 'A fresh PKCE pair: send `challenge` with authorize(), keep `verifier` for the token exchange.',
    },
  },
  // nested objects of which only one getter's value is kept (the message's lobby: its id)
  only: { MessageHandle: { Lobby: 'Id' } },
  // keys other than the getter's name, so that the snapshot is the TypeScript face's object as it is (no re-map in JS)
  keys: { UserHandle: { UserApplicationProfiles: 'applicationProfiles' }, MessageHandle: { Lobby: 'lobbyId' } },
  // getters with arguments, called with fixed enum values (by value name)
  calls: {
    UserHandle: [
      {
        key: 'avatarUrl',
        getter: 'AvatarUrl',
        args: [
          ['UserHandle.AvatarType', 'Gif'],
          ['UserHandle.AvatarType', 'Png'],
        ],
      },
    ],
  },
  // types whose C snapshot reads the object whole, in one cache lookup (hand-written
  // native/capi/support/whole_snapshots.cpp; the getter-composed writer stays as the reference its test compares):
  // the snapshots read on a hot path — a user is every UserUpdated event's payload, a message every MessageCreated's
  whole: ['UserHandle', 'MessageHandle'],
  // lookup snapshots of a whole type that read the cache in place, under its lock, with no handle made and no second
  // lookup (hand-written WriteWholeLookup_<Lookup> in native/capi/support/whole_snapshots.cpp): the lookup every
  // UserUpdated payload takes
  inPlaceLookups: ['Client_GetUser'],
};

// The TypeScript face's snapshot mappers (lib/<module>.ts): a `ts` hint on a Client method names one by key. A
// hint makes the method generated (tools/gen/ts_client.mjs → lib/generated/client-methods.ts):
//   kind 'void'       Promise<void> over the method's completion (ClientResult only)
//   kind 'value'      the synchronous call's value as it is
//   kind 'lookup'     an optional handle read into a snapshot (`take`); with `lookupSnapshot`, the lookup and the
//                     snapshot in one call (NativeApi `<Lookup>_Snapshot`), whose data is the face's snapshot as it
//                     is (`snapshots.keys` names its fields so)
//   kind 'list'       a span of handles read into snapshots (`takeMany`, else `take` per element)
//   kind 'snapshots'  Promise of the completion's span read into snapshots (`takeMany`)
// `defaults` gives TypeScript default values of trailing parameters; `doc` is the TypeScript doc comment.
export const tsSnapshots = {
  User: { module: 'users', type: 'UserSnapshot', take: 'takeUserSnapshot', lookupSnapshot: true },
  Relationship: {
    module: 'relationships',
    type: 'RelationshipSnapshot',
    take: 'takeRelationshipSnapshot',
    takeMany: 'takeRelationshipSnapshots',
  },
  Message: {
    module: 'messages',
    type: 'MessageSnapshot',
    take: 'takeMessageSnapshot',
    takeMany: 'takeMessageSnapshots',
    lookupSnapshot: true,
  },
  Channel: { module: 'messages', type: 'ChannelSnapshot', take: 'takeChannelSnapshot' },
  UserMessageSummary: { module: 'messages', type: 'UserMessageSummarySnapshot', takeMany: 'takeSummarySnapshots' },
  Lobby: { module: 'lobbies', type: 'LobbySnapshot', take: 'takeLobbySnapshot' },
  Guild: { module: 'guilds', type: 'GuildSnapshot', takeMany: 'takeGuildSnapshots' },
  GuildChannel: { module: 'guilds', type: 'GuildChannelSnapshot', takeMany: 'takeGuildChannelSnapshots' },
};

export const globals = [
  'Svcpp_GetAbiVersion',
  'Svcpp_CheckAbiVersion',
  'Svcpp_GetLastErrorMessage',
  'Svcpp_Alloc',
  'Svcpp_Free',
  'Svcpp_FreeProperties',
  'Svcpp_RunCallbacks',
  'Svcpp_ResetCallbacks',
  'Svcpp_SetCallbacksPendingHook',
  // For FFI hosts (the koffi binding): a string read into the caller's memory, and a wakeup pipe instead of a hook
  // (native/capi/ffi_support.cpp; native/SEMANTICS.md "Pump and hook", "Values").
  'Svcpp_TakeStringInto',
  'Svcpp_Client_OpenWakeupFd',
];

/**
 * The reference SDK's names that svcpp spells differently: "Discord" becomes "Platform" (wire strings keep theirs).
 * The C++ wrapper keeps each reference name as a [[deprecated]] alias of ours — a member function forwarding to
 * ours, or an enumerator with the same value — so code written against the reference ports by renaming the
 * namespace and the header; docs/porting-from-the-reference-sdk.md lists them (its table is generated from here).
 * `scope` is the type (member functions) or enum (values) that holds `ours`. Generation fails when `ours` is not
 * there or `reference` is taken, so the list cannot name something the surface does not have.
 */
export const referenceRenames = [
  { scope: 'Client', reference: 'SendDiscordFriendRequest', ours: 'SendPlatformFriendRequest' },
  { scope: 'Client', reference: 'SendDiscordFriendRequestById', ours: 'SendPlatformFriendRequestById' },
  { scope: 'Client', reference: 'AcceptDiscordFriendRequest', ours: 'AcceptPlatformFriendRequest' },
  { scope: 'Client', reference: 'RejectDiscordFriendRequest', ours: 'RejectPlatformFriendRequest' },
  { scope: 'Client', reference: 'CancelDiscordFriendRequest', ours: 'CancelPlatformFriendRequest' },
  { scope: 'Client', reference: 'RemoveDiscordAndGameFriend', ours: 'RemovePlatformAndGameFriend' },
  { scope: 'Client', reference: 'CanOpenMessageInDiscord', ours: 'CanOpenMessageInPlatform' },
  { scope: 'Client', reference: 'OpenMessageInDiscord', ours: 'OpenMessageInPlatform' },
  { scope: 'Client', reference: 'OpenConnectedGamesSettingsInDiscord', ours: 'OpenConnectedGamesSettingsInPlatform' },
  { scope: 'RelationshipHandle', reference: 'DiscordRelationshipType', ours: 'PlatformRelationshipType' },
  { scope: 'ExternalIdentityProviderType', reference: 'DiscordBot', ours: 'PlatformBot' },
  {
    scope: 'AuthenticationExternalAuthType',
    reference: 'DiscordBotIssuedAccessToken',
    ours: 'PlatformBotIssuedAccessToken',
  },
  { scope: 'DisclosureTypes', reference: 'MessageDataVisibleOnDiscord', ours: 'MessageDataVisibleOnPlatform' },
];
