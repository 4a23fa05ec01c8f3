/**
 * `null` for a field that may be left out but is not nullable is taken as left out (PROTOCOL.md §2 "As published,
 * at the edges"): the published request shapes mark such fields nullable, and libraries send `"embeds": null`,
 * `"tts": null`, `"allowed_mentions": null` for what they do not set. A field whose schema takes null keeps it (a
 * PATCH's `null` still clears), and a required field given null still fails validation. In a query string an empty
 * parameter (`?before=&limit=5`, as URL builders that write every key send it) counts as left out the same way.
 */
import { z } from 'zod';

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType };

/** The object or array schema under optional/nullable/default/pipe wrappers, if any. */
function structural(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = current._zod.def as Def;
    if (
      (def.type === 'optional' || def.type === 'nullable' || def.type === 'default' || def.type === 'prefault') &&
      def.innerType
    )
      current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else return current;
  }
}

/**
 * A copy of `value` without the null fields `schema` would refuse but lets be absent; the rest unchanged. `blank`
 * says what counts as null (a query string's empty `?before=` too).
 */
export function nullAsAbsent(
  schema: z.ZodType,
  value: unknown,
  blank: (field: unknown) => boolean = (field) => field === null,
): unknown {
  const shape = structural(schema);
  if (shape instanceof z.ZodArray && Array.isArray(value)) {
    const element = (shape._zod.def as Def).element!;
    return value.map((item) => nullAsAbsent(element, item, blank));
  }
  if (!(shape instanceof z.ZodObject) || value === null || typeof value !== 'object' || Array.isArray(value))
    return value;
  const fields = shape.shape as Record<string, z.ZodType>;
  let out: Record<string, unknown> | undefined;
  for (const [key, fieldValue] of Object.entries(value as Record<string, unknown>)) {
    const schemaOfKey = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (!schemaOfKey) continue;
    if (blank(fieldValue)) {
      if (schemaOfKey.safeParse(fieldValue).success || !schemaOfKey.safeParse(undefined).success) continue;
      out ??= { ...(value as Record<string, unknown>) };
      delete out[key];
      continue;
    }
    const next = nullAsAbsent(schemaOfKey, fieldValue, blank);
    if (next !== fieldValue) (out ??= { ...(value as Record<string, unknown>) })[key] = next;
  }
  return out ?? value;
}
