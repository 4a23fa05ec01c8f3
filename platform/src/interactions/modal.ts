/**
 * The modal an application opens (callback type 9, PROTOCOL.md §17.4). Returns the modal with the defaults filled
 * in (`required` true, numbered `id`s) or throws a 50035 field error under `data`:
 * - top level: Label (18), Text Display (10), or the deprecated Action Row (1) holding one Text Input;
 * - Label: `label` 1–45, `description` ≤ 100, exactly one child in `component`; a Text Input there has no `label`;
 * - String Select only inside a Label, `required` default true, `disabled` refused;
 * - Radio Group 2–10 options; Checkbox Group 1–10 options with `min_values` 0–10 ≤ `max_values` 1–10;
 * - File Upload `min_values` 0–10, `max_values` 1–10, `min_values` ≥ 1 when required, `file_types` ≤ 10.
 */
import { fieldError } from '../http/errors.js';

export const ComponentType = {
  ACTION_ROW: 1,
  BUTTON: 2,
  STRING_SELECT: 3,
  TEXT_INPUT: 4,
  USER_SELECT: 5,
  ROLE_SELECT: 6,
  MENTIONABLE_SELECT: 7,
  CHANNEL_SELECT: 8,
  TEXT_DISPLAY: 10,
  LABEL: 18,
  FILE_UPLOAD: 19,
  RADIO_GROUP: 21,
  CHECKBOX_GROUP: 22,
  CHECKBOX: 23,
} as const;

/** Children a Label may hold. */
const LABEL_CHILDREN = new Set<number>([4, 3, 5, 6, 7, 8, 19, 21, 22, 23]);
export const MAX_MODAL_TOP_LEVEL = 5;
/** `file_types` entries: a media family or a file extension. */
const FILE_TYPE = /^(image|video|audio|\.[a-z0-9]{1,16})$/;

type Node = Record<string, unknown>;
type Path = Array<string | number>;

const isObject = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function text(path: Path, node: Node, field: string, min: number, max: number, required: boolean): void {
  const value = node[field];
  if (value === undefined || value === null) {
    if (required) throw fieldError([...path, field], 'BASE_TYPE_REQUIRED', 'This field is required');
    return;
  }
  if (typeof value !== 'string')
    throw fieldError([...path, field], 'STRING_TYPE_CONVERT', 'Could not interpret the value as string.');
  if (value.length < min || value.length > max)
    throw fieldError([...path, field], 'BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length.`);
}

function int(path: Path, node: Node, field: string, min: number, max: number): number | undefined {
  const value = node[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw fieldError([...path, field], 'NUMBER_TYPE_OUT_OF_RANGE', `Must be an integer between ${min} and ${max}.`);
  }
  return value;
}

function options(path: Path, node: Node, min: number, max: number): Node[] {
  const list = node.options;
  if (!Array.isArray(list) || list.length < min || list.length > max)
    throw fieldError([...path, 'options'], 'BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length.`);
  const values = new Set<string>();
  for (const [index, option] of list.entries()) {
    if (!isObject(option))
      throw fieldError(
        [...path, 'options', index],
        'MODEL_TYPE_CONVERT',
        'Only dictionaries may be used in a ModelType',
      );
    text([...path, 'options', index], option, 'label', 1, 100, true);
    text([...path, 'options', index], option, 'value', 1, 100, true);
    if (values.has(option.value as string))
      throw fieldError(
        [...path, 'options', index, 'value'],
        'SELECT_COMPONENT_OPTION_VALUE_DUPLICATED',
        'Option values must be unique.',
      );
    values.add(option.value as string);
  }
  return list as Node[];
}

/** min_values ≤ max_values, each in range; returns the pair with defaults. */
function counts(
  path: Path,
  node: Node,
  minRange: [number, number],
  maxRange: [number, number],
  defaults: [number, number],
): [number, number] {
  const min = int(path, node, 'min_values', ...minRange) ?? defaults[0];
  const max = int(path, node, 'max_values', ...maxRange) ?? defaults[1];
  if (min > max)
    throw fieldError(
      [...path, 'min_values'],
      'SELECT_COMPONENT_MIN_MAX_INVALID',
      'min_values must not exceed max_values.',
    );
  return [min, max];
}

/** One interactive component of a modal, with its defaults. */
function child(path: Path, node: Node, inLabel: boolean): Node {
  const type = node.type;
  const required = node.required === undefined ? true : node.required;
  if (typeof required !== 'boolean')
    throw fieldError([...path, 'required'], 'BOOLEAN_TYPE_CONVERT', 'Must be either true or false.');
  text(path, node, 'custom_id', 1, 100, true);
  switch (type) {
    case ComponentType.TEXT_INPUT: {
      // Inside a Label the Label's text is the label (published: the Text Input's own is not allowed there).
      if (inLabel && node.label !== undefined)
        throw fieldError(
          [...path, 'label'],
          'TEXT_INPUT_LABEL_NOT_ALLOWED',
          'A Text Input inside a Label cannot have its own label.',
        );
      if (!inLabel) text(path, node, 'label', 1, 45, true);
      if (node.style !== 1 && node.style !== 2)
        throw fieldError([...path, 'style'], 'BASE_TYPE_CHOICES', 'Value must be one of (1, 2).');
      const min = int(path, node, 'min_length', 0, 4000) ?? 0;
      const max = int(path, node, 'max_length', 1, 4000) ?? 4000;
      if (min > max)
        throw fieldError(
          [...path, 'min_length'],
          'TEXT_INPUT_MIN_MAX_INVALID',
          'min_length must not exceed max_length.',
        );
      text(path, node, 'value', 0, max, false);
      text(path, node, 'placeholder', 0, 100, false);
      return { ...node, required, min_length: min, max_length: max };
    }
    case ComponentType.STRING_SELECT: {
      if (!inLabel)
        throw fieldError(
          [...path, 'type'],
          'MODAL_STRING_SELECT_OUTSIDE_LABEL',
          'A String Select in a modal must be inside a Label.',
        );
      if (node.disabled !== undefined)
        throw fieldError(
          [...path, 'disabled'],
          'MODAL_SELECT_DISABLED_NOT_ALLOWED',
          'disabled is not allowed on a select in a modal.',
        );
      const list = options(path, node, 1, 25);
      const [min, max] = counts(path, node, [0, 25], [1, 25], [1, 1]);
      if (max > list.length)
        throw fieldError(
          [...path, 'max_values'],
          'SELECT_COMPONENT_MAX_VALUES_TOO_HIGH',
          'max_values cannot exceed the number of options.',
        );
      return { ...node, required, min_values: min, max_values: max };
    }
    case ComponentType.USER_SELECT:
    case ComponentType.ROLE_SELECT:
    case ComponentType.MENTIONABLE_SELECT:
    case ComponentType.CHANNEL_SELECT: {
      if (node.disabled !== undefined)
        throw fieldError(
          [...path, 'disabled'],
          'MODAL_SELECT_DISABLED_NOT_ALLOWED',
          'disabled is not allowed on a select in a modal.',
        );
      const [min, max] = counts(path, node, [0, 25], [1, 25], [1, 1]);
      return { ...node, required, min_values: min, max_values: max };
    }
    case ComponentType.RADIO_GROUP:
      options(path, node, 2, 10);
      return { ...node, required };
    case ComponentType.CHECKBOX_GROUP: {
      const list = options(path, node, 1, 10);
      const [min, max] = counts(path, node, [0, 10], [1, 10], [required ? 1 : 0, list.length]);
      if (max > list.length)
        throw fieldError(
          [...path, 'max_values'],
          'SELECT_COMPONENT_MAX_VALUES_TOO_HIGH',
          'max_values cannot exceed the number of options.',
        );
      return { ...node, required, min_values: min, max_values: max };
    }
    case ComponentType.CHECKBOX:
      if (node.default !== undefined && typeof node.default !== 'boolean')
        throw fieldError([...path, 'default'], 'BOOLEAN_TYPE_CONVERT', 'Must be either true or false.');
      return { ...node, required: node.required === undefined ? false : required };
    case ComponentType.FILE_UPLOAD: {
      const [min, max] = counts(path, node, [0, 10], [1, 10], [1, 1]);
      if (required && min < 1)
        throw fieldError(
          [...path, 'min_values'],
          'FILE_UPLOAD_MIN_VALUES_INVALID',
          'min_values must be at least 1 when the upload is required.',
        );
      const types = node.file_types;
      if (types !== undefined) {
        if (!Array.isArray(types) || types.length > 10)
          throw fieldError([...path, 'file_types'], 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.');
        for (const [index, entry] of types.entries()) {
          if (typeof entry !== 'string' || !FILE_TYPE.test(entry))
            throw fieldError(
              [...path, 'file_types', index],
              'FILE_UPLOAD_FILE_TYPE_INVALID',
              'Must be image, video, audio or a file extension such as .png.',
            );
        }
      }
      return { ...node, required, min_values: min, max_values: max };
    }
    default:
      throw fieldError(
        [...path, 'type'],
        'COMPONENT_TYPE_INVALID',
        `Component type ${String(type)} is not allowed here.`,
      );
  }
}

/** Checks the `data` of a modal callback; returns it normalised. */
export function checkModal(data: unknown): Node {
  const path: Path = ['data'];
  if (!isObject(data)) throw fieldError(path, 'BASE_TYPE_REQUIRED', 'This field is required');
  text(path, data, 'custom_id', 1, 100, true);
  text(path, data, 'title', 1, 45, true);
  const top = data.components;
  if (!Array.isArray(top) || top.length < 1 || top.length > MAX_MODAL_TOP_LEVEL) {
    throw fieldError(
      [...path, 'components'],
      'BASE_TYPE_BAD_LENGTH',
      `Must be between 1 and ${MAX_MODAL_TOP_LEVEL} in length.`,
    );
  }
  let nextId = 1;
  const customIds = new Set<string>();
  const numbered = (node: Node): Node => ({ ...node, id: typeof node.id === 'number' ? node.id : nextId++ });
  const remember = (at: Path, node: Node) => {
    const id = node.custom_id as string;
    if (customIds.has(id))
      throw fieldError(
        [...at, 'custom_id'],
        'COMPONENT_CUSTOM_ID_DUPLICATED',
        'Component custom id cannot be duplicated',
      );
    customIds.add(id);
  };
  const components = top.map((entry, index) => {
    const at: Path = [...path, 'components', index];
    if (!isObject(entry)) throw fieldError(at, 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
    switch (entry.type) {
      case ComponentType.LABEL: {
        text(at, entry, 'label', 1, 45, true);
        text(at, entry, 'description', 0, 100, false);
        // Exactly one child, as the object `component` (a list of children is not a Label).
        if (entry.components !== undefined)
          throw fieldError(
            [...at, 'components'],
            'LABEL_ONE_CHILD',
            'A Label holds exactly one component, in `component`.',
          );
        if (!isObject(entry.component))
          throw fieldError([...at, 'component'], 'BASE_TYPE_REQUIRED', 'This field is required');
        if (!LABEL_CHILDREN.has(entry.component.type as number))
          throw fieldError(
            [...at, 'component', 'type'],
            'COMPONENT_TYPE_INVALID',
            'This component cannot be inside a Label.',
          );
        const inner = child([...at, 'component'], entry.component, true);
        remember([...at, 'component'], inner);
        const label = numbered(entry);
        return { ...label, component: numbered(inner) };
      }
      case ComponentType.TEXT_DISPLAY:
        text(at, entry, 'content', 1, 4000, true);
        return numbered(entry);
      case ComponentType.ACTION_ROW: {
        // Deprecated form: one Text Input with its own label.
        const children = entry.components;
        if (
          !Array.isArray(children) ||
          children.length !== 1 ||
          !isObject(children[0]) ||
          children[0].type !== ComponentType.TEXT_INPUT
        ) {
          const first = Array.isArray(children) && isObject(children[0]) ? children[0] : undefined;
          if (first?.type === ComponentType.STRING_SELECT)
            throw fieldError(
              [...at, 'components', 0, 'type'],
              'MODAL_STRING_SELECT_OUTSIDE_LABEL',
              'A String Select in a modal must be inside a Label.',
            );
          throw fieldError(
            [...at, 'components'],
            'MODAL_ACTION_ROW_INVALID',
            'An Action Row in a modal holds exactly one Text Input.',
          );
        }
        const inner = child([...at, 'components', 0], children[0], false);
        remember([...at, 'components', 0], inner);
        return { ...numbered(entry), components: [numbered(inner)] };
      }
      default:
        throw fieldError(
          [...at, 'type'],
          'COMPONENT_TYPE_INVALID',
          `Component type ${String(entry.type)} is not allowed at the top level of a modal.`,
        );
    }
  });
  return { custom_id: data.custom_id, title: data.title, components };
}
