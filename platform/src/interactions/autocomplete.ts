/**
 * Autocomplete (PROTOCOL.md §17.10): while a user types into an option declared with `autocomplete: true`, the
 * application gets an APPLICATION_COMMAND_AUTOCOMPLETE interaction (type 4) whose `data.options` hold what was typed
 * so far, exactly one of them `focused: true`; it answers with APPLICATION_COMMAND_AUTOCOMPLETE_RESULT (callback 8,
 * `data.choices`, at most 25, each value of the focused option's type). This file checks both sides.
 */
import { z } from 'zod';
import { fieldError } from '../http/errors.js';
import { parseBody } from '../http/validation.js';

export interface DefinedOption {
  type: number;
  name: string;
  required?: boolean;
  autocomplete?: boolean;
  options?: DefinedOption[];
  choices?: Array<{ value: unknown }>;
}

/**
 * The options of an autocomplete interaction: known names and types, one subcommand at a time, and exactly one
 * focused option, which must be declared with `autocomplete`. Its value is the text typed so far (a string whatever
 * the option type, published); the other values are checked by the command check. Returns the focused option's type.
 */
export function focusedOptionType(path: Array<string | number>, defined: DefinedOption[], sent: unknown[]): number {
  const focused: Array<{ definition: DefinedOption; at: Array<string | number>; value: unknown }> = [];
  const visit = (at: Array<string | number>, definitions: DefinedOption[], list: unknown[]) => {
    const byName = new Map(definitions.map((option) => [option.name, option]));
    for (const [index, raw] of list.entries()) {
      const option = (raw ?? {}) as {
        name?: unknown;
        type?: unknown;
        value?: unknown;
        options?: unknown;
        focused?: unknown;
      };
      const definition = typeof option.name === 'string' ? byName.get(option.name) : undefined;
      if (!definition || definition.type !== option.type)
        throw fieldError(
          [...at, index],
          'INTERACTION_OPTION_UNKNOWN',
          'The command has no option of this name and type.',
        );
      if (definition.type === 1 || definition.type === 2) {
        if (list.length !== 1)
          throw fieldError([...at, index], 'INTERACTION_OPTION_INVALID', 'One subcommand at a time.');
        visit([...at, index, 'options'], definition.options ?? [], Array.isArray(option.options) ? option.options : []);
        continue;
      }
      if (option.focused === true) focused.push({ definition, at: [...at, index], value: option.value });
    }
  };
  visit(path, defined, sent);
  if (focused.length !== 1)
    throw fieldError(path, 'INTERACTION_AUTOCOMPLETE_FOCUS_INVALID', 'Exactly one option must be focused.');
  const [{ definition, at, value }] = focused as [(typeof focused)[number]];
  if (definition.autocomplete !== true)
    throw fieldError(at, 'INTERACTION_OPTION_NOT_AUTOCOMPLETE', 'This option does not autocomplete.');
  if (typeof value !== 'string' || value.length > 6000)
    throw fieldError([...at, 'value'], 'INTERACTION_OPTION_INVALID', 'The focused value is the text typed so far.');
  return definition.type;
}

const localizations = z.record(z.string().max(16), z.string().min(1).max(100)).nullish();
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** The choice value each option type takes (published): string ≤ 100, a safe integer, or a finite number. */
const VALUE_BY_TYPE: Record<number, z.ZodType> = {
  3: z.string().max(100),
  4: z.number().int().min(-MAX_SAFE).max(MAX_SAFE),
  10: z.number().min(-MAX_SAFE).max(MAX_SAFE),
};

/**
 * Checks callback 8's `data` against the focused option's type: `{choices: [{name 1–100, name_localizations?, value}] ≤
 * 25}`.
 */
export function parseAutocompleteResult(optionType: number, rawData: unknown): { choices: unknown[] } {
  const schema = z.object({
    data: z.object({
      choices: z
        .array(
          z.object({
            name: z.string().min(1).max(100),
            name_localizations: localizations,
            value: VALUE_BY_TYPE[optionType] ?? VALUE_BY_TYPE[3]!,
          }),
        )
        .max(25),
    }),
  });
  return parseBody(schema, { data: rawData }).data;
}
