import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  AudioSystem,
  AuthenticationCodeChallengeMethod,
  Client,
  ClientStatus,
  ErrorType,
  HttpStatusCode,
  LoggingSeverity,
  SvcppError,
  SvcppResultError,
  loadBackend,
  resultError,
} from '../lib/index.js';
import { BACKENDS } from './backends.js';

/** Resolves with the first log line whose message matches. */
const nextLog = (client: Client, match: RegExp) =>
  new Promise<[string, LoggingSeverity]>((resolve) => {
    const listener = (message: string, severity: LoggingSeverity) => {
      if (!match.test(message)) return;
      client.off('log', listener);
      resolve([message, severity]);
    };
    client.on('log', listener);
  });

describe.each(BACKENDS)('Client over %s', (backend) => {
  it('round-trips every ClientCreateOptions field through the native object', () => {
    const api = loadBackend(backend);
    const options = api.ClientCreateOptions_Init();
    expect(api.ClientCreateOptions_ApiBase(options)).toBe('');
    expect(api.ClientCreateOptions_CpuAffinityMask(options)).toBeUndefined();
    api.ClientCreateOptions_SetApiBase(options, 'http://127.0.0.1:1/api/v10');
    api.ClientCreateOptions_SetWebBase(options, 'http://127.0.0.1:1');
    api.ClientCreateOptions_SetCaFile(options, '/tmp/ca.pem');
    api.ClientCreateOptions_SetExperimentalAudioSystem(options, AudioSystem.Game);
    api.ClientCreateOptions_SetExperimentalAndroidPreventCommsForBluetooth(options, true);
    api.ClientCreateOptions_SetCpuAffinityMask(options, 0x8000000000000001n);
    const copy = api.ClientCreateOptions_Clone(options);
    api.ClientCreateOptions_SetCpuAffinityMask(options, undefined);
    expect(api.ClientCreateOptions_ApiBase(copy)).toBe('http://127.0.0.1:1/api/v10');
    expect(api.ClientCreateOptions_WebBase(copy)).toBe('http://127.0.0.1:1');
    expect(api.ClientCreateOptions_CaFile(copy)).toBe('/tmp/ca.pem');
    expect(api.ClientCreateOptions_ExperimentalAudioSystem(copy)).toBe(AudioSystem.Game);
    expect(api.ClientCreateOptions_ExperimentalAndroidPreventCommsForBluetooth(copy)).toBe(true);
    expect(api.ClientCreateOptions_CpuAffinityMask(copy)).toBe(0x8000000000000001n);
    expect(api.ClientCreateOptions_CpuAffinityMask(options)).toBeUndefined();
    api.ClientCreateOptions_Drop(options);
    api.ClientCreateOptions_Drop(copy);
  });

  it('creates a client from every option and reports the documented defaults', async () => {
    await using client = new Client({
      backend,
      apiBase: 'http://127.0.0.1:1/api/v10',
      webBase: 'http://127.0.0.1:1',
      caFile: '',
      cpuAffinityMask: 1n,
      experimentalAudioSystem: AudioSystem.Standard,
      androidPreventCommsForBluetooth: false,
    });
    expect(client.status).toBe(ClientStatus.Disconnected);
    expect(client.applicationId).toBe(0n);
    expect(client.httpRequestTimeoutMs).toBe(30000);
  });

  it('sets applicationId and httpRequestTimeoutMs from options and setters', async () => {
    await using client = new Client({ backend, applicationId: 1234567890123456789n, httpRequestTimeoutMs: 5000 });
    expect(client.applicationId).toBe(1234567890123456789n);
    expect(client.httpRequestTimeoutMs).toBe(5000);
    client.httpRequestTimeoutMs = 1;
    expect(client.httpRequestTimeoutMs).toBe(1);
  });

  it('rejects an out-of-range timeout with ERR_SVCPP_INVALID_ARGUMENT and keeps the old value', async () => {
    await using client = new Client({ backend });
    expect(() => {
      client.httpRequestTimeoutMs = 0;
    }).toThrow(expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }));
    expect(() => new Client({ backend, httpRequestTimeoutMs: -5 })).toThrow(SvcppError);
    expect(client.httpRequestTimeoutMs).toBe(30000);
  });

  it('rejects an over-limit apiBase with ERR_SVCPP_INVALID_ARGUMENT', () => {
    expect(() => new Client({ backend, apiBase: 'x'.repeat(2049) })).toThrow(
      expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }),
    );
  });

  it('exposes the default scopes and the version', () => {
    expect(Client.defaultCommunicationScopes).toBe('openid sdk.social_layer');
    expect(Client.defaultPresenceScopes).toBe('openid sdk.social_layer_presence');
    const api = loadBackend(backend);
    expect(api.Client_GetDefaultPresenceScopes()).toBe('openid sdk.social_layer_presence');
    expect(Client.version).toMatchObject({ major: 0, minor: 1, patch: 0 });
    expect(api.Client_StatusToString(ClientStatus.HttpWait)).toBe('HttpWait');
  });

  it('creates a PKCE S256 pair: 43-char verifier, challenge = base64url(sha256(verifier))', async () => {
    await using client = new Client({ backend });
    const { verifier, challenge } = client.createAuthorizationCodeVerifier();
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(challenge.method).toBe(AuthenticationCodeChallengeMethod.S256);
    expect(challenge.challenge).toBe(createHash('sha256').update(verifier).digest('base64url'));
    expect(client.createAuthorizationCodeVerifier().verifier).not.toBe(verifier);
  });

  it('delivers log events after setApplicationId', async () => {
    await using client = new Client({ backend });
    const line = nextLog(client, /application id/);
    client.applicationId = 42n;
    expect(await line).toEqual(['application id set to 42', LoggingSeverity.Info]);
  });

  it('filters log events below logMinSeverity', async () => {
    await using client = new Client({ backend, logMinSeverity: LoggingSeverity.Warning });
    const lines: string[] = [];
    client.on('log', (message) => lines.push(message));
    client.applicationId = 7n; // an Info line: filtered out
    client.logMinSeverity = LoggingSeverity.Verbose;
    const line = nextLog(client, /timeout/);
    client.httpRequestTimeoutMs = 1234;
    await line;
    // Only the lines these setters log (native/SEMANTICS.md "Callbacks"); others may come from the I/O thread, e.g.
    // the local-client search that setting the application id starts.
    expect(lines.filter((l) => /^(application id set to|HTTP request timeout set to) /.test(l))).toEqual([
      'HTTP request timeout set to 1234 ms',
    ]);
  });

  it('stops delivering when the last log listener is removed', async () => {
    await using client = new Client({ backend });
    const lines: string[] = [];
    const listener = (message: string) => lines.push(message);
    client.on('log', listener);
    client.off('log', listener);
    const other = new Client({ backend });
    const line = nextLog(other, /application id/);
    client.applicationId = 1n;
    other.applicationId = 2n;
    await line; // the other client's line arrived, so ours was pumped too if it were registered
    await other.close();
    expect(lines).toEqual([]);
  });

  it('rejects an unknown log severity with ERR_SVCPP_INVALID_ARGUMENT', async () => {
    await using client = new Client({ backend });
    expect(() => client.on('log', () => {})).not.toThrow();
    expect(() => {
      client.logMinSeverity = 99 as LoggingSeverity;
    }).toThrow(expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }));
  });

  it('throws ERR_SVCPP_CLOSED after close(), and close() is idempotent', async () => {
    const client = new Client({ backend });
    await client.close();
    await client.close();
    expect(client.closed).toBe(true);
    for (const use of [
      () => client.status,
      () => client.applicationId,
      () => {
        client.applicationId = 1n;
      },
      () => client.createAuthorizationCodeVerifier(),
      () => client.httpRequestTimeoutMs,
    ]) {
      expect(use).toThrow(expect.objectContaining({ name: 'SvcppError', code: 'ERR_SVCPP_CLOSED' }));
    }
  });

  it('throws ERR_SVCPP_INVALID_HANDLE for a dropped native client handle', () => {
    const api = loadBackend(backend);
    const handle = api.Client_Init();
    api.Client_Drop(handle);
    expect(api.Client_IsValid(handle)).toBe(false);
    expect(() => api.Client_SetApplicationId(handle, 1n)).toThrow(
      expect.objectContaining({ code: 'ERR_SVCPP_INVALID_HANDLE' }),
    );
    expect(() => api.Client_Drop(handle)).not.toThrow();
  });

  it('rethrows an exception thrown by a callback from the pump that ran it', () => {
    const api = loadBackend(backend);
    const handle = api.Client_Init();
    api.Client_AddLogCallback(handle, LoggingSeverity.Info, () => {
      throw new Error('from the callback');
    });
    api.Client_SetApplicationId(handle, 3n);
    expect(() => api.Client_RunCallbacks(handle)).toThrow('from the callback');
    api.Client_Drop(handle);
  });

  it('maps a ClientResult to SvcppResultError with stable code and fields', () => {
    const api = loadBackend(backend);
    const result = api.ClientResult_Init();
    expect(resultError(api, result)).toBeUndefined();
    api.ClientResult_SetType(result, ErrorType.HTTPError);
    api.ClientResult_SetError(result, 'Too Many Requests');
    api.ClientResult_SetStatus(result, HttpStatusCode.TooManyRequests);
    api.ClientResult_SetErrorCode(result, 20028);
    api.ClientResult_SetRetryable(result, true);
    api.ClientResult_SetRetryAfter(result, 1.5);
    api.ClientResult_SetResponseBody(result, '{"code":20028}');
    const error = resultError(api, result)!;
    expect(error).toBeInstanceOf(SvcppResultError);
    expect(error).toMatchObject({
      code: 'ERR_SVCPP_HTTP',
      type: ErrorType.HTTPError,
      message: 'Too Many Requests',
      status: 429,
      errorCode: 20028,
      retryable: true,
      retryAfter: 1.5,
      responseBody: '{"code":20028}',
    });
    api.ClientResult_Drop(result);
  });
});
