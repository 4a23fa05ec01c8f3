import { pino, type Logger, type LoggerOptions } from 'pino';
import { defaultLogFormat, prettyStream, type LogFormat } from './log-format.js';

/**
 * The platform logger. Credentials never reach it: request logs carry method, URL and status only, and the
 * redaction paths below catch headers and bodies should anyone log a request object in full.
 *
 * Lines go to `process.stdout` as a queued stream rather than pino's default SonicBoom destination: SonicBoom
 * flushes synchronously when the process exits and retries forever once stdout is a pipe nobody reads (a launcher
 * that went away), so `process.exit` never returned and later signals were never handled. A queued stream drops
 * what is left at exit instead, and a broken pipe only ends the logging (see ignoreBrokenPipe). `format`: pino's
 * JSON lines, or lines for a person (log-format.ts); by default pretty on a terminal and JSON otherwise.
 */
export function createLogger(
  option: false | LoggerOptions | Logger | undefined,
  format: LogFormat = defaultLogFormat(process.stdout),
): Logger {
  if (option === false) return pino({ level: 'silent' });
  if (option && typeof (option as Logger).child === 'function') return option as Logger;
  const options = (option ?? {}) as LoggerOptions;
  ignoreBrokenPipe(process.stdout);
  return pino(
    {
      name: 'svcpp-platform',
      level: process.env.SVCPP_LOG_LEVEL ?? 'info',
      ...options,
      serializers: { ...options.serializers, req: requestLogValue },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'body', 'req.body'],
        censor: '[redacted]',
      },
    },
    // Pretty lines are made from the same JSON (redaction included) just before they reach the terminal.
    format === 'pretty' ? prettyStream(process.stdout) : process.stdout,
  );
}

/**
 * Interaction tokens travel in URL paths (the published `/interactions/{id}/{token}/callback` and
 * `/webhooks/{app}/{token}…` routes): request logs show those paths with the token cut out.
 */
const TOKEN_IN_PATH = /^(\/api(?:\/v\d+)?\/(?:interactions|webhooks)\/[^/?]+\/)[^/?]+/;

export function redactPathTokens(url: string): string {
  return url.replace(TOKEN_IN_PATH, '$1[redacted]');
}

/** The request as fastify logs it (its default fields), with `redactPathTokens` applied to the URL. */
export function requestLogValue(request: {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: request.method,
    url: request.url === undefined ? undefined : redactPathTokens(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

const tolerant = new WeakSet<NodeJS.WritableStream>();

/**
 * A reader that has gone away (EPIPE) or any other write failure of a standard stream must not crash or stop the
 * platform: what cannot be written is dropped. Installed once per stream.
 */
export function ignoreBrokenPipe(stream: NodeJS.WritableStream): void {
  if (tolerant.has(stream)) return;
  tolerant.add(stream);
  stream.on('error', () => undefined);
}
