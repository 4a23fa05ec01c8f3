/**
 * Rewrites better-sqlite3 placeholders to PostgreSQL's numbered ones: each `?` takes the next number; each distinct
 * `@name` gets one number, reused where the name repeats. Quoted strings, quoted identifiers and `--` comments are
 * copied untouched. Returns the rewritten text and, per number, where its value comes from.
 */
export interface TranslatedSql {
  readonly text: string;
  /** For `$n` (index n-1): a parameter name, or the position among the `?` arguments. */
  readonly sources: readonly (string | number)[];
}

export function translatePlaceholders(sql: string): TranslatedSql {
  const sources: (string | number)[] = [];
  const named = new Map<string, number>();
  let positional = 0;
  let text = '';
  for (let i = 0; i < sql.length;) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = closingQuote(sql, i, c);
      text += sql.slice(i, end);
      i = end;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end < 0 ? sql.length : end;
      text += sql.slice(i, stop);
      i = stop;
    } else if (c === '?') {
      sources.push(positional++);
      text += `$${sources.length}`;
      i++;
    } else if (c === '@' && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1))![0];
      let number = named.get(name);
      if (number === undefined) {
        sources.push(name);
        number = sources.length;
        named.set(name, number);
      }
      text += `$${number}`;
      i += 1 + name.length;
    } else {
      text += c;
      i++;
    }
  }
  return { text, sources };
}

/** Index just past the quote closing the one at `start` (a doubled quote is an escaped one). */
function closingQuote(sql: string, start: number, quote: string): number {
  for (let i = start + 1; i < sql.length; i++) {
    if (sql[i] !== quote) continue;
    if (sql[i + 1] === quote) i++;
    else return i + 1;
  }
  throw new Error(`unterminated ${quote} in SQL: ${sql}`);
}
