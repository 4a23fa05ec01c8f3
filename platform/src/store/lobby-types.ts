/**
 * Storage records of lobbies (PROTOCOL.md §10.5): lobbies, their members and messages, the copies of lobby messages
 * in linked guild channels, and single-use channel invites. Maps are flat string → string.
 */

export type StringMap = Record<string, string>;

export interface LobbyRecord {
  id: string;
  applicationId: string;
  /** Join secret (unique per application while set); null for bot-created lobbies and once the secret expired. */
  secret: string | null;
  /** When the secret stops being joinable (ms); the lobby itself survives. */
  secretExpiresAt: number | null;
  metadata: StringMap;
  flags: number;
  idleTimeoutSeconds: number;
  overrideWebhookUrl: string | null;
  linkedChannelId: string | null;
  /** Since when no member has held a gateway session for the application (ms); null while someone is connected. */
  idleSince: number | null;
  createdAt: number;
}

export interface LobbyMemberRecord {
  lobbyId: string;
  userId: string;
  metadata: StringMap;
  /** Bit 0: CanLinkLobby. */
  flags: number;
  additionalName: string | null;
  /** Joined through `PUT /lobbies` with the secret: only such members may leave by themselves. */
  joinedBySecret: boolean;
  joinedAt: number;
}

export interface LobbyMessageRecord {
  id: string;
  lobbyId: string;
  applicationId: string;
  authorId: string;
  content: string;
  metadata: StringMap;
  moderationMetadata: StringMap;
  flags: number;
  /** The author's `additional_name` when the message was sent. */
  additionalName: string | null;
  /** Whether the author was a lobby member when sending (bots post without being members). */
  authorWasMember: boolean;
  createdAt: number;
}

/** A lobby message as copied into the linked guild channel (no metadata). */
export interface ChannelMessageRecord {
  id: string;
  channelId: string;
  guildId: string;
  authorId: string;
  applicationId: string;
  lobbyId: string;
  content: string;
  createdAt: number;
}

export interface LobbyInviteRecord {
  code: string;
  lobbyId: string;
  applicationId: string;
  guildId: string;
  channelId: string;
  /** The user the invite was made for; nobody else can use it. */
  userId: string;
  expiresAt: number;
  usedAt: number | null;
}

export interface ChannelLink {
  channelId: string;
  applicationId: string;
  lobbyId: string;
}

export interface LobbyRepository {
  insert(lobby: LobbyRecord): void;
  update(lobby: LobbyRecord): void;
  get(id: string): LobbyRecord | undefined;
  findBySecret(applicationId: string, secret: string): LobbyRecord | undefined;
  /** Deletes the lobby with its members, messages and invites (channel copies stay in the channel). */
  delete(id: string): void;
  /** The user's lobbies of the application, oldest first. */
  listForUser(userId: string, applicationId: string): LobbyRecord[];
  /** The application's lobbies, newest first, at most `limit` (the developer portal's listing). */
  listForApplication(applicationId: string, limit: number): LobbyRecord[];
  countForUser(userId: string, applicationId: string): number;
  /** Unlinked lobbies whose idle time has run out at `now`. */
  listIdleExpired(now: number): LobbyRecord[];
  /** Marks every lobby without a recorded idle start as idle since `now` (start-up: nobody is connected). */
  markAllIdle(now: number): void;
  findByLinkedChannel(channelId: string): LobbyRecord | undefined;
  linksForGuild(guildId: string): ChannelLink[];

  members(lobbyId: string): LobbyMemberRecord[];
  member(lobbyId: string, userId: string): LobbyMemberRecord | undefined;
  upsertMember(member: LobbyMemberRecord): void;
  deleteMember(lobbyId: string, userId: string): void;
  countMembers(lobbyId: string): number;
  /** Every membership of the user (all applications). */
  membershipsOf(userId: string): LobbyMemberRecord[];

  insertMessage(message: LobbyMessageRecord): void;
  message(lobbyId: string, id: string): LobbyMessageRecord | undefined;
  updateMessage(message: LobbyMessageRecord): void;
  deleteMessage(id: string): void;
  /** Newest first, created at or after `since`. */
  /**
   * Newest first, created at or after `since` (ms). With `after` (an exclusive message id bound), the `limit`
   * messages that follow it, still newest first: a client pages forward with the newest id of each page.
   */
  listMessages(lobbyId: string, since: number, limit: number, after?: string): LobbyMessageRecord[];
  /** Re-points authorship (account merge/unmerge); `lobbyIds` limits it to those lobbies' messages. */
  moveMessageAuthor(fromUserId: string, toUserId: string, lobbyIds?: string[]): void;
  pruneMessages(before: number): void;

  insertChannelMessage(message: ChannelMessageRecord): void;
  deleteChannelMessage(id: string): void;
  /** Newest first; `before` is an exclusive message id bound. */
  listChannelMessages(channelId: string, limit: number, before?: string): ChannelMessageRecord[];

  insertInvite(invite: LobbyInviteRecord): void;
  invite(code: string): LobbyInviteRecord | undefined;
  markInviteUsed(code: string, at: number): void;
  pruneInvites(now: number): void;
}
