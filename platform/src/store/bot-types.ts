/** Records of the bot API (PROTOCOL.md §14): roles, member profiles, channel settings, messages, pins, invites. */

export interface RoleColors {
  primary_color: number;
  secondary_color: number | null;
  tertiary_color: number | null;
}

export interface RoleRecord {
  id: string;
  guildId: string;
  name: string;
  /** Decimal string of the permission bits (they pass 2^53). */
  permissions: string;
  position: number;
  colors: RoleColors;
  hoist: boolean;
  mentionable: boolean;
  icon: string | null;
  unicodeEmoji: string | null;
  flags: number;
}

export interface MemberRecord {
  guildId: string;
  userId: string;
  nick: string | null;
  avatar: string | null;
  banner: string | null;
  bio: string | null;
  roles: string[];
  joinedAt: number;
  flags: number;
  communicationDisabledUntil: number | null;
}

export interface PermissionOverwrite {
  id: string;
  /** 0 role, 1 member. */
  type: 0 | 1;
  allow: string;
  deny: string;
}

export interface ChannelSettingsRecord {
  channelId: string;
  topic: string | null;
  nsfw: boolean;
  rateLimitPerUser: number;
  /** Voice channels only (bits per second; 64,000 by default). */
  bitrate: number;
  /** Voice channels only (0 = no limit). */
  userLimit: number;
  overwrites: PermissionOverwrite[];
}

/** A guild channel message. `body` holds the published fields we keep as given (embeds, components, …). */
export interface MessageRecord {
  id: string;
  channelId: string;
  guildId: string;
  authorId: string;
  type: number;
  content: string;
  flags: number;
  nonce: string | null;
  body: Record<string, unknown>;
  pinnedAt: number | null;
  createdAt: number;
  editedAt: number | null;
}

export interface ApplicationEmojiRecord {
  id: string;
  applicationId: string;
  name: string;
  /** Hash of the uploaded image (there is no CDN). */
  image: string;
  userId: string;
  animated: boolean;
}

/** An AutoMod rule: `rule` is the published rule object as the API answers it (PROTOCOL.md §14.11). */
export interface AutoModRuleRecord {
  id: string;
  guildId: string;
  rule: Record<string, unknown>;
}

export interface MessageSearchQuery {
  channelIds: string[];
  authorIds?: string[];
  /** Case-insensitive substring of the content. */
  content?: string;
  pinned?: boolean;
  minId?: string;
  maxId?: string;
  ascending: boolean;
  limit: number;
  offset: number;
}

/** The bytes of an uploaded attachment, served at its `url`. */
export interface AttachmentFileRecord {
  id: string;
  channelId: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface InviteRecord {
  code: string;
  guildId: string;
  channelId: string;
  inviterId: string;
  maxAge: number;
  maxUses: number;
  uses: number;
  temporary: boolean;
  roleIds: string[];
  createdAt: number;
  /** Target-users job (PROTOCOL.md §14 "Invites"). */
  job: {
    status: number;
    total: number;
    processed: number;
    createdAt: number;
    completedAt: number | null;
    error: string | null;
  } | null;
}

export interface AuditEntryRecord {
  id: string;
  guildId: string;
  userId: string;
  targetId: string | null;
  actionType: number;
  changes: unknown[] | null;
  options: Record<string, string> | null;
  reason: string | null;
}

export interface BotGuildRepository {
  listRoles(guildId: string): RoleRecord[];
  getRole(guildId: string, roleId: string): RoleRecord | undefined;
  upsertRole(role: RoleRecord): void;
  deleteRole(guildId: string, roleId: string): void;

  /** Every member of the guild (the plain membership with its profile; defaults for rows without one). */
  listMembers(guildId: string, after: string | null, limit: number): MemberRecord[];
  getMember(guildId: string, userId: string): MemberRecord | undefined;
  /** Bot users among the members (the audience of guild events). */
  botMemberIds(guildId: string): string[];
  /** Members whose username or nick starts with `prefix` (case-insensitive). */
  searchMembers(guildId: string, prefix: string, limit: number): MemberRecord[];
  /** Adds the membership when missing and writes the profile. */
  upsertMember(member: MemberRecord): void;
  removeMember(guildId: string, userId: string): void;

  channelSettings(channelId: string): ChannelSettingsRecord;
  setChannelSettings(settings: ChannelSettingsRecord): void;
  /** A deleted channel's settings, messages (with attachments and pins), invites and their target users. */
  forgetChannel(channelId: string): void;

  insertMessage(message: MessageRecord): void;
  updateMessage(message: MessageRecord): void;
  getMessage(channelId: string, messageId: string): MessageRecord | undefined;
  deleteMessage(channelId: string, messageId: string): void;
  /** Newest first. */
  listMessages(channelId: string, query: { before?: string; after?: string; limit: number }): MessageRecord[];
  /** The author's latest message with this nonce created at or after `since`. */
  findByNonce(channelId: string, authorId: string, nonce: string, since: number): MessageRecord | undefined;
  /** Pinned messages, newest pin first, pinned before `before` (ms). */
  listPins(channelId: string, before: number | null, limit: number): MessageRecord[];
  countPins(channelId: string): number;

  /** Guild messages matching every given filter, with the total before paging. */
  searchMessages(guildId: string, query: MessageSearchQuery): { messages: MessageRecord[]; total: number };

  listAutoModRules(guildId: string): AutoModRuleRecord[];
  upsertAutoModRule(rule: AutoModRuleRecord): void;
  deleteAutoModRule(guildId: string, id: string): void;

  listEmojis(applicationId: string): ApplicationEmojiRecord[];
  countEmojis(applicationId: string): number;
  getEmoji(applicationId: string, id: string): ApplicationEmojiRecord | undefined;
  findEmojiByName(applicationId: string, name: string): ApplicationEmojiRecord | undefined;
  upsertEmoji(emoji: ApplicationEmojiRecord): void;
  deleteEmoji(applicationId: string, id: string): void;

  insertAttachment(file: AttachmentFileRecord): void;
  attachment(channelId: string, id: string): AttachmentFileRecord | undefined;

  insertInvite(invite: InviteRecord): void;
  updateInvite(invite: InviteRecord): void;
  getInvite(code: string): InviteRecord | undefined;
  listChannelInvites(channelId: string): InviteRecord[];
  /** Deletes the invite and its target users. */
  deleteInvite(code: string): void;
  setTargetUsers(code: string, userIds: string[]): void;
  targetUsers(code: string): string[];

  insertAudit(entry: AuditEntryRecord): void;
  listAudit(
    guildId: string,
    query: { userId?: string; actionType?: number; before?: string; after?: string; limit: number },
  ): AuditEntryRecord[];
}
