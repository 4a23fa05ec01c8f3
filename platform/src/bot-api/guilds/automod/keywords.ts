/**
 * Keyword matching of AutoMod KEYWORD rules (PROTOCOL.md §14.11), with the published wildcard semantics, case-
 * insensitively: `cat` matches the whole word only, `cat*` words starting with it, `*cat` words ending with it,
 * `*cat*` anywhere. Text an allow-list entry (same syntax) matches cannot trigger a keyword.
 */

const WORD_CHAR = '[\\p{L}\\p{N}_]';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The regular expression of one keyword. Only `*` at either end is special; everything else is literal. */
export function keywordPattern(keyword: string): RegExp {
  const leading = keyword.startsWith('*');
  const trailing = keyword.length > 1 && keyword.endsWith('*');
  const core = keyword.slice(leading ? 1 : 0, trailing ? -1 : undefined);
  // A wildcard end extends the match to the rest of the word, so matched_content is the whole word, as published.
  const before = leading ? `${WORD_CHAR}*` : `(?<!${WORD_CHAR})`;
  const after = trailing ? `${WORD_CHAR}*` : `(?!${WORD_CHAR})`;
  return new RegExp(`${before}${escapeRegExp(core)}${after}`, 'iu');
}

export interface KeywordMatch {
  keyword: string;
  content: string;
}

/** Where the allow list matches in `text`: [start, end) spans. */
function allowedSpans(text: string, allowList: readonly string[]): Array<[number, number]> {
  return allowList.flatMap((entry) =>
    [...text.matchAll(new RegExp(keywordPattern(entry).source, 'giu'))].map((m): [number, number] => [
      m.index,
      m.index + m[0].length,
    ]),
  );
}

/**
 * The first keyword that matches `text` outside every span the allow list matches (an allowed phrase such as
 * `spoilers-ok` covers the `spoilers` inside it), or undefined.
 */
export function findKeyword(
  text: string,
  keywords: readonly string[],
  allowList: readonly string[],
): KeywordMatch | undefined {
  const allowed = allowedSpans(text, allowList);
  for (const keyword of keywords) {
    for (const match of text.matchAll(new RegExp(keywordPattern(keyword).source, 'giu'))) {
      const start = match.index;
      const end = start + match[0].length;
      if (!allowed.some(([from, to]) => from <= start && end <= to)) return { keyword, content: match[0] };
    }
  }
  return undefined;
}
