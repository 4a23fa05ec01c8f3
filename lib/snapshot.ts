// How every snapshot is taken: read a native handle into plain data, then drop the handle at once (also when a
// read throws), so a snapshot never pins native memory.
export function takeSnapshot<H, T>(handle: H, read: (handle: H) => T, drop: (handle: H) => void): T {
  try {
    return read(handle);
  } finally {
    drop(handle);
  }
}
