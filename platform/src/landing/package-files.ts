import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The platform package's own folder: this module sits two levels below it both as a source file
 * (`src/landing/`, a checkout run through tsx) and compiled (`dist/landing/`, an installed package).
 */
const PACKAGE_ROOT = new URL('../../', import.meta.url);

/** The version of the running platform, from its package.json. */
export const PLATFORM_VERSION: string = (JSON.parse(readFileSync(new URL('package.json', PACKAGE_ROOT), 'utf8')) as { version: string }).version;

/** The documents the package ships (package.json "files") and the landing page links to, by file name. */
export const SHIPPED_DOCS = ['README.md', 'PROTOCOL.md'] as const;
export type ShippedDoc = (typeof SHIPPED_DOCS)[number];

export function isShippedDoc(name: string): name is ShippedDoc {
  return (SHIPPED_DOCS as readonly string[]).includes(name);
}

/** A shipped document's text, read when asked (they are small, and this keeps a running platform's docs current). */
export function readShippedDoc(name: ShippedDoc): string {
  return readFileSync(fileURLToPath(new URL(name, PACKAGE_ROOT)), 'utf8');
}
