/** The part of pg-native (node-postgres' libpq binding, no published types) the PostgreSQL adapter uses. */
declare module 'pg-native' {
  interface TypeParsers {
    getTypeParser(oid: number, format?: string): (value: string) => unknown;
  }
  class Client {
    constructor(config?: { types?: TypeParsers });
    connectSync(connectionString: string): void;
    querySync(text: string, values?: (string | null)[]): Record<string, unknown>[];
    prepareSync(statementName: string, text: string, nParams: number): void;
    executeSync(statementName: string, values: (string | null)[]): Record<string, unknown>[];
    end(callback?: () => void): void;
  }
  export = Client;
}
