// Audio devices as snapshots (docs/voice.md "Devices"): plain data read from the native AudioDevice values, which
// are dropped at once. Besides the system's devices every machine has "null" (silence / discard) and accepts
// "file:<path>" (a 48 kHz PCM WAV file as microphone; a WAV file that records what is played).
import type { NativeApi, NativeHandle } from '../../contract/native-api.js';
import type { AudioDeviceSnapshot } from '../../contract/snapshots.js';
export type { AudioDeviceSnapshot } from '../../contract/snapshots.js';

/** Reads an AudioDevice into a snapshot and drops it: one crossing (AudioDevice_Snapshot). */
export function takeAudioDevice(api: NativeApi, handle: NativeHandle<'AudioDevice'>): AudioDeviceSnapshot {
  return api.AudioDevice_Snapshot(handle, true);
}

export function takeAudioDevices(api: NativeApi, handles: NativeHandle<'AudioDevice'>[]): AudioDeviceSnapshot[] {
  return handles.map((h) => takeAudioDevice(api, h));
}

/** The WAV file device id for a path. */
export const fileDevice = (path: string): string => `file:${path}`;
