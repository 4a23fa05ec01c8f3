/** Unit tests of the modal rules (PROTOCOL.md §17.4): the modal an application opens and a user's submission. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/http/errors.js';
import { checkModal } from '../../src/interactions/modal.js';
import { submitModal } from '../../src/interactions/modal-submit.js';
import type { UploadedFile } from '../../src/http/multipart.js';

const textInput = { type: 4, custom_id: 'name', style: 1 };
const label = (component: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 18,
  label: 'Field',
  component,
  ...extra,
});
const modal = (...components: unknown[]) => ({ custom_id: 'm', title: 'Title', components });

/** The field-error code at a path of a 50035 thrown by fn. */
function codeAt(fn: () => unknown, ...path: Array<string | number>): string | undefined {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 50035) throw error;
    let node: any = error.errors;
    for (const key of path) node = node?.[String(key)];
    return node?._errors?.[0]?.code;
  }
  return undefined;
}

describe('the modal an application opens', () => {
  it('accepts a Label with a Text Input and a Text Display, filling in required and ids', () => {
    const checked = checkModal(modal(label(textInput), { type: 10, content: '**hello**' }));
    const components = checked.components as any[];
    expect(components[0]).toMatchObject({ type: 18, id: 1, component: { type: 4, required: true, id: 2 } });
    expect(components[1]).toMatchObject({ type: 10, id: 3 });
  });

  it('refuses a Text Input label inside a Label, and more than one child', () => {
    expect(
      codeAt(
        () => checkModal(modal(label({ ...textInput, label: 'own' }))),
        'data',
        'components',
        0,
        'component',
        'label',
      ),
    ).toBe('TEXT_INPUT_LABEL_NOT_ALLOWED');
    expect(
      codeAt(
        () => checkModal(modal({ type: 18, label: 'x', components: [textInput, textInput] })),
        'data',
        'components',
        0,
        'components',
      ),
    ).toBe('LABEL_ONE_CHILD');
    expect(codeAt(() => checkModal(modal({ type: 18, label: 'x' })), 'data', 'components', 0, 'component')).toBe(
      'BASE_TYPE_REQUIRED',
    );
    expect(
      codeAt(() => checkModal(modal(label(textInput, { label: 'x'.repeat(46) }))), 'data', 'components', 0, 'label'),
    ).toBe('BASE_TYPE_BAD_LENGTH');
  });

  it('the deprecated Action Row holds one Text Input with its own label', () => {
    expect(checkModal(modal({ type: 1, components: [{ ...textInput, label: 'Name' }] })).components).toHaveLength(1);
    expect(
      codeAt(
        () => checkModal(modal({ type: 1, components: [textInput] })),
        'data',
        'components',
        0,
        'components',
        0,
        'label',
      ),
    ).toBe('BASE_TYPE_REQUIRED');
  });

  it('String Select: only inside a Label, required by default, disabled refused', () => {
    const select = {
      type: 3,
      custom_id: 'pick',
      options: [
        { label: 'A', value: 'a' },
        { label: 'B', value: 'b' },
      ],
    };
    expect((checkModal(modal(label(select))).components as any[])[0].component.required).toBe(true);
    expect(
      codeAt(
        () => checkModal(modal({ type: 1, components: [select] })),
        'data',
        'components',
        0,
        'components',
        0,
        'type',
      ),
    ).toBe('MODAL_STRING_SELECT_OUTSIDE_LABEL');
    expect(
      codeAt(
        () => checkModal(modal(label({ ...select, disabled: false }))),
        'data',
        'components',
        0,
        'component',
        'disabled',
      ),
    ).toBe('MODAL_SELECT_DISABLED_NOT_ALLOWED');
  });

  it('Radio Group has 2–10 options; Checkbox Group 1–10 with min ≤ max; Checkbox takes a boolean default', () => {
    const one = [{ label: 'A', value: 'a' }];
    expect(
      codeAt(
        () => checkModal(modal(label({ type: 21, custom_id: 'r', options: one }))),
        'data',
        'components',
        0,
        'component',
        'options',
      ),
    ).toBe('BASE_TYPE_BAD_LENGTH');
    const many = Array.from({ length: 11 }, (_, i) => ({ label: `L${i}`, value: `v${i}` }));
    expect(
      codeAt(
        () => checkModal(modal(label({ type: 22, custom_id: 'c', options: many }))),
        'data',
        'components',
        0,
        'component',
        'options',
      ),
    ).toBe('BASE_TYPE_BAD_LENGTH');
    const three = many.slice(0, 3);
    expect(
      codeAt(
        () => checkModal(modal(label({ type: 22, custom_id: 'c', options: three, min_values: 3, max_values: 2 }))),
        'data',
        'components',
        0,
        'component',
        'min_values',
      ),
    ).toBe('SELECT_COMPONENT_MIN_MAX_INVALID');
    expect(
      codeAt(
        () => checkModal(modal(label({ type: 22, custom_id: 'c', options: three, max_values: 11 }))),
        'data',
        'components',
        0,
        'component',
        'max_values',
      ),
    ).toBe('NUMBER_TYPE_OUT_OF_RANGE');
    expect(
      codeAt(
        () => checkModal(modal(label({ type: 23, custom_id: 'ok', default: 'yes' }))),
        'data',
        'components',
        0,
        'component',
        'default',
      ),
    ).toBe('BOOLEAN_TYPE_CONVERT');
  });

  it('File Upload: 0–10 files, min ≥ 1 when required, file_types image/video/audio/.ext', () => {
    expect(
      codeAt(
        () => checkModal(modal(label({ type: 19, custom_id: 'f', max_values: 11 }))),
        'data',
        'components',
        0,
        'component',
        'max_values',
      ),
    ).toBe('NUMBER_TYPE_OUT_OF_RANGE');
    expect(
      codeAt(
        () => checkModal(modal(label({ type: 19, custom_id: 'f', min_values: 0 }))),
        'data',
        'components',
        0,
        'component',
        'min_values',
      ),
    ).toBe('FILE_UPLOAD_MIN_VALUES_INVALID');
    expect(
      checkModal(
        modal(label({ type: 19, custom_id: 'f', min_values: 0, required: false, file_types: ['image', '.pdf'] })),
      ).components,
    ).toHaveLength(1);
    expect(
      codeAt(
        () => checkModal(modal(label({ type: 19, custom_id: 'f', file_types: ['exe'] }))),
        'data',
        'components',
        0,
        'component',
        'file_types',
        0,
      ),
    ).toBe('FILE_UPLOAD_FILE_TYPE_INVALID');
  });

  it('refuses other top-level types, more than 5 rows, duplicate custom ids, a missing title', () => {
    expect(
      codeAt(() => checkModal(modal({ type: 2, style: 1, custom_id: 'b' })), 'data', 'components', 0, 'type'),
    ).toBe('COMPONENT_TYPE_INVALID');
    expect(
      codeAt(
        () => checkModal(modal(...Array.from({ length: 6 }, () => ({ type: 10, content: 'x' })))),
        'data',
        'components',
      ),
    ).toBe('BASE_TYPE_BAD_LENGTH');
    expect(
      codeAt(
        () => checkModal(modal(label(textInput), label(textInput))),
        'data',
        'components',
        1,
        'component',
        'custom_id',
      ),
    ).toBe('COMPONENT_CUSTOM_ID_DUPLICATED');
    expect(codeAt(() => checkModal({ custom_id: 'm', components: [label(textInput)] }), 'data', 'title')).toBe(
      'BASE_TYPE_REQUIRED',
    );
  });
});

describe('a submission', () => {
  const opened = checkModal(
    modal(
      label({ ...textInput, min_length: 2, max_length: 5 }),
      label({
        type: 21,
        custom_id: 'colour',
        options: [
          { label: 'Red', value: 'red' },
          { label: 'Blue', value: 'blue' },
        ],
      }),
      label({
        type: 22,
        custom_id: 'extras',
        options: [
          { label: 'A', value: 'a' },
          { label: 'B', value: 'b' },
        ],
        min_values: 1,
        max_values: 2,
      }),
      label({ type: 23, custom_id: 'agree', required: true }),
      label({ type: 19, custom_id: 'proof', max_values: 2, file_types: ['image'] }),
    ),
  );
  const png: UploadedFile = {
    field: 'files[proof]',
    filename: 'a.png',
    contentType: 'image/png',
    data: Buffer.from('png'),
  };
  const stored: string[] = [];
  const input = (values: Record<string, any>, files = [png], uploadLimit = 1024) => ({
    values,
    files,
    uploadLimit,
    storeFile: (file: UploadedFile) => {
      stored.push(file.filename);
      return { id: String(stored.length), filename: file.filename };
    },
  });
  const good = { name: 'Bob', colour: 'red', extras: ['a'], agree: true };

  it('produces MODAL_SUBMIT data with Label wrappers and resolved attachments', () => {
    const data = submitModal(opened, input(good)) as any;
    expect(data.custom_id).toBe('m');
    expect(data.components[0]).toMatchObject({ type: 18, component: { type: 4, custom_id: 'name', value: 'Bob' } });
    expect(data.components[2].component.values).toEqual(['a']);
    expect(data.components[4].component.values).toHaveLength(1);
    expect(Object.values(data.resolved.attachments)[0]).toMatchObject({ filename: 'a.png' });
  });

  it('refuses, storing no file: lengths, unoffered options, counts, required checkbox, size, type, unknown ids', () => {
    const before = stored.length;
    expect(codeAt(() => submitModal(opened, input({ ...good, name: 'B' })), 'values', 'name')).toBe(
      'BASE_TYPE_BAD_LENGTH',
    );
    expect(codeAt(() => submitModal(opened, input({ ...good, colour: 'green' })), 'values', 'colour')).toBe(
      'COMPONENT_VALUE_INVALID',
    );
    expect(codeAt(() => submitModal(opened, input({ ...good, extras: [] })), 'values', 'extras')).toBe(
      'COMPONENT_VALUES_COUNT_INVALID',
    );
    expect(codeAt(() => submitModal(opened, input({ ...good, agree: false })), 'values', 'agree')).toBe(
      'BASE_TYPE_REQUIRED',
    );
    expect(codeAt(() => submitModal(opened, input(good, [])), 'values', 'proof')).toBe(
      'COMPONENT_VALUES_COUNT_INVALID',
    );
    expect(codeAt(() => submitModal(opened, input(good, [png, png, png])), 'values', 'proof')).toBe(
      'COMPONENT_VALUES_COUNT_INVALID',
    );
    expect(codeAt(() => submitModal(opened, input(good, [png], 2)), 'values', 'proof')).toBe('FILE_UPLOAD_TOO_LARGE');
    expect(
      codeAt(
        () => submitModal(opened, input(good, [{ ...png, filename: 'a.txt', contentType: 'text/plain' }])),
        'values',
        'proof',
      ),
    ).toBe('FILE_UPLOAD_TYPE_NOT_ALLOWED');
    expect(codeAt(() => submitModal(opened, input({ ...good, other: 'x' })), 'values', 'other')).toBe(
      'COMPONENT_UNKNOWN',
    );
    expect(stored.length).toBe(before);
  });
});
