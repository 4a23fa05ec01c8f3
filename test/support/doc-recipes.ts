/** A guide's marked recipe: the fenced block right after a `<!-- recipe: <name> -->` line (any language). */
import { readFileSync } from 'node:fs';

export function docRecipe(path: string, name: string): string {
  const text = readFileSync(path, 'utf8');
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^<!-- recipe: ${escaped} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(text);
  if (!match) throw new Error(`${path} has no recipe "${name}"`);
  return match[1]!;
}
