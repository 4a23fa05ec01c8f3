// The generated Snapshot entry points on both backends: every getter in one object, `drop` ends the handle in the
// same call, and misuse is refused like any getter's (native/SEMANTICS.md "Snapshots").
import { describe, expect, it } from 'vitest';
import { AudioSystem } from '../lib/index.js';
import type { NativeHandle } from '../contract/native-api.js';
import { loadBackend } from '../lib/loader.js';
import { BACKENDS } from './backends.js';

describe.each(BACKENDS)('snapshots over %s', (backend) => {
  const api = loadBackend(backend);

  it('reads every getter into one object', () => {
    const options = api.ClientCreateOptions_Init();
    try {
      api.ClientCreateOptions_SetApiBase(options, 'https://api.test');
      api.ClientCreateOptions_SetCpuAffinityMask(options, 3n);
      expect(api.ClientCreateOptions_Snapshot(options)).toEqual({
        apiBase: 'https://api.test',
        webBase: '',
        caFile: '',
        experimentalAudioSystem: AudioSystem.Standard,
        experimentalAndroidPreventCommsForBluetooth: false,
        cpuAffinityMask: 3n,
        ipcPath: '',
      });
      // Without drop the handle stays usable.
      expect(api.ClientCreateOptions_ApiBase(options)).toBe('https://api.test');
    } finally {
      api.ClientCreateOptions_Drop(options);
    }
  });

  it('reads a snapshot bigger than any preallocated buffer, and strings longer than the string buffer', () => {
    // 4,096 code points of 4 bytes: 16 KiB per string, 32 KiB in all (koffi's reader starts at 16 KiB and its string
    // buffer holds 4 KiB: both take their fallback path).
    const long = '😀'.repeat(4096);
    const ipcPath = `${'😀'.repeat(4091)}.sock`;
    const options = api.ClientCreateOptions_Init();
    try {
      api.ClientCreateOptions_SetCaFile(options, long);
      api.ClientCreateOptions_SetIpcPath(options, ipcPath);
      expect(api.ClientCreateOptions_CaFile(options)).toBe(long);
      expect(api.ClientCreateOptions_Snapshot(options)).toMatchObject({ caFile: long, ipcPath, apiBase: '' });
      // And a small one after it still reads right (the grown buffer is reused).
      api.ClientCreateOptions_SetCaFile(options, 'ca.pem');
      expect(api.ClientCreateOptions_Snapshot(options)).toMatchObject({ caFile: 'ca.pem', ipcPath });
    } finally {
      api.ClientCreateOptions_Drop(options);
    }
  });

  it('reads nested objects into nested snapshots', () => {
    const activity = api.Activity_Init();
    const party = api.ActivityParty_Init();
    try {
      api.Activity_SetName(activity, 'Game');
      api.ActivityParty_SetId(party, 'p1');
      api.ActivityParty_SetCurrentSize(party, 2);
      api.Activity_SetParty(activity, party);
      const data = api.Activity_Snapshot(activity);
      expect(data).toMatchObject({ name: 'Game', party: { id: 'p1', currentSize: 2 }, assets: undefined, buttons: [] });
    } finally {
      api.ActivityParty_Drop(party);
      api.Activity_Drop(activity);
    }
  });

  it('drop ends the handle in the same call', () => {
    const options = api.ClientCreateOptions_Init();
    expect(api.ClientCreateOptions_Snapshot(options, true)).toMatchObject({ apiBase: '' });
    expect(() => api.ClientCreateOptions_ApiBase(options)).toThrow(
      expect.objectContaining({ code: 'ERR_SVCPP_INVALID_HANDLE' }),
    );
    expect(() => api.ClientCreateOptions_Snapshot(options)).toThrow(
      expect.objectContaining({ code: 'ERR_SVCPP_INVALID_HANDLE' }),
    );
  });

  it('a handle of another type is refused', () => {
    const args = api.AuthorizationArgs_Init();
    try {
      const wrong = args as unknown as NativeHandle<'ClientCreateOptions'>;
      expect(() => api.ClientCreateOptions_Snapshot(wrong)).toThrow(
        expect.objectContaining({ code: 'ERR_SVCPP_INVALID_HANDLE' }),
      );
      expect(() => api.ClientCreateOptions_Snapshot(wrong, true)).toThrow(
        expect.objectContaining({ code: 'ERR_SVCPP_INVALID_HANDLE' }),
      );
      // The refused drop did not end the other handle.
      expect(api.AuthorizationArgs_Scopes(args)).toBe('');
    } finally {
      api.AuthorizationArgs_Drop(args);
    }
  });

  it('a lookup snapshot answers undefined when the lookup finds nothing', () => {
    const client = api.Client_Init();
    try {
      // Offline: no user, lobby or message is cached, and no connection failed yet.
      expect(api.Client_GetUser_Snapshot(client, 1n)).toBeUndefined();
      expect(api.Client_GetLobbyHandle_Snapshot(client, 1n)).toBeUndefined();
      expect(api.Client_GetMessageHandle_Snapshot(client, 1n)).toBeUndefined();
      expect(api.Client_GetCurrentUserV2_Snapshot(client)).toBeUndefined();
      expect(api.Client_GetLastConnectionFailure_Snapshot(client)).toBeUndefined();
    } finally {
      api.Client_Drop(client);
    }
  });

  it('a lookup snapshot treats a dropped client, a handle of another type and a bad id like the lookup does', () => {
    const client = api.Client_Init();
    api.Client_Drop(client);
    // A dropped (zeroed) client finds nothing, as its lookups do.
    expect(api.Client_GetUser(client, 1n)).toBeUndefined();
    expect(api.Client_GetUser_Snapshot(client, 1n)).toBeUndefined();
    const args = api.AuthorizationArgs_Init();
    try {
      const wrong = args as unknown as NativeHandle<'Client'>;
      expect(() => api.Client_GetUser_Snapshot(wrong, 1n)).toThrow(
        expect.objectContaining({ code: 'ERR_SVCPP_INVALID_HANDLE' }),
      );
    } finally {
      api.AuthorizationArgs_Drop(args);
    }
    const live = api.Client_Init();
    try {
      expect(() => api.Client_GetUser_Snapshot(live, -1n)).toThrow(
        expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }),
      );
      expect(() => api.Client_GetUser(live, -1n)).toThrow(
        expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }),
      );
    } finally {
      api.Client_Drop(live);
    }
  });
});
