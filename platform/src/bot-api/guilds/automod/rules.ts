/**
 * AutoMod rule bodies (PROTOCOL.md §14.11): the published limits of KEYWORD rules and their BLOCK_MESSAGE action,
 * and what this platform does not model, refused by name rather than accepted and ignored.
 */
import { z } from 'zod';
import { snowflakeSchema } from '../../../http/validation.js';

export const TriggerType = { KEYWORD: 1, SPAM: 3, KEYWORD_PRESET: 4, MENTION_SPAM: 5, MEMBER_PROFILE: 6 } as const;
export const ActionType = { BLOCK_MESSAGE: 1, SEND_ALERT_MESSAGE: 2, TIMEOUT: 3, BLOCK_MEMBER_INTERACTION: 4 } as const;
export const EventType = { MESSAGE_SEND: 1 } as const;

/** Published: at most 6 KEYWORD rules per guild. */
export const MAX_KEYWORD_RULES = 6;

const keyword = z.string().min(1).max(60);
const triggerMetadata = z
  .object({
    keyword_filter: z.array(keyword).max(1000).nullish(),
    // Patterns are not evaluated here (a JavaScript RegExp is not the published linear-time engine): refused.
    regex_patterns: z.array(z.string()).max(0, 'regex patterns are not evaluated by this platform').nullish(),
    allow_list: z.array(keyword).max(100).nullish(),
  })
  .strict();

const blockMessage = z
  .object({
    type: z.literal(ActionType.BLOCK_MESSAGE, {
      error: 'only BLOCK_MESSAGE (1) actions are modelled by this platform',
    }),
    metadata: z
      .object({ custom_message: z.string().max(150).nullish() })
      .strict()
      .nullish(),
  })
  .strict();

const ruleFields = {
  name: z.string().min(1).max(100),
  event_type: z.literal(EventType.MESSAGE_SEND, { error: 'only MESSAGE_SEND (1) is modelled for KEYWORD rules' }),
  trigger_type: z.literal(TriggerType.KEYWORD, { error: 'only KEYWORD (1) rules are modelled by this platform' }),
  trigger_metadata: triggerMetadata.nullish(),
  actions: z.array(blockMessage).min(1).max(5),
  enabled: z.boolean().nullish(),
  exempt_roles: z.array(snowflakeSchema).max(20).nullish(),
  exempt_channels: z.array(snowflakeSchema).max(50).nullish(),
};

export const createRuleSchema = z.object(ruleFields).strict();
export const modifyRuleSchema = z
  .object({
    ...ruleFields,
    name: ruleFields.name.optional(),
    event_type: ruleFields.event_type.optional(),
    actions: ruleFields.actions.optional(),
    // The trigger type cannot change (published: it is set at creation).
    trigger_type: ruleFields.trigger_type.optional(),
  })
  .strict();

export type CreateRuleBody = z.infer<typeof createRuleSchema>;
export type ModifyRuleBody = z.infer<typeof modifyRuleSchema>;

/** The published rule object as stored and answered. */
export interface RuleJson {
  id: string;
  guild_id: string;
  name: string;
  creator_id: string;
  event_type: number;
  trigger_type: number;
  trigger_metadata: { keyword_filter: string[]; regex_patterns: string[]; allow_list: string[] };
  actions: Array<{ type: number; metadata: { custom_message?: string } }>;
  enabled: boolean;
  exempt_roles: string[];
  exempt_channels: string[];
}

export function normaliseActions(actions: CreateRuleBody['actions']): RuleJson['actions'] {
  return actions.map((action) => ({
    type: action.type,
    metadata: action.metadata?.custom_message ? { custom_message: action.metadata.custom_message } : {},
  }));
}

export function normaliseMetadata(metadata: CreateRuleBody['trigger_metadata']): RuleJson['trigger_metadata'] {
  return { keyword_filter: metadata?.keyword_filter ?? [], regex_patterns: [], allow_list: metadata?.allow_list ?? [] };
}
