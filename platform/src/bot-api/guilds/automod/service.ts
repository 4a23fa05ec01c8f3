/**
 * AutoMod (PROTOCOL.md §14.11): KEYWORD rules per guild, their AUTO_MODERATION_RULE_* events (intent
 * AUTO_MODERATION_CONFIGURATION) and audit entries 140–142, and enforcement on messages sent and edited: a blocked
 * message is refused with `400 200000`, nothing is stored, and AUTO_MODERATION_ACTION_EXECUTION (intent
 * AUTO_MODERATION_EXECUTION) plus audit 143 record it.
 */
import { fieldError } from '../../../http/errors.js';
import type { PlatformKernel } from '../../../kernel.js';
import type { ChannelRecord, GuildRecord } from '../../../store/types.js';
import { AuditAction } from '../audit.js';
import { has, Permission } from '../permissions.js';
import { Intent, type GuildService } from '../service.js';
import { findKeyword } from './keywords.js';
import {
  MAX_KEYWORD_RULES,
  normaliseActions,
  normaliseMetadata,
  type CreateRuleBody,
  type ModifyRuleBody,
  type RuleJson,
} from './rules.js';
import { publishedError } from '../../../http/published-errors.js';

export const blockedByAutoMod = () => publishedError('BLOCKED_BY_AUTOMOD');
const unknownRule = () => publishedError('UNKNOWN_AUTOMOD_RULE');

export class AutoModService {
  constructor(
    private readonly ctx: PlatformKernel,
    private readonly guilds: GuildService,
  ) {}

  list(guild: GuildRecord): RuleJson[] {
    return this.ctx.store.botGuilds.listAutoModRules(guild.id).map((record) => record.rule as unknown as RuleJson);
  }

  get(guild: GuildRecord, ruleId: string): RuleJson {
    const rule = this.list(guild).find((r) => r.id === ruleId);
    if (!rule) throw unknownRule();
    return rule;
  }

  create(guild: GuildRecord, creatorId: string, body: CreateRuleBody, reason: string | null): RuleJson {
    if (this.list(guild).length >= MAX_KEYWORD_RULES) {
      throw fieldError(
        ['trigger_type'],
        'AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED',
        `Maximum number of rules of this type reached (${MAX_KEYWORD_RULES}).`,
      );
    }
    this.checkExemptions(guild, body);
    const rule: RuleJson = {
      id: this.ctx.ids.next(),
      guild_id: guild.id,
      name: body.name,
      creator_id: creatorId,
      event_type: body.event_type,
      trigger_type: body.trigger_type,
      trigger_metadata: normaliseMetadata(body.trigger_metadata),
      actions: normaliseActions(body.actions),
      enabled: body.enabled ?? false,
      exempt_roles: body.exempt_roles ?? [],
      exempt_channels: body.exempt_channels ?? [],
    };
    this.save(rule, 'AUTO_MODERATION_RULE_CREATE');
    this.guilds.audit({
      guildId: guild.id,
      userId: creatorId,
      targetId: rule.id,
      actionType: AuditAction.AUTO_MODERATION_RULE_CREATE,
      changes: null,
      options: null,
      reason,
    });
    return rule;
  }

  modify(guild: GuildRecord, userId: string, ruleId: string, body: ModifyRuleBody, reason: string | null): RuleJson {
    const before = this.get(guild, ruleId);
    this.checkExemptions(guild, body);
    const after: RuleJson = {
      ...before,
      ...(body.name !== undefined && { name: body.name }),
      ...(body.event_type !== undefined && { event_type: body.event_type }),
      ...(body.trigger_metadata !== undefined && { trigger_metadata: normaliseMetadata(body.trigger_metadata) }),
      ...(body.actions !== undefined && { actions: normaliseActions(body.actions) }),
      ...(body.enabled !== undefined && body.enabled !== null && { enabled: body.enabled }),
      ...(body.exempt_roles !== undefined && { exempt_roles: body.exempt_roles ?? [] }),
      ...(body.exempt_channels !== undefined && { exempt_channels: body.exempt_channels ?? [] }),
    };
    const changes = (Object.keys(after) as Array<keyof RuleJson>)
      .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
      .map((key) => ({ key, old_value: before[key], new_value: after[key] }));
    this.save(after, 'AUTO_MODERATION_RULE_UPDATE');
    this.guilds.audit({
      guildId: guild.id,
      userId,
      targetId: after.id,
      actionType: AuditAction.AUTO_MODERATION_RULE_UPDATE,
      changes,
      options: null,
      reason,
    });
    return after;
  }

  delete(guild: GuildRecord, userId: string, ruleId: string, reason: string | null): void {
    const rule = this.get(guild, ruleId);
    this.ctx.store.botGuilds.deleteAutoModRule(guild.id, rule.id);
    this.guilds.publish(guild.id, 'AUTO_MODERATION_RULE_DELETE', rule, Intent.AUTO_MODERATION_CONFIGURATION);
    this.guilds.audit({
      guildId: guild.id,
      userId,
      targetId: rule.id,
      actionType: AuditAction.AUTO_MODERATION_RULE_DELETE,
      changes: null,
      options: null,
      reason,
    });
  }

  /**
   * Refuses `content` when an enabled rule's keyword matches it. Exempt: the owner, ADMINISTRATOR or MANAGE_GUILD
   * holders (published), members with an exempt role, and exempt channels.
   */
  check(guild: GuildRecord, channel: ChannelRecord, authorId: string, content: string): void {
    if (content === '') return;
    const rules = this.list(guild).filter(
      (rule) =>
        rule.enabled &&
        !rule.exempt_channels.includes(channel.id) &&
        !(channel.parentId && rule.exempt_channels.includes(channel.parentId)),
    );
    if (rules.length === 0) return;
    const member = this.guilds.member(guild.id, authorId);
    if (!member) return;
    if (has(this.guilds.guildPermissions(guild, member), Permission.MANAGE_GUILD)) return;
    for (const rule of rules) {
      if (member.roles.some((role) => rule.exempt_roles.includes(role))) continue;
      const match = findKeyword(content, rule.trigger_metadata.keyword_filter, rule.trigger_metadata.allow_list);
      if (!match) continue;
      for (const action of rule.actions) {
        this.guilds.publish(
          guild.id,
          'AUTO_MODERATION_ACTION_EXECUTION',
          {
            guild_id: guild.id,
            action,
            rule_id: rule.id,
            rule_trigger_type: rule.trigger_type,
            user_id: authorId,
            channel_id: channel.id,
            content,
            matched_keyword: match.keyword,
            matched_content: match.content,
          },
          Intent.AUTO_MODERATION_EXECUTION,
        );
      }
      this.guilds.audit({
        guildId: guild.id,
        userId: authorId,
        targetId: authorId,
        actionType: AuditAction.AUTO_MODERATION_BLOCK_MESSAGE,
        changes: null,
        options: {
          channel_id: channel.id,
          auto_moderation_rule_name: rule.name,
          auto_moderation_rule_trigger_type: String(rule.trigger_type),
        },
        reason: null,
      });
      throw blockedByAutoMod();
    }
  }

  private save(rule: RuleJson, event: string): void {
    this.ctx.store.botGuilds.upsertAutoModRule({
      id: rule.id,
      guildId: rule.guild_id,
      rule: rule as unknown as Record<string, unknown>,
    });
    this.guilds.publish(rule.guild_id, event, rule, Intent.AUTO_MODERATION_CONFIGURATION);
  }

  /** Exempt roles must be roles of the guild, exempt channels its channels. */
  private checkExemptions(
    guild: GuildRecord,
    body: { exempt_roles?: string[] | null; exempt_channels?: string[] | null },
  ): void {
    const roleIds = new Set(this.guilds.roles(guild).map((role) => role.id));
    (body.exempt_roles ?? []).forEach((id, index) => {
      if (!roleIds.has(id)) throw fieldError(['exempt_roles', index], 'UNKNOWN_ROLE', 'Unknown role.');
    });
    (body.exempt_channels ?? []).forEach((id, index) => {
      if (!this.guilds.channelInGuild(guild, id))
        throw fieldError(['exempt_channels', index], 'UNKNOWN_CHANNEL', 'Unknown channel.');
    });
  }
}
