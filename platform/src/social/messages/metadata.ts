import { z } from 'zod';

/**
 * A string-to-string map with a key count limit (`DICT_TYPE_MAX_KEYS`) and key (1 … keyMax) / value (0 … valueMax)
 * lengths; key errors are reported at the key's own path, like value errors.
 */
export function metadataSchema(maxKeys: number, keyMax: number, valueMax: number) {
  return z.record(z.string(), z.string().max(valueMax)).superRefine((map, check) => {
    const keys = Object.keys(map);
    if (keys.length > maxKeys) {
      check.addIssue({ code: 'custom', message: `Must have ${maxKeys} or fewer keys.`, params: { code: 'DICT_TYPE_MAX_KEYS' } });
    }
    for (const key of keys) {
      if (key.length === 0) {
        check.addIssue({ code: 'custom', path: [key], message: 'Keys must be 1 or more in length.', params: { code: 'BASE_TYPE_MIN_LENGTH' } });
      } else if (key.length > keyMax) {
        check.addIssue({ code: 'custom', path: [key], message: `Keys must be ${keyMax} or fewer in length.`, params: { code: 'BASE_TYPE_MAX_LENGTH' } });
      }
    }
  });
}
