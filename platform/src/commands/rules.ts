/**
 * The rules a command must meet beyond its shape (PROTOCOL.md §17.1): name forms per type, descriptions only on
 * CHAT_INPUT, options only on CHAT_INPUT (required before optional, subcommand nesting), handler only on the entry
 * point, and the per-type limits.
 */
import { fieldError } from '../http/errors.js';
import { AUTOCOMPLETE_OPTION_TYPES, CommandType, type CommandInput, type CommandOptionInput } from './schemas.js';

/** Published per-type limits, per scope (global, or one guild). */
export const COMMAND_LIMITS: Record<number, number> = {
  [CommandType.CHAT_INPUT]: 100,
  [CommandType.USER]: 15,
  [CommandType.MESSAGE]: 15,
  [CommandType.PRIMARY_ENTRY_POINT]: 1,
};

/**
 * CHAT_INPUT and option names (published regex): letters, digits, `-`, `_`, `'`, Devanagari and Thai, and no
 * upper-case letter that has a lower-case form.
 */
const CHAT_NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

function checkChatName(path: Array<string | number>, name: string): void {
  if (!CHAT_NAME.test(name) || name !== name.toLowerCase()) {
    throw fieldError(path, 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
  }
}

function checkOptions(path: Array<string | number>, options: CommandOptionInput[], depth: number): void {
  const names = new Set<string>();
  let optionalSeen = false;
  for (const [index, option] of options.entries()) {
    const at = [...path, index];
    checkChatName([...at, 'name'], option.name);
    if (names.has(option.name))
      throw fieldError(
        [...at, 'name'],
        'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS',
        'Option names must be unique.',
      );
    names.add(option.name);
    const isSub = option.type === 1 || option.type === 2;
    if (isSub) {
      // SUB_COMMAND_GROUP holds SUB_COMMANDs; SUB_COMMAND holds plain options; two levels at most.
      if (depth >= 2 || (depth === 1 && option.type === 2))
        throw fieldError(
          [...at, 'type'],
          'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID',
          'Subcommands cannot be nested this deep.',
        );
      const children = option.options ?? [];
      if (option.type === 2 && children.some((child) => child.type !== 1))
        throw fieldError(
          [...at, 'options'],
          'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID',
          'A subcommand group holds only subcommands.',
        );
      checkOptions([...at, 'options'], children, depth + 1);
      continue;
    }
    if (option.options !== undefined)
      throw fieldError(
        [...at, 'options'],
        'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID',
        'Only subcommands and groups have options.',
      );
    if (option.required) {
      if (optionalSeen)
        throw fieldError(
          [...at, 'required'],
          'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID',
          'Required options must be placed before non-required options',
        );
    } else {
      optionalSeen = true;
    }
    if (option.choices !== undefined && ![3, 4, 10].includes(option.type))
      throw fieldError(
        [...at, 'choices'],
        'APPLICATION_COMMAND_OPTIONS_CHOICES_INVALID',
        'Only string, integer and number options have choices.',
      );
    // Autocomplete (published): only string, integer and number options, and never together with choices.
    if (option.autocomplete && !AUTOCOMPLETE_OPTION_TYPES.has(option.type))
      throw fieldError(
        [...at, 'autocomplete'],
        'APPLICATION_COMMAND_OPTIONS_AUTOCOMPLETE_INVALID',
        'Only string, integer and number options autocomplete.',
      );
    if (option.autocomplete && option.choices && option.choices.length > 0)
      throw fieldError(
        [...at, 'autocomplete'],
        'APPLICATION_COMMAND_OPTIONS_AUTOCOMPLETE_INVALID',
        'Autocomplete cannot be used with choices.',
      );
  }
}

/** Checks everything zod cannot see; throws a 50035 field error at `path`. */
export function checkCommand(
  path: Array<string | number>,
  command: Pick<CommandInput, 'type' | 'name' | 'description' | 'options' | 'handler'>,
): void {
  const { type } = command;
  if (type === CommandType.CHAT_INPUT) {
    checkChatName([...path, 'name'], command.name);
    if (!command.description)
      throw fieldError([...path, 'description'], 'BASE_TYPE_REQUIRED', 'This field is required');
    if (command.options) checkOptions([...path, 'options'], command.options, 0);
  } else {
    // USER, MESSAGE and PRIMARY_ENTRY_POINT: no description, no options (published).
    if (command.description)
      throw fieldError(
        [...path, 'description'],
        'APPLICATION_COMMAND_DESCRIPTION_INVALID',
        'Only chat input commands have a description.',
      );
    if (command.options && command.options.length > 0)
      throw fieldError(
        [...path, 'options'],
        'APPLICATION_COMMAND_OPTIONS_INVALID',
        'Only chat input commands have options.',
      );
  }
  if (type === CommandType.PRIMARY_ENTRY_POINT) {
    if (command.handler === undefined)
      throw fieldError([...path, 'handler'], 'BASE_TYPE_REQUIRED', 'This field is required');
  } else if (command.handler !== undefined) {
    throw fieldError(
      [...path, 'handler'],
      'APPLICATION_COMMAND_HANDLER_INVALID',
      'Only entry point commands have a handler.',
    );
  }
}
