// Audio devices as snapshots (docs/voice.md "Devices"): plain data read from the native AudioDevice values, which
// are dropped at once. Besides the system's devices every machine has "null" (silence / discard) and accepts
// "file:<path>" (a 48 kHz PCM WAV file as microphone; a WAV file that records what is played).
import type { NativeApi, NativeHandle } from '../generated/native-api.js';
import { takeSnapshot } from '../snapshot.js';
import type { AudioDeviceSnapshot } from '../generated/snapshots.js';
export type { AudioDeviceSnapshot } from '../generated/snapshots.js';

export function takeAudioDevice(api: NativeApi, handle: NativeHandle<'AudioDevice'>): AudioDeviceSnapshot {
  return takeSnapshot(handle, (h) => ({ id: api.AudioDevice_Id(h), name: api.AudioDevice_Name(h), isDefault: api.AudioDevice_IsDefault(h) }),
    (h) => api.AudioDevice_Drop(h));
}

export function takeAudioDevices(api: NativeApi, handles: NativeHandle<'AudioDevice'>[]): AudioDeviceSnapshot[] {
  return handles.map((h) => takeAudioDevice(api, h));
}

/** The WAV file device id for a path. */
export const fileDevice = (path: string): string => `file:${path}`;
