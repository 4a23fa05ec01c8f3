import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The platform package's own folder: this module sits two levels below it both as a source file
 * (`src/landing/`, a checkout run through tsx) and compiled (`dist/landing/`, an installed package).
 */
const PACKAGE_ROOT = new URL('../../', import.meta.url);

/** The version of the running platform, from its package.json. */
export const PLATFORM_VERSION: string = (
  JSON.parse(readFileSync(new URL('package.json', PACKAGE_ROOT), 'utf8')) as { version: string }
).version;

/** The documents the landing page links to by name (package.json "files"). */
export const LANDING_DOCS = ['README.md', 'PROTOCOL.md'] as const;

/**
 * Every document the package ships and `/docs/…` serves, by path in the package: the two above and the design pages
 * PROTOCOL.md indexes (`protocol/<page>.md`). A fixed list read once, so a request can only name one of these files.
 */
export const SHIPPED_DOCS: readonly string[] = [
  ...LANDING_DOCS,
  ...readdirSync(new URL('protocol/', PACKAGE_ROOT))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `protocol/${name}`),
];

export function isShippedDoc(name: string): boolean {
  return SHIPPED_DOCS.includes(name);
}

/** A shipped document's text, read when asked (they are small, and this keeps a running platform's docs current). */
export function readShippedDoc(name: string): string {
  return readFileSync(fileURLToPath(new URL(name, PACKAGE_ROOT)), 'utf8');
}
