// The local platform client, seen from the game (native/SEMANTICS.md "Local RPC"): the SDK finds it on its socket
// by itself, keeps the connection, reconnects when it restarts and re-subscribes. This file holds the area's
// events (registered only while they have listeners) and the option it needs; the Client forwards its methods
// (openMessageInPlatform, setShowingChat, openConnectedGamesSettingsInPlatform, registerLaunchCommand,
// registerLaunchSteamApplication) straight to the native calls — there is no protocol logic in TypeScript.
import type { NativeApi, NativeHandle } from '../contract/native-api.js';
import type { EventSetters } from './native-events.js';

export type LocalClientEvents = {
  /** The user joined this game from the local platform client (ACTIVITY_JOIN): join with the secret. */
  activityJoin: [joinSecret: string];
  /** Like 'activityJoin', with the application the join was for (this client's application id). */
  activityJoinWithApplication: [applicationId: bigint, joinSecret: string];
};

export const LOCAL_CLIENT_EVENT_SETTERS: EventSetters<LocalClientEvents> = {
  activityJoin: (api, client, cb) => api.Client_SetActivityJoinCallback(client, cb),
  activityJoinWithApplication: (api, client, cb) => api.Client_SetActivityJoinWithApplicationCallback(client, cb),
};

export interface LocalClientOptions {
  /**
   * The local platform client's socket. Default: the SVCPP_IPC_PATH environment variable (set for games the local
   * client launches), else `discord-ipc-0` … `discord-ipc-9` under XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP or /tmp.
   */
  ipcPath?: string;
}

/** Applies LocalClientOptions to the native create options. */
export function applyLocalClientOptions(
  api: NativeApi,
  createOptions: NativeHandle<'ClientCreateOptions'>,
  options: LocalClientOptions,
): void {
  if (options.ipcPath !== undefined) api.ClientCreateOptions_SetIpcPath(createOptions, options.ipcPath);
}
