import { Writable } from 'node:stream';

/** How the platform writes its log lines: pino's JSON (one object a line, for machines) or lines for a person. */
export type LogFormat = 'json' | 'pretty';

export const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];

/**
 * The format when nobody chose one: pretty on a terminal, JSON when the output is piped or redirected (a log
 * collector, `| jq`, a file) — the same rule as `ls` or `git` use for colour.
 */
export function defaultLogFormat(stream: { isTTY?: boolean }): LogFormat {
  return stream.isTTY ? 'pretty' : 'json';
}

const LEVELS: Record<number, { name: string; colour: string }> = {
  10: { name: 'TRACE', colour: '90' },
  20: { name: 'DEBUG', colour: '36' },
  30: { name: 'INFO', colour: '32' },
  40: { name: 'WARN', colour: '33' },
  50: { name: 'ERROR', colour: '31' },
  60: { name: 'FATAL', colour: '35' },
};

/** Fields every line has, or that say nothing to a person at a terminal. */
const OMITTED = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'name', 'v', 'err']);

function value(field: unknown): string {
  if (typeof field === 'string') return /^[^\s"=]+$/.test(field) ? field : JSON.stringify(field);
  return JSON.stringify(field) ?? String(field);
}

/**
 * One pino JSON line as a person reads it: `12:34:56.789 INFO  message  key=value …`, and an error's stack on the
 * lines below. A line that is not pino's JSON is passed through as it is.
 */
export function prettyLine(line: string, colour: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  if (typeof entry !== 'object' || entry === null) return `${line}\n`;
  const level = LEVELS[entry.level as number] ?? { name: String(entry.level ?? 'LOG').toUpperCase(), colour: '0' };
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 23) : '';
  const label = level.name.padEnd(5);
  const fields = Object.entries(entry)
    .filter(([key]) => !OMITTED.has(key))
    .map(([key, field]) => `${key}=${value(field)}`)
    .join(' ');
  const err = entry.err as { stack?: unknown; message?: unknown } | undefined;
  const stack = err && typeof err === 'object' ? String(err.stack ?? err.message ?? '') : '';
  const levelText = colour ? `\x1b[${level.colour}m${label}\x1b[0m` : label;
  const head = `${time} ${levelText} ${String(entry.msg ?? '')}${fields ? `  ${fields}` : ''}`;
  return `${head}\n${stack ? `${stack.replace(/^/gm, '    ')}\n` : ''}`;
}

/** A stream for pino that writes each JSON line it gets to `out` as prettyLine makes it. */
export function prettyStream(out: NodeJS.WritableStream & { isTTY?: boolean }): Writable {
  const colour = out.isTTY === true && !process.env.NO_COLOR;
  let pending = '';
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      pending += chunk.toString();
      let newline: number;
      while ((newline = pending.indexOf('\n')) !== -1) {
        out.write(prettyLine(pending.slice(0, newline), colour));
        pending = pending.slice(newline + 1);
      }
      done();
    },
  });
}
