// Reads the packed snapshots the C ABI writes (Svcpp_<T>_WriteSnapshot, native/SEMANTICS.md "Snapshots") out of one
// preallocated buffer: koffi passes a Buffer's memory to C as it is, so a whole object costs one FFI call and a walk
// over bytes in JavaScript, where reading it getter by getter cost one FFI call, a string decode and a free per field.
// The per-type readers (readUserHandle …) are generated next to the calls (bindings/koffi/generated.ts).

/** Bytes the buffer starts with: a user with an activity and a few profiles fits; a bigger snapshot grows it. */
const INITIAL_CAPACITY = 16 * 1024;

export class SnapshotReader {
  /** The buffer passed as `buffer` to every WriteSnapshot call (and its capacity). */
  buffer!: Buffer;
  /** The size_t the call writes the snapshot's size into (passed as `size`). */
  readonly sizeOut = new BigUint64Array(1);
  private i32s!: Int32Array;
  private u32s!: Uint32Array;
  private f32s!: Float32Array;
  private u64s!: BigUint64Array;
  private pos = 0;

  /** capacity: the bytes to start with (the event records' buffer starts bigger: a drain fills it with many). */
  constructor(capacity = INITIAL_CAPACITY) {
    this.allocate(capacity);
  }

  get capacity(): number {
    return this.buffer.length;
  }

  /**
   * After a call that returned Ok: true when the snapshot did not fit (the buffer has grown to hold it: call again),
   * false when it is in the buffer, ready to read from the start.
   */
  needsRetry(): boolean {
    const size = Number(this.sizeOut[0]);
    this.pos = 0;
    if (size <= this.buffer.length) return false;
    this.allocate(2 ** Math.ceil(Math.log2(size)));
    return true;
  }

  /** The size the last call reported (0: a lookup that found nothing). */
  size(): number {
    return Number(this.sizeOut[0]);
  }

  private allocate(capacity: number): void {
    // Its own ArrayBuffer at offset 0 (not a slice of Node's pool), so the layout's alignment holds in the views.
    const memory = new ArrayBuffer(capacity);
    this.buffer = Buffer.from(memory);
    this.i32s = new Int32Array(memory);
    this.u32s = new Uint32Array(memory);
    this.f32s = new Float32Array(memory);
    this.u64s = new BigUint64Array(memory);
  }

  /** Moves to byte `pos` of the buffer (the start of an event record, Svcpp_Client_DrainEvents). */
  seek(pos: number): void {
    this.pos = pos;
  }

  /** Skips to the next multiple of 8 (where an event record's payload snapshot starts); returns the reader. */
  alignTo8(): this {
    this.pos = (this.pos + 7) & ~7;
    return this;
  }

  // ---- the layout's values, in order (see native/SEMANTICS.md "Snapshots") ----

  bool(): boolean {
    return this.buffer[this.pos++] !== 0;
  }

  /** The presence byte of an optional value. */
  present(): boolean {
    return this.buffer[this.pos++] !== 0;
  }

  i32(): number {
    const at = (this.pos + 3) >>> 2;
    this.pos = (at + 1) << 2;
    return this.i32s[at]!;
  }

  u32(): number {
    const at = (this.pos + 3) >>> 2;
    this.pos = (at + 1) << 2;
    return this.u32s[at]!;
  }

  f32(): number {
    const at = (this.pos + 3) >>> 2;
    this.pos = (at + 1) << 2;
    return this.f32s[at]!;
  }

  u64(): bigint {
    const at = (this.pos + 7) >>> 3;
    this.pos = (at + 1) << 3;
    return this.u64s[at]!;
  }

  string(): string {
    const size = this.u32();
    if (size === 0) return '';
    const start = this.pos;
    this.pos += size;
    return this.buffer.toString('utf8', start, this.pos);
  }

  /** A map as a plain object (fromEntries: a "__proto__" key stays an entry, as everywhere else). */
  properties(): Record<string, string> {
    const count = this.u32();
    if (count === 0) return {};
    const entries: Array<[string, string]> = [];
    for (let i = 0; i < count; i++) entries.push([this.string(), this.string()]);
    return Object.fromEntries(entries);
  }

  u64List(): bigint[] {
    const count = this.u32();
    const ids: bigint[] = [];
    for (let i = 0; i < count; i++) ids.push(this.u64());
    return ids;
  }

  list<T>(read: (reader: SnapshotReader) => T): T[] {
    const count = this.u32();
    const items: T[] = [];
    for (let i = 0; i < count; i++) items.push(read(this));
    return items;
  }
}
