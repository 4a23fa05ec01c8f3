/**
 * Bodies of the command routes (PROTOCOL.md §17.1). The shape is checked here with zod; the rules that depend on
 * the command type (names, descriptions, options only on CHAT_INPUT, handler only on PRIMARY_ENTRY_POINT) are in
 * rules.ts so every route applies them the same way.
 */
import { z } from 'zod';
import { SNOWFLAKE_PATTERN } from '../ids/snowflake.js';

export const CommandType = { CHAT_INPUT: 1, USER: 2, MESSAGE: 3, PRIMARY_ENTRY_POINT: 4 } as const;
export const EntryPointHandler = { APP_HANDLER: 1, DISCORD_LAUNCH_ACTIVITY: 2 } as const;
/** Interaction contexts (published): where a command may be used. */
export const InteractionContext = { GUILD: 0, BOT_DM: 1, PRIVATE_CHANNEL: 2 } as const;
/** Installation contexts (published): how the app was installed. */
export const IntegrationType = { GUILD_INSTALL: 0, USER_INSTALL: 1 } as const;

/** Option types that may autocomplete (published): STRING 3, INTEGER 4, NUMBER 10. */
export const AUTOCOMPLETE_OPTION_TYPES: ReadonlySet<number> = new Set([3, 4, 10]);

/** Option types (published): 1 SUB_COMMAND … 11 ATTACHMENT. */
const OPTION_TYPES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] as const;

const localizations = z.record(z.string().max(16), z.string().max(100)).nullish();

const choiceSchema = z.object({
  name: z.string().min(1).max(100),
  name_localizations: localizations,
  value: z.union([z.string().max(100), z.number()]),
});

export interface CommandOptionInput {
  type: number;
  name: string;
  description: string;
  name_localizations?: Record<string, string> | null | undefined;
  description_localizations?: Record<string, string> | null | undefined;
  required?: boolean | undefined;
  choices?: Array<z.output<typeof choiceSchema>> | undefined;
  options?: CommandOptionInput[] | undefined;
  channel_types?: number[] | undefined;
  min_value?: number | undefined;
  max_value?: number | undefined;
  min_length?: number | undefined;
  max_length?: number | undefined;
  autocomplete?: boolean | undefined;
}

export const optionSchema: z.ZodType<CommandOptionInput> = z.lazy(() =>
  z.object({
    type: z.literal(OPTION_TYPES),
    name: z.string().min(1).max(32),
    description: z.string().min(1).max(100),
    name_localizations: localizations,
    description_localizations: localizations,
    required: z.boolean().optional(),
    choices: z.array(choiceSchema).max(25).optional(),
    options: z.array(optionSchema).max(25).optional(),
    channel_types: z.array(z.number().int().min(0).max(16)).max(16).optional(),
    min_value: z.number().optional(),
    max_value: z.number().optional(),
    min_length: z.number().int().min(0).max(6000).optional(),
    max_length: z.number().int().min(1).max(6000).optional(),
    autocomplete: z.boolean().optional(),
  }),
);

const uniqueInts = (values: readonly number[]) =>
  z
    .array(z.literal(values as number[]))
    .min(1)
    .max(values.length)
    .refine((list) => new Set(list).size === list.length, {
      message: 'Values must be unique.',
      params: { code: 'BASE_TYPE_INVALID' },
    });

export const commandSchema = z.object({
  name: z.string().min(1).max(32),
  name_localizations: localizations,
  description: z.string().max(100).optional(),
  description_localizations: localizations,
  type: z.literal([1, 2, 3, 4]).default(1),
  options: z.array(optionSchema).max(25).optional(),
  // A decimal string of permission bits (published), or null for everyone.
  default_member_permissions: z.union([z.string().regex(SNOWFLAKE_PATTERN), z.number().int().min(0)]).nullish(),
  /** Deprecated (published): false means "not in DMs" when `contexts` is absent. */
  dm_permission: z.boolean().nullish(),
  default_permission: z.boolean().nullish(),
  integration_types: uniqueInts([0, 1]).nullish(),
  contexts: uniqueInts([0, 1, 2]).nullish(),
  nsfw: z.boolean().optional(),
  handler: z.literal([1, 2]).optional(),
  // Sent back by clients that PUT the list they fetched; ignored.
  id: z.string().max(20).optional(),
});
export type CommandInput = z.output<typeof commandSchema>;

/** PATCH: every field optional; the type never changes. */
export const editCommandSchema = commandSchema.omit({ type: true, id: true }).partial();
export type CommandPatch = z.output<typeof editCommandSchema>;

/** Bulk overwrite: the published cap of the list. */
export const bulkCommandsSchema = z.array(commandSchema).max(200);
