// C-level snapshots: one C call that reads a whole object (idl/surface.mjs `snapshots`, the same fields as the
// N-API/koffi `<Type>_Snapshot`) into a caller's buffer in a packed layout (native/SEMANTICS.md "Snapshots"):
//   Svcpp_<T>_WriteSnapshot(self, buffer, capacity, size)               every object type but the client
//   Svcpp_Client_<Lookup>_WriteSnapshot(self, ...ids, buffer, capacity, size)  each lookup snapshot (GetUser, …)
// This module generates their declarations (svcpp.h), their implementation over the public C getters
// (native/capi/generated/Snapshots.cpp, with native/capi/support/snapshot_writer.hpp) and the JavaScript readers of
// the layout (bindings/koffi/generated.ts), so writer and readers cannot disagree.
import * as idl from '../../idl/surface.mjs';
import { clientMember, parseType, PREFIX } from './model.mjs';
import { lookupSnapshots, snapshotSpecs } from './snapshots.mjs';

/** The layout, once for every consumer (svcpp.h, the C reference). */
export const LAYOUT_DOC = `Packed snapshot layout (in field order, each field as its getter answers it): bool and the presence
 * byte of an optional value: 1 byte (1 = present; 0 = absent, nothing follows); int32 (enums too), uint32, float:
 * 4 bytes, uint64: 8 bytes, little-endian and aligned to their size from the start of the buffer (padding bytes 0);
 * string: uint32 byte count + UTF-8 bytes; map: uint32 count + (key string, value string) per entry, sorted by key
 * bytes; list of ids: uint32 count + uint64 each; list of objects: uint32 count + each object's layout; nested
 * object: its own layout inline.`;

/** The C name of a type's snapshot entry point. */
const objectEntryName = (type) => `${type.cName}_WriteSnapshot`;
/** The C name of a lookup's snapshot entry point: Svcpp_Client_GetUser -> Svcpp_Client_GetUser_WriteSnapshot. */
const lookupEntryName = (f) => `${f.fn.cName}_WriteSnapshot`;

const BUFFER_PARAMS = 'uint8_t *buffer, size_t capacity, size_t *size';

/**
 * Every C snapshot entry point: {cName, prototype, doc, kind: 'object'|'lookup', spec, f?}.
 * @returns {Array<{cName: string, prototype: string, doc: string, kind: string, spec: object, f?: object}>}
 */
export function cSnapshotEntryPoints(model) {
  const specs = snapshotSpecs(model);
  const entries = [];
  for (const [name, spec] of specs) {
    entries.push({
      cName: objectEntryName(spec.type),
      kind: 'object',
      spec,
      prototype: `${PREFIX}Errc ${objectEntryName(spec.type)}(${spec.type.cName} const *self, ${BUFFER_PARAMS})`,
      doc: `Reads every getter of a ${name} (the fields of its JavaScript snapshot, in that order) into buffer in the packed
 *  snapshot layout. Ok: *size = the snapshot's bytes; when that exceeds capacity the buffer holds no complete snapshot
 *  (call again with at least *size bytes). buffer may be NULL only with capacity 0; size NULL: NullArgument; a
 *  dropped, zeroed or wrong-type self: InvalidHandle; a getter's failure: that getter's Svcpp_Errc (and detail).`,
    });
  }
  for (const { f, target } of lookupSnapshots(model)) {
    const ids = f.params.filter((p) => p.role === 'in').map((p) => `uint64_t ${p.name}`);
    entries.push({
      cName: lookupEntryName(f),
      kind: 'lookup',
      spec: specs.get(target),
      f,
      prototype: `${PREFIX}Errc ${lookupEntryName(f)}(${PREFIX}Client const *self, ${[...ids, BUFFER_PARAMS].join(', ')})`,
      doc: `${f.fn.cName} and ${specs.get(target).type.cName}_WriteSnapshot of what it finds, in one call (no handle
 *  to drop). Ok with *size = 0 when the lookup finds nothing; a dropped or zeroed client: InvalidHandle; otherwise as
 *  ${specs.get(target).type.cName}_WriteSnapshot.`,
    });
  }
  return entries;
}

/** The exported symbols these add to libsvcpp. */
export const cSnapshotSymbols = (model) => cSnapshotEntryPoints(model).map((e) => e.cName);

/** svcpp.h: the declarations, in a block of their own. */
export function cSnapshotDeclarations(model) {
  let h =
    '/* ---- Snapshots (native/SEMANTICS.md "Snapshots") ------------------------------------------------- */\n\n';
  h += `/* ${LAYOUT_DOC}\n */\n\n`;
  for (const e of cSnapshotEntryPoints(model))
    h += `/** ${e.doc} */\nSVCPP_API ${e.prototype.replace(/^(\S+) /, '$1 SVCPP_CALL ')};\n`;
  return `${h}\n`;
}

// ---- C++: native/capi/generated/Snapshots.cpp ----

/** The SnapshotWriter call appending a C value `v` of IDL type t (an output the writer frees where it is one). */
function writeValue(model, t, v) {
  const p = parseType(t);
  switch (p.kind) {
    case 'string':
      return `w.TakeString(${v});`;
    case 'map':
      return `w.TakeProperties(${v});`;
    case 'list':
      if (p.elem.kind === 'u64') return `w.TakeU64Span(${v});`;
      break;
    case 'bool':
      return `w.Bool(${v});`;
    case 'i32':
      return `w.I32(${v});`;
    case 'enum':
      return `w.I32(static_cast<int32_t>(${v}));`;
    case 'u32':
      return `w.U32(${v});`;
    case 'u64':
      return `w.U64(${v});`;
    case 'f32':
      return `w.F32(${v});`;
    default:
      break;
  }
  throw new Error(`c_snapshots: no packed layout for ${t}`);
}

/** Statements reading one snapshot field of `self` into the writer `w`. */
function fieldLines(model, field) {
  const { f } = field;
  const fn = f.fn;
  if (fn.ret === 'value') return [writeValue(model, fn.valueType, `${fn.cName}(self)`)];
  if (fn.ret === 'cstr') return [`w.CString(${fn.cName}(self));`];
  const outType = model.cType(f.returns.type);
  let body;
  if (field.mode === 'nest') {
    body = [`DropOnExit<${outType}> owned{&out, ${outType}_Drop};`, `WriteSnapshotOf_${field.target}(w, &out);`];
  } else if (field.mode === 'list') {
    body = [
      `DropOnExit<${outType}> owned{&out, ${outType}_Drop};`,
      'w.Count(out.size);',
      `for (size_t i = 0; i < out.size; ++i) WriteSnapshotOf_${field.target}(w, &out.ptr[i]);`,
    ];
  } else if (field.mode === 'only') {
    if (field.only.fn.ret !== 'value') throw new Error(`snapshots.only: ${field.only.name} must return a value`);
    body = [
      `DropOnExit<${outType}> owned{&out, ${outType}_Drop};`,
      writeValue(model, field.only.fn.valueType, `${field.only.fn.cName}(&out)`),
    ];
  } else {
    body = [writeValue(model, f.returns.type, 'out')];
  }
  if (fn.ret === 'optional') {
    return [
      '{',
      `    ${outType} out{};`,
      `    const bool present = ${fn.cName}(self, &out);`,
      '    w.Present(present);',
      '    if (present) {',
      ...body.map((l) => `        ${l}`),
      '    }',
      '}',
    ];
  }
  return ['{', `    ${outType} out{};`, `    Must(${fn.cName}(self, &out));`, ...body.map((l) => `    ${l}`), '}'];
}

/** Statements of a fixed-argument call (idl snapshots.calls): a string getter with enum arguments. */
function callLines(model, c) {
  const enumArgs = c.f.params
    .filter((p) => p.role === 'in')
    .map((p, i) => `static_cast<${model.cType(p.type)}>(${c.args[i]})`);
  return [
    '{',
    '    Svcpp_String out{};',
    `    Must(${c.f.fn.cName}(self, ${enumArgs.join(', ')}, &out));`,
    '    w.TakeString(out);',
    '}',
  ];
}

/**
 * Types whose C snapshot reads the object whole (idl/surface.mjs `snapshots.whole`): WriteSnapshotOf_<T> calls the
 * hand-written WriteWholeSnapshotOf_<T> (native/capi/support/whole_snapshots.cpp), and the getter-composed writer
 * stays, as WriteSnapshotByGetters_<T>, the reference the tests compare it with.
 */
const wholeTypes = () => new Set(idl.snapshots.whole ?? []);

/** native/capi/generated/Snapshots.cpp; `includes` are the capi files' common includes. */
export function cSnapshotImplementation(model, header, includes) {
  const specs = snapshotSpecs(model);
  const whole = wholeTypes();
  for (const name of whole) if (!specs.has(name)) throw new Error(`snapshots.whole: ${name} has no snapshot`);
  const inPlace = new Set(idl.snapshots.inPlaceLookups ?? []);
  for (const name of inPlace) {
    const lookup = cSnapshotEntryPoints(model).find((e) => e.kind !== 'object' && e.f.name === name);
    if (!lookup || !whole.has(lookup.spec.type.name))
      throw new Error(`snapshots.inPlaceLookups: ${name} is no lookup snapshot of a whole type`);
  }
  let s = `${header}${includes}#include "support/snapshot_writer.hpp"\n#include "support/whole_snapshots.hpp"\n\n`;
  s +=
    'using namespace svcpp::capi;\nusing namespace svcpp::capi::snapshot_writers;\nnamespace core = svcpp::core;\n\n';
  s +=
    '// Each WriteSnapshotOf_<T> appends one object in the packed layout (support/snapshot_writer.hpp), reading it through\n';
  s += '// the public C getters: a snapshot answers exactly what the getters answer (the whole-object writers of\n';
  s += '// support/whole_snapshots.hpp write the same bytes from one read). Not file-local: those writers use them.\n';
  s += 'namespace svcpp::capi::snapshot_writers {\n\n';
  for (const spec of specs.values())
    s += `void WriteSnapshotOf_${spec.type.name}(SnapshotWriter &w, ${spec.type.cName} const *self);\n`;
  s += '\n';
  for (const spec of specs.values()) {
    const lines = [
      ...spec.fields.flatMap((field) => fieldLines(model, field)),
      ...spec.calls.flatMap((c) => callLines(model, c)),
    ];
    if (!lines.length) lines.push('(void)w;', '(void)self;');
    const name = spec.type.name;
    const byGetters = whole.has(name) ? `WriteSnapshotByGetters_${name}` : `WriteSnapshotOf_${name}`;
    s += `void ${byGetters}(SnapshotWriter &w, ${spec.type.cName} const *self) {\n${lines.map((l) => `    ${l}`).join('\n')}\n}\n\n`;
    if (whole.has(name)) {
      s += `void WriteSnapshotOf_${name}(SnapshotWriter &w, ${spec.type.cName} const *self) { WriteWholeSnapshotOf_${name}(w, self); }\n\n`;
    }
  }
  s += '}  // namespace svcpp::capi::snapshot_writers\n\nextern "C" {\n\n';
  for (const e of cSnapshotEntryPoints(model)) {
    const type = e.spec.type;
    const lines = [];
    if (e.kind === 'object') {
      // The handle's own check (a dropped, zeroed or wrong-type handle); anything else is for the getters to answer.
      lines.push(
        `if (!IsLive<core::${type.name}>(self)) throw core::AbiError(core::Errc::InvalidHandle, "self is not a live handle of this type");`,
        `WriteSnapshotOf_${type.name}(w, self);`,
      );
    } else {
      const ids = e.f.params.filter((p) => p.role === 'in').map((p) => p.name);
      if (inPlace.has(e.f.name)) {
        // Read in place (nothing written when nothing is found: size 0).
        lines.push(
          'ClientRef client(self, core::Errc::InvalidHandle);',
          `WriteWholeLookup_${e.f.name}(${['w', '*client', ...ids].join(', ')});`,
        );
      } else if (whole.has(type.name)) {
        // The whole-object writer reads the core object the lookup found: no handle box registered and dropped.
        lines.push(
          'ClientRef client(self, core::Errc::InvalidHandle);',
          `auto found = ${clientMember(e.f.fn)}(${ids.join(', ')});`,
          'if (!found) return;  // nothing found: size 0',
          `WriteWholeSnapshotOf_${type.name}(w, *found);`,
        );
      } else {
        lines.push(
          'if (!IsLiveClient(self)) throw core::AbiError(core::Errc::InvalidHandle, "self is not a live client");',
          `${type.cName} found{};`,
          `if (!${e.f.fn.cName}(${['self', ...ids, '&found'].join(', ')})) return;  // nothing found: size 0`,
          `DropOnExit<${type.cName}> owned{&found, ${type.cName}_Drop};`,
          `WriteSnapshotOf_${type.name}(w, &found);`,
        );
      }
    }
    s += `SVCPP_API ${e.prototype.replace(/^(\S+) /, '$1 SVCPP_CALL ')} {\n`;
    s += `    return SnapshotGuard("${e.cName}", buffer, capacity, size, [&](SnapshotWriter &w) {\n${lines.map((l) => `        ${l}`).join('\n')}\n    });\n}\n\n`;
  }
  s += '}  // extern "C"\n';
  return s;
}

// ---- JavaScript: the readers of the layout (bindings/koffi) ----

/** JS expression reading one value of IDL type t with the SnapshotReader `r`. */
function readValue(t) {
  const p = parseType(t);
  switch (p.kind) {
    case 'string':
      return 'r.string()';
    case 'map':
      return 'r.properties()';
    case 'list':
      if (p.elem.kind === 'u64') return 'r.u64List()';
      break;
    case 'bool':
      return 'r.bool()';
    case 'i32':
    case 'enum':
      return 'r.i32()';
    case 'u32':
      return 'r.u32()';
    case 'u64':
      return 'r.u64()';
    case 'f32':
      return 'r.f32()';
    default:
      break;
  }
  throw new Error(`c_snapshots: no packed layout for ${t}`);
}

function readField(field) {
  const { f } = field;
  const fn = f.fn;
  if (fn.ret === 'value') return readValue(fn.valueType);
  if (fn.ret === 'cstr') return 'r.string()';
  let one;
  if (field.mode === 'nest') one = `read${field.target}(r)`;
  else if (field.mode === 'list') one = `r.list(read${field.target})`;
  else if (field.mode === 'only') one = readValue(field.only.fn.valueType);
  else one = readValue(f.returns.type);
  return fn.ret === 'optional' ? `(r.present() ? ${one} : undefined)` : one;
}

/**
 * TypeScript source of one reader per object type, `read<T>(r: SnapshotReader): <T>Data`: an object literal whose
 * properties are read in the layout's order (JavaScript evaluates them in source order), so every snapshot of a type
 * has the same keys in the same order as the N-API one.
 */
export function snapshotReaderSource(model) {
  let s = '';
  for (const [name, spec] of snapshotSpecs(model)) {
    const props = [
      ...spec.fields.map((field) => `${field.key}: ${readField(field)}`),
      ...spec.calls.map((c) => `${c.key}: r.string()`),
    ];
    s += `function read${name}(r: SnapshotReader): Data.${name}Data {\n  return {\n${props.map((p) => `    ${p},`).join('\n')}\n  };\n}\n`;
  }
  return s;
}
