// docs/porting-from-the-reference-sdk.md — the table of the reference SDK's names and ours, from the IDL's
// referenceRenames (model.renames). The guide is written by hand; only the part between its two markers is
// generated, so the table always lists exactly the aliases svcpp.hpp has.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PATH = 'docs/porting-from-the-reference-sdk.md';
const BEGIN = '<!-- reference-renames:begin (generated from idl/surface.mjs referenceRenames by `npm run gen`) -->';
const END = '<!-- reference-renames:end -->';

/**
 * The C++ spelling of a rename's two names: `Client::SendDiscordFriendRequest`,
 * `ExternalIdentityProviderType::DiscordBot`.
 */
function row(r) {
  const scope = r.scope.replace(/\./g, '::');
  const what = r.kind === 'member' ? (r.fn.owner.kind === 'client' ? 'method' : 'getter') : 'enum value';
  return `| \`${scope}::${r.reference}\` | \`${scope}::${r.ours}\` | ${what} |`;
}

export function generate(model) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const current = readFileSync(join(root, PATH), 'utf8');
  const begin = current.indexOf(BEGIN);
  const end = current.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`${PATH}: the markers ${BEGIN} … ${END} are missing`);
  const table = ['| Reference name | svcpp name | Kind |', '|---|---|---|', ...model.renames.map(row)].join('\n');
  const content = `${current.slice(0, begin + BEGIN.length)}\n${table}\n${current.slice(end)}`;
  return [{ path: PATH, content }];
}
