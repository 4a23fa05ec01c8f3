/**
 * Zod schemas in fastify route options: a validator compiler that answers with our 50035 body (field errors as in
 * platform/PROTOCOL.md §2), and the type provider that types `request.body` / `request.query` / `request.params`
 * from those schemas.
 */
import type { FastifyInstance, FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
import { z } from 'zod';
import { invalidFormBody } from './errors.js';
import { nullAsAbsent } from './null-as-absent.js';
import { zodErrorTree } from './validation.js';

export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

/**
 * A missing body or query validates as `{}` (a POST without a body is an empty form; `[]` where a list is
 * expected), and a null the schema lets be absent counts as absent (null-as-absent.ts). The parsed value (with
 * defaults and transforms applied) replaces the request part.
 */
const blankQueryValue = (value: unknown) => value === null || value === '';

const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data: unknown) => {
    const blank = httpPart === 'querystring' ? blankQueryValue : undefined;
    const input =
      data === undefined || data === null
        ? schema instanceof z.ZodArray
          ? []
          : {}
        : nullAsAbsent(schema, data, blank);
    const result = schema.safeParse(input);
    if (result.success) return { value: result.data };
    return { error: invalidFormBody(zodErrorTree(result.error, input)) };
  };

/** Every route of `app` (and of the plugins registered on it) validates with zod. */
export function useZodSchemas(app: FastifyInstance): void {
  app.setValidatorCompiler(zodValidatorCompiler);
}
