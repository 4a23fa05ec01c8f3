import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, Errors, OAuthError, fieldError, invalidFormBody } from './errors.js';
import { INVALID_UNICODE, parseClientJson } from './json-input.js';
import { MultipartLimitError, parseMultipart, type UploadedFile } from './multipart.js';

/** How the request body was encoded; routes declare which kinds they accept. */
export type BodyKind = 'none' | 'json' | 'form' | 'multipart' | 'unsupported';

declare module 'fastify' {
  interface FastifyRequest {
    bodyKind: BodyKind;
    /** Files of a multipart body (empty otherwise). */
    files: UploadedFile[];
  }
}

const CONTENT_TYPE_NAMES: Record<'json' | 'form' | 'multipart', string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
};

/**
 * Replaces fastify's parsers: JSON parse errors (and nesting beyond MAX_JSON_DEPTH) become 50109, form bodies
 * become plain objects (a repeated key becomes an array), and any other content type is recorded so the route can
 * answer with its own rule (50035 for API routes, `invalid_request` for the OAuth2 endpoints).
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.decorateRequest('bodyKind', 'none');
  app.decorateRequest('files', null as unknown as UploadedFile[]);
  app.addHook('onRequest', async (request) => {
    request.files = [];
  });
  app.removeAllContentTypeParsers();

  // Too deep is refused like invalid JSON, before parsing; an unpaired surrogate is a field error at its path.
  // Both apply to every route, before authentication and validation, like the size limit.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.bodyKind = 'json';
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    answerJson(text, done);
  });

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
    request.bodyKind = 'form';
    const result: Record<string, string | string[]> = {};
    for (const [key, value] of new URLSearchParams(String(body))) {
      const existing = result[key];
      if (existing === undefined) result[key] = value;
      else result[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
    }
    done(null, result);
  });

  // The JSON part (`payload_json`, else the text fields) becomes the body; the files go to request.files. A body
  // that is not valid multipart is refused like invalid JSON; one with more parts than the parser takes, with a form
  // error (never cut to the first ones).
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (request, body, done) => {
    request.bodyKind = 'multipart';
    parseMultipart(String(request.headers['content-type']), body as Buffer).then(
      (parts) => {
        request.files = parts.files;
        if (parts.payloadJson === null) return done(null, parts.fields);
        answerJson(parts.payloadJson, done);
      },
      (error: unknown) =>
        done(error instanceof MultipartLimitError ? tooManyParts(error) : Errors.invalidJson(), undefined),
    );
  });

  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, _body, done) => {
    request.bodyKind = 'unsupported';
    done(null, undefined);
  });
}

/**
 * A JSON body (or multipart `payload_json`): the value, 50109 when it is not JSON (or too deep), a field error at an
 * unpaired surrogate.
 */
function answerJson(text: string, done: (error: Error | null, value: unknown) => void): void {
  const parsed = parseClientJson(text);
  if (parsed.ok) return done(null, parsed.value);
  if (parsed.problem === 'invalid-json') return done(Errors.invalidJson(), undefined);
  done(fieldError(parsed.path, INVALID_UNICODE.code, INVALID_UNICODE.message), undefined);
}

function tooManyParts(error: MultipartLimitError): ApiError {
  return invalidFormBody({
    _errors: [
      {
        code: 'BASE_TYPE_MAX_LENGTH',
        message:
          `A multipart body has at most ${error.limit} ` + `${error.kind === 'files' ? 'file parts' : 'text fields'}.`,
      },
    ],
  });
}

function contentTypeError(accepted: Array<'json' | 'form' | 'multipart'>): ApiError {
  const names = accepted.map((kind) => `'${CONTENT_TYPE_NAMES[kind]}'`).join(', ');
  return invalidFormBody({
    _errors: [{ code: 'CONTENT_TYPE_INVALID', message: `Expected "Content-Type" header to be one of {${names}}.` }],
  });
}

/** Refuses a body whose encoding the route does not take (50035 CONTENT_TYPE_INVALID); no body is always fine. */
export function assertBodyKind(request: FastifyRequest, accepted: ReadonlyArray<'json' | 'form' | 'multipart'>): void {
  if (request.bodyKind === 'none' || (accepted as readonly string[]).includes(request.bodyKind)) return;
  throw contentTypeError([...accepted]);
}

/** The JSON body of an API route; a missing body reads as undefined and is validated as `{}`. */
export function jsonBody(request: FastifyRequest): unknown {
  if (request.bodyKind === 'none' || request.bodyKind === 'json') return request.body;
  throw contentTypeError(['json']);
}

/** The form body of an OAuth2 endpoint (form encoding only, platform/PROTOCOL.md §2 "Bodies"). */
export function oauthFormBody(request: FastifyRequest): Record<string, string | string[]> {
  if (request.bodyKind === 'form') return request.body as Record<string, string | string[]>;
  if (request.bodyKind === 'none') return {};
  throw new OAuthError(400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded.', {
    _errors: [
      {
        code: 'CONTENT_TYPE_INVALID',
        message: `Expected "Content-Type" header to be one of {'${CONTENT_TYPE_NAMES.form}'}.`,
      },
    ],
  });
}

/** A form body of an HTML form post (consent and device verification pages). */
export function htmlFormBody(request: FastifyRequest): Record<string, string | string[]> {
  if (request.bodyKind === 'form') return request.body as Record<string, string | string[]>;
  if (request.bodyKind === 'none') return {};
  throw contentTypeError(['form']);
}
