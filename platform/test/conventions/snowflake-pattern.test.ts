/** One reading of an id from outside (src/ids/snowflake.ts): no area writes the pattern again. */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSnowflake, SNOWFLAKE_PATTERN } from '../../src/ids/snowflake.js';
import { SRC, sourceFiles } from '../support/sources.js';

describe('the snowflake pattern', () => {
  it('is written once: every whole-value id check uses isSnowflake or SNOWFLAKE_PATTERN', () => {
    const inline: string[] = [];
    for (const file of sourceFiles()) {
      if (file.endsWith(join('ids', 'snowflake.ts'))) continue;
      for (const [n, line] of readFileSync(file, 'utf8').split('\n').entries()) {
        if (line.includes('/^\\d{1,20}$/')) inline.push(`${relative(SRC, file)}:${n + 1}: ${line.trim()}`);
      }
    }
    expect(inline).toEqual([]);
  });

  it('takes 1 to 20 decimal digits and nothing else', () => {
    for (const id of ['0', '1', '12345678901234567890']) expect(isSnowflake(id), id).toBe(true);
    for (const id of ['', '-1', '+1', ' 1', '1 ', '1e3', '0x10', '123456789012345678901', '１'])
      expect(isSnowflake(id), id).toBe(false);
    expect(SNOWFLAKE_PATTERN.flags).toBe('');
  });
});
