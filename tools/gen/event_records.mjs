// Event records: the batched pump of FFI hosts, Svcpp_Client_DrainEvents (native/capi/event_records.cpp, rules in
// native/SEMANTICS.md "Event records"). While a drain runs, the recordable events are written into the caller's
// buffer instead of calling the host. This module decides from the IDL which callbacks are recordable and generates
//   - the recording branch of their C wrappers (native/capi/generated/callback_wrappers.hpp, via capi.mjs),
//   - the declaration and the layout (svcpp.h, via c_header.mjs) and the exported symbol (symbols.mjs),
//   - the JavaScript decoders of their records (bindings/koffi/generated.ts, via koffi.mjs),
// so the writer and the readers cannot disagree.
import { parseType, PREFIX } from './model.mjs';
import { eventPayload } from './snapshots.mjs';

export const DRAIN_EVENTS = `${PREFIX}Client_DrainEvents`;

/** Argument kinds a record can carry: the scalars and strings of the packed snapshot layout. */
const RECORDABLE_KINDS = new Set(['u64', 'bool', 'i32', 'u32', 'enum', 'string']);

/**
 * The callbacks whose events are recorded: every use is the nullable callback of a Client `Set…Callback` (a
 * single-slot event: one registration per job, so a job records at most once), delivered by the pump, and every
 * argument is a scalar or a string (nothing borrowed that the host would have to clone).
 * @returns {Set<object>} the callback objects of the model
 */
export function recordableCallbacks(model) {
  const uses = new Map();
  for (const fn of model.functions) {
    for (const p of fn.params) {
      if (p.role !== 'cb') continue;
      const list = uses.get(p.callback) ?? [];
      list.push({ fn, p });
      uses.set(p.callback, list);
    }
  }
  const recordable = new Set();
  for (const [cb, list] of uses) {
    if (cb.raw || cb.thread !== 'pump') continue;
    if (!cb.params.every((a) => RECORDABLE_KINDS.has(parseType(a.type).kind))) continue;
    if (!list.every(({ fn, p }) => fn.owner?.kind === 'client' && p.nullable && /^Set\w*Callback$/.test(fn.member)))
      continue;
    recordable.add(cb);
  }
  return recordable;
}

/** Exported symbols this adds to libsvcpp. */
export const eventRecordSymbols = () => [DRAIN_EVENTS];

const LAYOUT_DOC = `Event record layout: each record starts at a multiple of 8 bytes from the buffer's start: uint32 record size
 * (a multiple of 8, header included), uint32 0, uint64 the registration's userData; then the callback's arguments in
 * its parameter order in the packed snapshot layout (enums as int32, bool 1 byte, string uint32 byte count + UTF-8
 * bytes); for an event with a payload (marked below) a presence byte and, when 1, the payload's lookup snapshot
 * starting at the next multiple of 8; padding bytes are 0.`;

/** svcpp.h: the declaration, in a block of its own. */
export function eventRecordDeclarations(model) {
  const names = [...recordableCallbacks(model)].map((cb) => {
    const payload = eventPayload(model, cb);
    return `${cb.cName}${payload ? ` (payload: ${payload.f.fn.cName}_WriteSnapshot(${payload.args.join(', ')}))` : ''}`;
  });
  return `/* ---- Event records (native/SEMANTICS.md "Event records") ------------------------------------------ */

/* ${LAYOUT_DOC}
 *
 * Recorded callbacks: ${names.join(',\n *   ')}.
 */

/** Svcpp_Client_RunCallbacksUpTo for FFI hosts: a recorded callback's event is appended to buffer as a record
 *  instead of calling it; other jobs (completions, log lines, …) call their callbacks as usual. Returns after a job
 *  that called a callback of the host (or recorded nothing), so the records of one call come before every callback it
 *  made; after maxCallbacks jobs; when the queue is empty; or when the next record does not fit (it stays queued).
 *  Ok: *size = the bytes of the complete records written; when the first record alone exceeds capacity, *size is its
 *  size (> capacity) and nothing ran: call again with at least that much. size NULL, or buffer NULL with capacity > 0:
 *  NullArgument; maxCallbacks 0: InvalidArgument; dropped or zeroed client: InvalidHandle; nested or concurrent pump
 *  of the client: Busy (as RunCallbacks). */
SVCPP_API ${PREFIX}Errc SVCPP_CALL ${DRAIN_EVENTS}(${PREFIX}Client *self, uint32_t maxCallbacks, uint8_t *buffer, size_t capacity,
    size_t *size);

`;
}

// ---- C++: the recording branch of a callback wrapper ----

/** The SnapshotWriter call appending a callback argument (a core value named `name`) of IDL type t. */
function writeArg(t, name) {
  switch (parseType(t).kind) {
    case 'string':
      return `w.String(reinterpret_cast<const uint8_t *>(${name}.data()), ${name}.size());`;
    case 'enum':
      return `w.I32(static_cast<int32_t>(${name}));`;
    case 'i32':
      return `w.I32(${name});`;
    case 'u32':
      return `w.U32(${name});`;
    case 'u64':
      return `w.U64(${name});`;
    case 'bool':
      return `w.Bool(${name});`;
    default:
      throw new Error(`event_records: no record layout for ${t}`);
  }
}

/**
 * Lines put first in the wrapper's lambda of a recordable callback (empty for the others): inside a drain the event
 * becomes a record and the host's function is not called.
 */
export function recordingBranch(model, cb) {
  if (!recordableCallbacks(model).has(cb)) return [];
  const args = cb.params.map((a) => writeArg(a.type, a.name)).join(' ');
  const payload = eventPayload(model, cb);
  const writePayload = payload
    ? `[&](Svcpp_Client const *client, uint8_t *buffer, size_t capacity, size_t *size) { return ${payload.f.fn.cName}_WriteSnapshot(${['client', ...payload.args, 'buffer', 'capacity', 'size'].join(', ')}); }`
    : 'NoPayload{}';
  return [
    'if (auto *sink = EventRecordSink::Active()) {  // inside Svcpp_Client_DrainEvents: a record, not a call',
    `    sink->Record(userData, [&](SnapshotWriter &w) { ${args || '(void)w;'} }, ${writePayload});`,
    '    return;',
    '}',
  ];
}

// ---- JavaScript: the decoders (bindings/koffi) ----

/** JS expression reading one record argument of IDL type t with the SnapshotReader `r`. */
function readArg(t) {
  switch (parseType(t).kind) {
    case 'string':
      return 'r.string()';
    case 'enum':
    case 'i32':
      return 'r.i32()';
    case 'u32':
      return 'r.u32()';
    case 'u64':
      return 'r.u64()';
    case 'bool':
      return 'r.bool()';
    default:
      throw new Error(`event_records: no record layout for ${t}`);
  }
}

/**
 * For a recordable callback: the JS function `(r: SnapshotReader, userData: bigint) => void` that reads one record's
 * arguments (and payload) and hands them to the JS function `fnName` through callbacks.deliverRecord (in queue order,
 * and only while the registration is still current); undefined for the others.
 */
export function recordDecoder(model, cb, fnName) {
  if (!recordableCallbacks(model).has(cb)) return undefined;
  const args = cb.params.map((a) => readArg(a.type));
  const payload = eventPayload(model, cb);
  if (payload) args.push(`(r.present() ? read${payload.target}(r.alignTo8()) : undefined)`);
  return `(r: SnapshotReader, userData: bigint) => callbacks.deliverRecord(${['userData', fnName, ...args].join(', ')})`;
}
