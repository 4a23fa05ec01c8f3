/** The pieces that carry the shared SQL to PostgreSQL: placeholder rewriting, DDL types, value conversions. */
import { describe, expect, it } from 'vitest';
import { postgresDdl } from '../../src/store/postgres/ddl.js';
import { translatePlaceholders } from '../../src/store/postgres/placeholders.js';
import { toParameter, typeParsers } from '../../src/store/postgres/values.js';

describe('placeholder rewriting', () => {
  it('numbers ? in order', () => {
    expect(translatePlaceholders('SELECT * FROM t WHERE a = ? AND b = ?')).toEqual({
      text: 'SELECT * FROM t WHERE a = $1 AND b = $2',
      sources: [0, 1],
    });
  });

  it('gives a repeated @name one number', () => {
    expect(translatePlaceholders('WHERE (length(id) > length(@after) OR id > @after) LIMIT @limit')).toEqual({
      text: 'WHERE (length(id) > length($1) OR id > $1) LIMIT $2',
      sources: ['after', 'limit'],
    });
  });

  it('leaves quoted strings, quoted identifiers and comments alone', () => {
    const sql = `SELECT '?', 'it''s @x', "a?b" FROM t -- what @about ?\nWHERE c = ?`;
    expect(translatePlaceholders(sql)).toEqual({
      text: `SELECT '?', 'it''s @x', "a?b" FROM t -- what @about ?\nWHERE c = $1`,
      sources: [0],
    });
  });

  it('refuses an unterminated string', () => {
    expect(() => translatePlaceholders("SELECT 'open")).toThrow(/unterminated/);
  });
});

describe('DDL carried to PostgreSQL', () => {
  it('widens INTEGER, maps BLOB, and gives TEXT the bytewise collation', () => {
    expect(postgresDdl('CREATE TABLE t (id TEXT PRIMARY KEY, at INTEGER NOT NULL, data BLOB)')).toBe(
      'CREATE TABLE t (id TEXT COLLATE "C" PRIMARY KEY, at BIGINT NOT NULL, data BYTEA)',
    );
  });

  it('touches only whole words', () => {
    expect(postgresDdl('CREATE TABLE context_texts (texture TEXT)')).toBe(
      'CREATE TABLE context_texts (texture TEXT COLLATE "C")',
    );
  });
});

describe('values', () => {
  it('binds JS values in text format', () => {
    expect(toParameter(null)).toBeNull();
    expect(toParameter(undefined)).toBeNull();
    expect(toParameter('1574630435055595520')).toBe('1574630435055595520');
    expect(toParameter(1_700_000_000_000)).toBe('1700000000000');
    expect(toParameter(true)).toBe('1');
    expect(toParameter(Buffer.from([0, 255]))).toBe('\\x00ff');
  });

  it('refuses what has no SQL form', () => {
    expect(() => toParameter({})).toThrow(TypeError);
  });

  it('reads BIGINT as a number and refuses one a JS number would round', () => {
    const bigint = typeParsers.getTypeParser(20);
    expect(bigint('1700000000000')).toBe(1_700_000_000_000);
    expect(() => bigint('9007199254740993')).toThrow(RangeError);
  });

  it('reads booleans as 1/0 and BYTEA as bytes, like SQLite', () => {
    expect(typeParsers.getTypeParser(16)('t')).toBe(1);
    expect(typeParsers.getTypeParser(16)('f')).toBe(0);
    expect(typeParsers.getTypeParser(17)('\\x00ff')).toEqual(Buffer.from([0, 255]));
    expect(typeParsers.getTypeParser(25)('text')).toBe('text');
  });
});
