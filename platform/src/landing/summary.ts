import type { PlatformUrls } from '../http/urls.js';
import { LANDING_DOCS, PLATFORM_VERSION } from './package-files.js';

/** What the landing page says, in the JSON form (`GET /` with `Accept: application/json`, PROTOCOL.md §2). */
export interface LandingSummary {
  name: 'svcpp-platform';
  version: string;
  /** development: dev routes and the development application; production: started with --no-dev. */
  mode: 'development' | 'production';
  /** SQLite (a file or in memory) or PostgreSQL: the kind only, never a connection URL (it may hold a password). */
  database: 'sqlite' | 'sqlite-memory' | 'postgresql';
  links: {
    /** This page. */
    home: string;
    api_base: string;
    gateway: string;
    attachments: string;
    portal: string;
    oidc_discovery: string;
    docs: Record<string, string>;
  };
}

export function databaseKind(database: string): LandingSummary['database'] {
  if (/^postgres(ql)?:\/\//i.test(database)) return 'postgresql';
  return database === ':memory:' ? 'sqlite-memory' : 'sqlite';
}

export function landingSummary(urls: PlatformUrls, devMode: boolean, database: string): LandingSummary {
  const base = urls.http;
  return {
    name: 'svcpp-platform',
    version: PLATFORM_VERSION,
    mode: devMode ? 'development' : 'production',
    database: databaseKind(database),
    links: {
      home: `${base}/`,
      api_base: urls.api,
      gateway: urls.gateway,
      attachments: urls.attachments,
      portal: `${base}/developers`,
      oidc_discovery: `${base}/.well-known/openid-configuration`,
      docs: Object.fromEntries(LANDING_DOCS.map((name) => [name, `${base}/docs/${name}`])),
    },
  };
}
