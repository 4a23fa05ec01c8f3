// Hand-written helpers of lib/client.ts that read or build native value objects for one call: each creates what it
// needs, uses it and drops it before returning (also when the call throws), so no native value outlives the call.
import type { NativeApi, NativeHandle } from '../../contract/native-api.js';
import { toNativeActivity, toNativeInvite, type Activity, type ActivityInvite } from '../presence.js';
import type { AuthorizationCodeVerifierSnapshot } from './types.js';

/** A fresh PKCE S256 pair read into a snapshot (the native pair and its challenge are dropped). */
export function createCodeVerifier(api: NativeApi, client: NativeHandle<'Client'>): AuthorizationCodeVerifierSnapshot {
  const pair = api.Client_CreateAuthorizationCodeVerifier(client);
  try {
    const challenge = api.AuthorizationCodeVerifier_Challenge(pair);
    try {
      return {
        verifier: api.AuthorizationCodeVerifier_Verifier(pair),
        challenge: {
          method: api.AuthorizationCodeChallenge_Method(challenge),
          challenge: api.AuthorizationCodeChallenge_Challenge(challenge),
        },
      };
    } finally {
      api.AuthorizationCodeChallenge_Drop(challenge);
    }
  } finally {
    api.AuthorizationCodeVerifier_Drop(pair);
  }
}

/** use(the native copy of `invite`), dropped afterwards. */
export function withNativeInvite(
  api: NativeApi,
  invite: ActivityInvite,
  use: (native: NativeHandle<'ActivityInvite'>) => void,
): void {
  const native = toNativeInvite(api, invite);
  try {
    use(native);
  } finally {
    api.ActivityInvite_Drop(native);
  }
}

/** use(the native copy of `activity`), dropped afterwards. */
export function withNativeActivity(
  api: NativeApi,
  activity: Activity,
  use: (native: NativeHandle<'Activity'>) => void,
): void {
  const native = toNativeActivity(api, activity);
  try {
    use(native);
  } finally {
    api.Activity_Drop(native);
  }
}
