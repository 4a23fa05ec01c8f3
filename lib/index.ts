// svcpp — the TypeScript face of the SDK. Ids are bigint (64-bit snowflakes).
export { Client } from './client.js';
export type {
  AuthorizationCodeVerifierSnapshot,
  AuthorizationResult,
  AuthorizeOptions,
  ClientEvents,
  ClientOptions,
  ExternalAuth,
  TokenResponse,
} from './client.js';
export type { UserApplicationProfileSnapshot, UserSnapshot } from './users.js';
export type { GuildChannelSnapshot, GuildSnapshot, LinkedLobbySnapshot } from './guilds.js';
export type {
  CreateOrJoinLobbyOptions,
  LinkedChannelSnapshot,
  LobbyCallInfo,
  LobbyCallParticipant,
  LobbyEvents,
  LobbyMemberSnapshot,
  LobbySnapshot,
} from './lobbies.js';
export type {
  AdditionalContentSnapshot,
  ChannelSnapshot,
  MessageEvents,
  MessageSnapshot,
  UserMessageSummarySnapshot,
} from './messages.js';
export type { RelationshipSnapshot } from './relationships.js';
export type { ConnectionEvents, ConnectionFailureSnapshot } from './connection.js';
export type {
  Activity,
  ActivityAssets,
  ActivityButton,
  ActivityInvite,
  ActivityParty,
  ActivityTimestamps,
} from './presence.js';
export type {
  ActivityAssetsSnapshot,
  ActivityPartySnapshot,
  ActivitySecretsSnapshot,
  ActivitySnapshot,
  ActivityTimestampsSnapshot,
} from '../contract/snapshots.js';
export type { LocalClientEvents, LocalClientOptions } from './local-client.js';
export { Call } from './voice/call.js';
export type { CallEvents, DecryptStats, EncryptionState, VadThreshold, VoiceStateSnapshot } from './voice/call.js';
export { VoiceArea } from './voice/voice-area.js';
export type { CallAudioOptions } from './voice/voice-area.js';
export { fileDevice } from './voice/devices.js';
export type { AudioDeviceSnapshot } from './voice/devices.js';
export { AuthorizationArgs, AuthorizationCodeChallenge } from './authorization.js';
export type { AuthorizationArgsInit, AuthorizationCodeChallengeInit, ValueObjectOptions } from './authorization.js';
export { SvcppConnectionError, SvcppError } from './errors.js';
export type { SvcppConnectionErrorCode, SvcppErrorCode } from './errors.js';
export { SUPPORTED_TARGETS, SvcppUnsupportedTargetError } from './targets.js';
export type { NativeSystem, NativeTarget } from './targets.js';
export * from './server.js';
export { SvcppResultError, resultError, resultErrorCodes } from './result.js';
export type { SvcppResultErrorCode } from './result.js';
export { loadBackend, nativeLibraryPath } from './loader.js';
export type { BackendName, LoadOptions } from './loader.js';
export * from '../contract/enums.js';
export { ABI_VERSION } from './generated/errc.js';
export type { NativeApi, NativeHandle, NativeHandleType } from '../contract/native-api.js';
// The plain objects the NativeApi's <Type>_Snapshot entry points return (one crossing per object; native/SEMANTICS.md
// "Snapshots").
export type * from '../contract/snapshots.js';
