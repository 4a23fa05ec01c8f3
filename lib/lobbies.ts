// Lobby snapshots: a native LobbyHandle (with its members and linked channel) read once into plain data; the
// handles are dropped right away (see snapshot.ts). Ids are bigint snowflakes.
import type { NativeApi, NativeHandle } from '../contract/native-api.js';
import type { EventSetters } from './native-events.js';
import type { LinkedChannelSnapshot, LobbyHandleData, LobbyMemberSnapshot } from '../contract/snapshots.js';
export type { LinkedChannelSnapshot, LobbyMemberSnapshot } from '../contract/snapshots.js';

/** A participant of a lobby's voice call, seen from outside it. */
export interface LobbyCallParticipant {
  userId: bigint;
  selfMute: boolean;
  selfDeaf: boolean;
}

/** Who is in a lobby's voice call, without joining it (the native LobbyHandle's CallInfoHandle). */
export interface LobbyCallInfo {
  /** The lobby id: a lobby's call is its channel. */
  channelId: bigint;
  /** Always 0n: lobby calls belong to no guild. */
  guildId: bigint;
  /** Ordered by user id. */
  participants: LobbyCallParticipant[];
}

/** A lobby the user is a member of, as the SDK's cache knew it when the snapshot was taken. */
export interface LobbySnapshot {
  id: bigint;
  metadata: Record<string, string>;
  /** The member ids in the platform's order. */
  memberIds: bigint[];
  members: LobbyMemberSnapshot[];
  /** The guild channel the lobby is linked to, when it is linked. */
  linkedChannel: LinkedChannelSnapshot | undefined;
  /** Who is in the lobby's voice call (this user or not); undefined while nobody is. */
  call: LobbyCallInfo | undefined;
}

/** Options of createOrJoinLobby(): metadata overwrites what the lobby / this member had (≤ 25 keys, values ≤ 1024). */
export interface CreateOrJoinLobbyOptions {
  lobbyMetadata?: Record<string, string>;
  memberMetadata?: Record<string, string>;
}

/**
 * Reads a LobbyHandle into a snapshot and drops it: one crossing (LobbyHandle_Snapshot, members included), plus one
 * per call participant's voice state while the lobby's call has participants.
 */
export function takeLobbySnapshot(api: NativeApi, handle: NativeHandle<'LobbyHandle'>): LobbySnapshot {
  let d: LobbyHandleData;
  let call: LobbyCallInfo | undefined;
  try {
    d = api.LobbyHandle_Snapshot(handle);
    call = d.getCallInfoHandle && readCallInfo(api, handle);
  } finally {
    api.LobbyHandle_Drop(handle);
  }
  return {
    id: d.id,
    metadata: d.metadata,
    memberIds: d.lobbyMemberIds,
    members: d.lobbyMembers,
    linkedChannel: d.linkedChannel,
    call,
  };
}

/** The lobby's call with each participant's voice state (undefined if everybody left in between). */
function readCallInfo(api: NativeApi, lobby: NativeHandle<'LobbyHandle'>): LobbyCallInfo | undefined {
  const info = api.LobbyHandle_GetCallInfoHandle(lobby);
  if (!info) return undefined;
  try {
    const d = api.CallInfoHandle_Snapshot(info);
    const participants: LobbyCallParticipant[] = [];
    for (const userId of d.getParticipants) {
      const state = api.CallInfoHandle_GetVoiceStateHandle(info, userId);
      if (!state) continue; // left between the two reads
      participants.push({ userId, ...api.VoiceStateHandle_Snapshot(state, true) });
    }
    return { channelId: d.channelId, guildId: d.guildId, participants };
  } finally {
    api.CallInfoHandle_Drop(info);
  }
}

/** Reads a LobbyMemberHandle into a snapshot and drops it: one crossing. */
export function takeLobbyMemberSnapshot(
  api: NativeApi,
  handle: NativeHandle<'LobbyMemberHandle'>,
): LobbyMemberSnapshot {
  return api.LobbyMemberHandle_Snapshot(handle, true);
}

/** Lobby events of the Client. Read the lobby with getLobby(lobbyId) inside the listener. */
export type LobbyEvents = {
  /** A lobby became available: created, joined, added by the server, or recovered after a reconnect (may repeat). */
  lobbyCreated: [lobbyId: bigint];
  /** A lobby is gone for this user: deleted, left, removed, or lost with the connection. */
  lobbyDeleted: [lobbyId: bigint];
  /** A lobby changed (metadata, linked channel). */
  lobbyUpdated: [lobbyId: bigint];
  /** Another user became a member (never for this user). */
  lobbyMemberAdded: [lobbyId: bigint, memberId: bigint];
  /** Another user stopped being a member (not when they merely go offline). */
  lobbyMemberRemoved: [lobbyId: bigint, memberId: bigint];
  /** Another member changed: connected, metadata, flags or additional name. */
  lobbyMemberUpdated: [lobbyId: bigint, memberId: bigint];
};

export const LOBBY_EVENT_SETTERS: EventSetters<LobbyEvents> = {
  lobbyCreated: (api, client, cb) => api.Client_SetLobbyCreatedCallback(client, cb),
  lobbyDeleted: (api, client, cb) => api.Client_SetLobbyDeletedCallback(client, cb),
  lobbyUpdated: (api, client, cb) => api.Client_SetLobbyUpdatedCallback(client, cb),
  lobbyMemberAdded: (api, client, cb) => api.Client_SetLobbyMemberAddedCallback(client, cb),
  lobbyMemberRemoved: (api, client, cb) => api.Client_SetLobbyMemberRemovedCallback(client, cb),
  lobbyMemberUpdated: (api, client, cb) => api.Client_SetLobbyMemberUpdatedCallback(client, cb),
};
