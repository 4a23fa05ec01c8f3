import { pino, type Logger, type LoggerOptions } from 'pino';

/**
 * The platform logger. Credentials never reach it: request logs carry method, URL and status only, and the
 * redaction paths below catch headers and bodies should anyone log a request object in full.
 */
export function createLogger(option: false | LoggerOptions | Logger | undefined): Logger {
  if (option === false) return pino({ level: 'silent' });
  if (option && typeof (option as Logger).child === 'function') return option as Logger;
  const options = (option ?? {}) as LoggerOptions;
  return pino({
    name: 'svcpp-platform',
    level: process.env.SVCPP_LOG_LEVEL ?? 'info',
    ...options,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'body', 'req.body'],
      censor: '[redacted]',
    },
  });
}
