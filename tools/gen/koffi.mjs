// bindings/koffi/generated.ts — koffi declarations of svcpp.h and the NativeApi implementation over them — and
// bindings/koffi/errc.ts, the Svcpp_Errc values the binding raises itself. The hand-written half (values, handles,
// callback registrations, deferred delivery, the pump) is put together by bindings/koffi/runtime.ts.
import { GENERATED } from './text.mjs';
import { jsFunctions, tsType } from './js_surface.mjs';
import { parseType, PREFIX } from './model.mjs';
import { eventPayload } from './snapshots.mjs';
import { cSnapshotEntryPoints, snapshotReaderSource } from './c_snapshots.mjs';
import { DRAIN_EVENTS, recordDecoder } from './event_records.mjs';

const SCALAR = {
  bool: 'bool',
  i32: 'int32_t',
  u32: 'uint32_t',
  u64: 'uint64_t',
  f32: 'float',
  voidptr: 'void *',
  samples: 'int16_t *',
  boolref: 'bool *',
};

/** koffi spelling of a value type (enums are int32_t aliases named like the C enum). */
function kType(model, t) {
  const p = parseType(t);
  if (p.kind === 'string') return `${PREFIX}String`;
  if (['enum', 'obj', 'cb', 'list', 'map'].includes(p.kind)) return model.cType(t);
  return SCALAR[p.kind];
}

/** koffi prototype of one C parameter, with the direction markers koffi needs to write outputs back. */
function kParam(model, p) {
  const t = parseType(p.type);
  const type = kType(model, p.type);
  switch (p.role) {
    // A handle is always the Buffer of its struct (KoffiHandles.handle checked its type): as "void *" koffi passes the
    // Buffer's memory as it is, where a struct pointer type costs a conversion on every call (bench/sync-call.ts).
    case 'self':
      return `void *${p.name}`;
    case 'cb':
    case 'cbFree':
      return `${type} *${p.name}`;
    case 'cbData':
      return `void *${p.name}`;
    // String and handle outputs are preallocated Buffers (KoffiMarshal.stringOut, KoffiHandles.newHandleStruct),
    // written in place.
    case 'out':
      return ['string', 'obj'].includes(t.kind) ? `void *${p.name}` : `_Out_ ${type} *${p.name}`;
    case 'in': {
      // Input strings use the StringIn view of Svcpp_String so koffi encodes the JS string as UTF-8; input maps
      // the PropertiesIn view of Svcpp_Properties (arrays of StringIn). Input spans carry JS arrays in ptr.
      const inType = t.kind === 'string' ? `${PREFIX}StringIn` : t.kind === 'map' ? `${PREFIX}PropertiesIn` : type;
      if (t.kind === 'obj' || p.optional) return `const ${inType} *${p.name}`;
      return `${inType} ${p.name}`;
    }
    default:
      throw new Error(`unknown role ${p.role}`);
  }
}

function kReturn(model, fn) {
  switch (fn.ret) {
    case 'errc':
      return `${PREFIX}Errc`;
    case 'optional':
      return 'bool';
    case 'cstr':
      return 'const char *';
    case 'value':
      return kType(model, fn.valueType);
    default:
      throw new Error(`unknown return ${fn.ret}`);
  }
}

const prototype = (model, fn) =>
  `${kReturn(model, fn)} ${fn.cName}(${fn.params.length ? fn.params.map((p) => kParam(model, p)).join(', ') : 'void'})`;

/** TypeScript type of a callback argument as koffi delivers it (before fromC converts it). */
const KOFFI_ARG_TS = {
  string: 'StringOut',
  u64: 'bigint | number',
  bool: 'boolean',
  obj: 'unknown',
  list: 'SpanOut',
  map: 'PropertiesOut',
};

/** JS expression converting a C value of IDL type t (a callback argument or a getter result) to JS. */
function fromC(t, expr, borrowed) {
  const p = parseType(t);
  if (p.kind === 'string') return borrowed ? `marshal.borrowString(${expr})` : `marshal.takeString(${expr})`;
  if (p.kind === 'u64') return `marshal.u64Out(${expr})`;
  if (p.kind === 'map') return borrowed ? `marshal.borrowProperties(${expr})` : `marshal.takeProperties(${expr})`;
  if (p.kind === 'list' && p.elem.kind === 'u64')
    return borrowed ? `marshal.borrowU64Span(${expr})` : `marshal.takeU64Span(${expr})`;
  // An object handed to a callback is borrowed for the call: JavaScript gets its own copy.
  if (p.kind === 'obj' && borrowed) return `handles.cloneBorrowed('${p.name}', ${expr}, c.${PREFIX}${p.name}_Clone)`;
  if (p.kind === 'obj') return `handles.adopt('${p.name}', ${expr})`;
  // Spans likewise: copies of borrowed elements; a result's elements are adopted and only its buffer freed.
  if (p.kind === 'list' && borrowed)
    return `handles.cloneSpan('${p.name}', '${PREFIX}${p.name}', ${expr}, c.${PREFIX}${p.name}_Clone)`;
  if (p.kind === 'list') return `handles.adoptSpan('${p.name}', '${PREFIX}${p.name}', ${expr})`;
  return expr;
}

/** JS expression converting a JS argument to the C argument koffi expects. */
function toC(p) {
  const t = parseType(p.type);
  const n = p.name;
  let conv;
  switch (t.kind) {
    case 'string':
      return p.optional ? `marshal.optionalStr(${n})` : `marshal.str(${n})`;
    // maps and spans are never optional inputs (the model rejects it)
    case 'map':
      return `marshal.properties(${n})`;
    case 'list':
      return t.elem.kind === 'u64' ? `marshal.u64Span(${n})` : `handles.handleSpan('${t.name}', ${n})`;
    case 'obj':
      conv = `handles.handle('${t.name}', ${n})`;
      return p.optional ? `(${n} == null ? null : ${conv})` : conv;
    case 'u64':
      conv = `marshal.u64(${n})`;
      break;
    case 'bool':
      conv = `marshal.bool(${n})`;
      break;
    default:
      conv = `marshal.int(${n})`;
  }
  return p.optional ? `(${n} == null ? null : [${conv}])` : conv;
}

/** Empty out-param holder of IDL type t. */
function outHolder(t) {
  const p = parseType(t);
  // Preallocated (see KoffiMarshal.stringOut, KoffiHandles.newHandleStruct): koffi passes a Buffer's memory as the
  // pointer instead of converting a JS object to C and back on every call.
  if (p.kind === 'string') return 'marshal.stringOut()';
  if (p.kind === 'obj') return 'handles.newHandleStruct()';
  if (p.kind === 'list') return '{ ptr: null, size: 0 } as SpanOut';
  if (p.kind === 'map') return '{ size: 0, keys: null, values: null } as PropertiesOut';
  if (p.kind === 'u64') return '[0n] as unknown[]';
  if (p.kind === 'bool') return '[false] as boolean[]';
  return '[0] as number[]';
}
const outValue = (t, name) => (['string', 'obj', 'list', 'map'].includes(parseType(t).kind) ? name : `${name}[0]`);
/**
 * JS expression converting an out-param holder of IDL type t to its JS value (a string holder is the shared Buffer).
 */
const fromOut = (t, name) =>
  parseType(t).kind === 'string' ? `marshal.takeStringOut(${name})` : fromC(t, outValue(t, name), false);

function method(model, f) {
  const { fn } = f;
  const lines = [];
  const args = [];
  const regs = [];
  let outName;
  let selfName;
  for (const p of fn.params) {
    if (p.role === 'self' && p.uninit) {
      selfName = 'created';
      lines.push('const created = handles.newHandleStruct();');
      args.push('created');
    } else if (p.role === 'self' || p.role === 'in') {
      // Converted before any callback is registered, so a bad argument cannot leak a registration.
      lines.push(`const ${p.name}C = ${p.role === 'self' ? `handles.handle('${fn.owner.name}', ${p.name})` : toC(p)};`);
      args.push(`${p.name}C`);
    } else if (p.role === 'cb') {
      const cb = p.callback;
      // The arguments are converted now (borrowed data dies with the callback); the JS function itself runs once the
      // native pump has returned (delivery.deliver), so user code never runs inside a native callback frame.
      const deliver = withPayload(model, cb, p.name, fn.params.find((q) => q.role === 'self')?.name);
      const call = `delivery.deliver(${[deliver, ...cb.params.map((a) => fromC(a.type, a.name, true))].join(', ')})`;
      const typed = cb.params.map((a) => `${a.name}: ${KOFFI_ARG_TS[parseType(a.type).kind] ?? 'number'}`);
      const reg = `${p.name}Registration`;
      regs.push(reg);
      // A recorded event (event_records.mjs) also gets the decoder of its records: the pump's drains deliver it from
      // the record (payload included); the trampoline stays for pumps that call it (Svcpp_RunCallbacks …).
      const decoder = recordDecoder(model, cb, p.name);
      const register = `callbacks.register(${[`(${typed.join(', ')}) => ${call}`, `protos.${cb.cName}`, ...(decoder ? [decoder] : [])].join(', ')})`;
      if (p.nullable) lines.push(`const ${reg} = ${p.name} === null ? null : ${register};`);
      else lines.push(`marshal.fn(${p.name});`, `const ${reg} = ${register};`);
      args.push(p.nullable ? `${reg} ? ${reg}.pointer : null` : `${reg}.pointer`);
    } else if (p.role === 'cbFree' || p.role === 'cbData') {
      const reg = regs[regs.length - 1];
      const value = p.role === 'cbFree' ? 'callbacks.freeFn' : `${reg}.userData`;
      args.push(
        fn.params.find((q) => q.role === 'cb' && `${q.name}Registration` === reg).nullable
          ? `${reg} ? ${value} : null`
          : value,
      );
    } else if (p.role === 'out') {
      outName = p.name;
      lines.push(`const ${p.name} = ${outHolder(p.type)};`);
      args.push(p.name);
    }
  }
  const isClient = fn.owner?.name === 'Client';
  const native = fn.op === 'drop' && isClient ? `pumps.dropClient(${args[0]})` : `c.${fn.cName}(${args.join(', ')})`;
  // Calls that can run JS callbacks synchronously pump through delivery.pumping (which then runs the delivered JS
  // functions) and rethrow the first exception a callback threw.
  const runsCallbacks = isClient && (fn.pump || fn.op === 'drop');
  const call = runsCallbacks ? `delivery.pumping(() => ${native})` : native;
  const r = f.returns;
  if (fn.ret === 'errc') {
    lines.push(`const rc = ${call};`);
    for (const reg of regs) lines.push(`if (rc !== 0 && ${reg}) callbacks.endRegistration(${reg}.userData);`);
    if (runsCallbacks) lines.push('delivery.rethrowCallbackError();');
    lines.push('if (rc !== 0) marshal.check(rc);');
    if (fn.op === 'drop') lines.push(`handles.forget(${fn.params[0].name});`);
    if (selfName) lines.push(`return handles.adopt('${fn.owner.name}', created);`);
    else if (r.kind === 'out') lines.push(`return ${fromOut(r.type, outName)};`);
  } else if (fn.ret === 'optional') {
    lines.push(`if (!${call}) return undefined;`);
    lines.push(`return ${fromOut(r.type, outName)};`);
  } else if (fn.ret === 'cstr') {
    lines.push(`return ${call} as string; // static storage: never freed`);
  } else {
    lines.push(`return ${fromC(r.type, call, false)};`);
  }
  const params = f.params.map((p) => p.name).join(', ');
  return `    ${f.name}(${params}) {\n${lines.map((l) => `      ${l}`).join('\n')}\n    },\n`;
}

/** koffi prototype of a C snapshot entry point (c_snapshots.mjs): the buffer is a Buffer, size a BigUint64Array. */
const snapshotPrototype = (e) =>
  e.prototype.replace(/\((\w+) const \*self/, '(void *self').replace('uint8_t *buffer', 'void *buffer');

/**
 * The JS function an event's delivery calls: `fnName` itself, or for an event with a payload (snapshots.mjs
 * eventPayload) a wrapper that reads the payload — the lookup snapshot of the client `selfName` — when it is
 * delivered, i.e. after the native pump returned (delivery.deliver: like any SDK call a handler makes, never from
 * inside koffi's callback frame), and passes it last. The same object the N-API trampoline reads in its one crossing.
 */
function withPayload(model, cb, fnName, selfName) {
  const payload = eventPayload(model, cb);
  if (!payload) return fnName;
  if (!selfName) throw new Error(`${cb.name}: an event with a payload needs a Client setter`);
  const params = cb.params.map((a) => `${a.name}: ${tsType(a.type)}`).join(', ');
  const read = `api.${payload.f.name}_Snapshot(${[selfName, ...payload.args].join(', ')})`;
  return `(${params}) => ${fnName}(${[...cb.params.map((a) => a.name), read].join(', ')})`;
}

/**
 * The Snapshot entry points: one koffi call to the C snapshot entry point (Svcpp_<T>_WriteSnapshot, or the lookup's
 * Svcpp_Client_<Lookup>_WriteSnapshot) writing the packed layout into the reader's preallocated buffer, then the
 * generated reader walks it (native/SEMANTICS.md "Snapshots"). A snapshot bigger than the buffer grows it and is read
 * again.
 */
function snapshotMethods(model) {
  let s = '';
  for (const e of cSnapshotEntryPoints(model)) {
    const name = e.spec.type.name;
    const call = (args) =>
      `do marshal.check(c.${e.cName}(${[...args, 'snap.buffer', 'snap.capacity', 'snap.sizeOut'].join(', ')})); while (snap.needsRetry());`;
    if (e.kind === 'object') {
      s += `    ${name}_Snapshot(self, drop) {
      try {
        const selfC = handles.handle('${name}', self);
        ${call(['selfC'])}
        return read${name}(snap);
      } finally {
        if (drop) api.${name}_Drop(self);
      }
    },
`;
    } else {
      const ids = e.f.params.filter((p) => p.role === 'in').map((p) => p.name);
      const params = e.f.params.map((p) => p.name).join(', ');
      const args = ['selfC', ...ids.map((id) => `${id}C`), 'snap.buffer', 'snap.capacity', 'snap.sizeOut'];
      // The C entry point refuses a dropped client (InvalidHandle); the lookup answers "nothing found" for it, and so
      // does its snapshot here, as in the N-API glue.
      s += `    ${e.f.name}_Snapshot(${params}) {
      const selfC = handles.handle('Client', self);
${ids.map((id) => `      const ${id}C = marshal.u64(${id});`).join('\n')}
      let rc: number;
      do rc = c.${e.cName}(${args.join(', ')}); while (rc === 0 && snap.needsRetry());
      if (rc === Errc.InvalidHandle) return undefined;
      marshal.check(rc);
      return snap.size() === 0 ? undefined : read${name}(snap);
    },
`;
    }
  }
  return s;
}

export function generate(model) {
  const fns = jsFunctions(model);
  let s = `// ${GENERATED}
// koffi declarations of native/include/svcpp.h and the NativeApi implementation over them.
/* eslint-disable */
// The contract it implements is the generated NativeApi of contract/ (types only), which imports neither lib/ nor
// bindings/: the binding knows nothing of the face, and the errors it throws come from the factory it is handed.
import type { NativeApi } from '../../contract/native-api.js';
import type * as Data from '../../contract/snapshots.js';
import { Errc } from './errc.js';
import type { ErrcErrorFactory } from './error-factory.js';
import type { HandleStruct } from './handles.js';
import { declareType, koffi as loadKoffi } from './koffi-module.js';
import type { PropertiesOut, SpanOut, StringOut } from './marshal.js';
import { createKoffiRuntime } from './runtime.js';
import { SnapshotReader } from './snapshot_reader.js';

// ---- Types: declared once per process (koffi's type names are global), when the first koffi API is made: importing
// this module must not load koffi (bindings/koffi/koffi-module.ts says why) ----
function declareTypes() {
const koffi = loadKoffi();
declareType('${PREFIX}String', () => koffi.struct('${PREFIX}String', { ptr: 'void *', size: 'size_t' }));
/** The same layout as ${PREFIX}String, for inputs: koffi encodes the JS string in ptr as UTF-8. */
declareType('${PREFIX}StringIn', () => koffi.struct('${PREFIX}StringIn', { ptr: 'const char *', size: 'size_t' }));
declareType('${PREFIX}Properties', () => koffi.struct('${PREFIX}Properties', { size: 'size_t', keys: '${PREFIX}String *', values: '${PREFIX}String *' }));
/** The same layout as ${PREFIX}Properties, for inputs: keys and values are JS arrays of ${PREFIX}StringIn. */
declareType('${PREFIX}PropertiesIn', () => koffi.struct('${PREFIX}PropertiesIn', { size: 'size_t', keys: '${PREFIX}StringIn *', values: '${PREFIX}StringIn *' }));
`;
  for (const e of model.enums) s += `declareType('${e.cName}', () => koffi.alias('${e.cName}', 'int32_t'));\n`;
  for (const t of model.types)
    s += `declareType('${t.cName}', () => koffi.struct('${t.cName}', { opaque: 'void *' }));\n`;
  for (const span of model.spans) {
    s += `declareType('${span.cName}', () => koffi.struct('${span.cName}', { ptr: '${span.elem ? span.elem.cName : 'uint64_t'} *', size: 'size_t' }));\n`;
  }
  s += '\n/** Callback prototypes (koffi.register takes a pointer to one). */\nreturn {\n';
  for (const cb of model.callbacks) {
    const params = cb.params.map((p) =>
      parseType(p.type).kind === 'obj'
        ? `const ${kType(model, p.type)} *${p.name}`
        : `${kType(model, p.type)} ${p.name}`,
    );
    if (!cb.raw) params.push('void *userData');
    s += `  ${cb.cName}: declareType('${cb.cName}', () => koffi.proto('void ${cb.cName}(${params.join(', ') || 'void'})')),\n`;
  }
  s += '};\n}\n';
  s += `
/**
 * Binds every function of the library at libraryPath and returns the NativeApi over it. errors makes every error the
 * API throws (a non-Ok Svcpp_Errc, or a misuse the binding finds itself): lib/loader.ts hands in the face's.
 */
export function createKoffiApi(libraryPath: string, errors: ErrcErrorFactory): NativeApi {
  const koffi = loadKoffi();
  const protos = declareTypes();
  const lib = koffi.load(libraryPath);
  const c = {
    ${PREFIX}GetAbiVersion: lib.func('uint32_t ${PREFIX}GetAbiVersion(void)'),
    ${PREFIX}CheckAbiVersion: lib.func('${PREFIX}Errc ${PREFIX}CheckAbiVersion(uint32_t compiledAgainst)'),
    ${PREFIX}GetLastErrorMessage: lib.func('${PREFIX}Errc ${PREFIX}GetLastErrorMessage(_Out_ ${PREFIX}String *out)'),
    ${PREFIX}Free: lib.func('void ${PREFIX}Free(void *ptr)'),
    ${PREFIX}FreeProperties: lib.func('void ${PREFIX}FreeProperties(${PREFIX}Properties props)'),
    ${PREFIX}TakeStringInto: lib.func('${PREFIX}Errc ${PREFIX}TakeStringInto(void *s, void *buffer, size_t capacity)'),
    ${PREFIX}Client_OpenWakeupFd: lib.func('${PREFIX}Errc ${PREFIX}Client_OpenWakeupFd(void *self, _Out_ int32_t *outFd)'),
    ${DRAIN_EVENTS}: lib.func('${PREFIX}Errc ${DRAIN_EVENTS}(void *self, uint32_t maxCallbacks, void *buffer, size_t capacity, size_t *size)'),
    ${PREFIX}RunCallbacks: lib.func('${PREFIX}Errc ${PREFIX}RunCallbacks(void)'),
    ${PREFIX}ResetCallbacks: lib.func('${PREFIX}Errc ${PREFIX}ResetCallbacks(void)'),
`;
  for (const fn of model.functions) s += `    ${fn.cName}: lib.func('${prototype(model, fn)}'),\n`;
  for (const e of cSnapshotEntryPoints(model)) s += `    ${e.cName}: lib.func('${snapshotPrototype(e)}'),\n`;
  const drops = model.types
    .filter((t) => t.kind !== 'client')
    .map((t) => `      ${t.name}: (self: HandleStruct) => c.${t.cName}_Drop(self),`)
    .join('\n');
  s += `  };
  const { marshal, handles, callbacks, delivery, pumps } = createKoffiRuntime({
    free: (ptr) => c.${PREFIX}Free(ptr),
    freeProperties: (props) => c.${PREFIX}FreeProperties(props),
    takeStringInto: (s, buffer, capacity) => c.${PREFIX}TakeStringInto(s, buffer, capacity),
    clientOpenWakeupFd: (self, outFd) => c.${PREFIX}Client_OpenWakeupFd(self, outFd),
    lastErrorMessage: (out) => c.${PREFIX}GetLastErrorMessage(out),
    drops: {
${drops}
    },
    clientDrainEvents: (self, maxCallbacks, buffer, capacity, sizeOut) => c.${DRAIN_EVENTS}(self, maxCallbacks, buffer, capacity, sizeOut),
    clientHasPendingCallbacks: (self) => c.${PREFIX}Client_HasPendingCallbacks(self),
    clientDrop: (self) => c.${PREFIX}Client_Drop(self),
  }, errors);

  /** The one buffer every snapshot is written into and read from (JS is single-threaded; a read ends before the next call). */
  const snap = new SnapshotReader();

  const api: NativeApi = {
    GetAbiVersion() {
      return c.${PREFIX}GetAbiVersion();
    },
    CheckAbiVersion(compiledAgainst) {
      marshal.check(c.${PREFIX}CheckAbiVersion(marshal.int(compiledAgainst)));
    },
    GetLastErrorMessage() {
      const out = { ptr: null, size: 0 } as StringOut;
      marshal.check(c.${PREFIX}GetLastErrorMessage(out));
      return marshal.takeString(out);
    },
    RunCallbacks() {
      const rc = delivery.pumping(() => c.${PREFIX}RunCallbacks());
      delivery.rethrowCallbackError();
      marshal.check(rc);
    },
    ResetCallbacks() {
      const rc = delivery.pumping(() => c.${PREFIX}ResetCallbacks());
      delivery.rethrowCallbackError();
      marshal.check(rc);
    },
    Client_SetPumpRef(self, ref) {
      pumps.setPumpRef(handles.handle('Client', self), marshal.bool(ref));
    },
`;
  for (const f of fns) s += method(model, f);
  s += snapshotMethods(model);
  s += '  };\n  return api;\n}\n';
  s += `\n// ---- readers of the packed snapshot layout (tools/gen/c_snapshots.mjs) ----\n\n${snapshotReaderSource(model)}`;
  return [{ path: 'bindings/koffi/generated.ts', content: s }, errcModule(model)];
}

/**
 * bindings/koffi/errc.ts: Svcpp_Errc by name, for the errors the binding raises itself (a wrong handle, an id out of
 * range, a malformed event record) with the codes the library would use (the same values as the Errc enum of
 * contract/enums.ts, which the face exports).
 */
function errcModule(model) {
  const errc = model.enumByName.get('Errc');
  const values = errc.values.map(([name, value, doc]) => `  /** ${doc} */\n  ${name}: ${value},`).join('\n');
  const content = `// ${GENERATED}
// Svcpp_Errc (native/include/svcpp.h) for the koffi binding: the codes it hands to its error factory itself.

export const Errc = {
${values}
} as const;

export type Errc = (typeof Errc)[keyof typeof Errc];
`;
  return { path: 'bindings/koffi/errc.ts', content };
}
