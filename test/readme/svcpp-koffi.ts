/**
 * The package as the README's snippets see it on the koffi run: everything from lib/, with a Client whose default
 * backend is koffi (a snippet names no backend; the napi run resolves `svcpp` to lib/index.ts itself).
 */
import { Client as NapiDefaultClient, type ClientOptions } from '../../lib/index.js';

export * from '../../lib/index.js';

export class Client extends NapiDefaultClient {
  constructor(options: ClientOptions = {}) {
    super({ backend: 'koffi', ...options });
  }
}
