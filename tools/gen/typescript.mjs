// The TypeScript view of the C ABI. contract/*.ts is what the face (lib/) and the koffi binding (bindings/koffi) both
// build on, so it lives outside both and imports neither: the enums, the NativeApi interface both backends
// (bindings/napi, bindings/koffi) implement, so lib/ never knows which one it runs on, and the snapshot data their
// calls return. lib/generated/errc.ts is the face's alone: the stable codes of its errors and the ABI version its
// loader checks.
import { GENERATED } from './text.mjs';
import { errcCode, jsFunctions, tsParam, tsReturn } from './js_surface.mjs';
import { eventPayload, lookupSnapshots, snapshotSpecs, snapshotTypesFile } from './snapshots.mjs';

const HEADER = `// ${GENERATED}\n`;

/** JSDoc block (multi-line aware) at the given indent. */
function jsDoc(doc, indent = '') {
  if (!doc) return '';
  const lines = doc.split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`).join('\n')}\n${indent} */\n`;
}

function enumsFile(model) {
  let s = HEADER;
  for (const e of model.enums) {
    s += `\n${jsDoc(e.doc)}export enum ${e.tsName} {\n`;
    for (const [name, value, doc] of e.values) s += `${jsDoc(doc, '  ')}  ${name} = ${value},\n`;
    s += '}\n';
  }
  return s;
}

function errcFile(model) {
  const errc = model.enumByName.get('Errc');
  const failures = errc.values.filter(([name]) => name !== 'Ok');
  let s = HEADER;
  s += '\n/** Stable `code` of the SvcppError thrown when a C ABI call returns a non-Ok Svcpp_Errc. */\n';
  s += `export type ErrcCode =\n${failures.map(([name]) => `  | '${errcCode(name)}'`).join('\n')};\n`;
  s +=
    '\n/** Svcpp_Errc value -> stable error code (the N-API addon uses the same table, generated from the same IDL). */\n';
  s += 'export const errcCodes: Readonly<Record<number, ErrcCode>> = {\n';
  for (const [name, value] of failures) s += `  ${value}: '${errcCode(name)}',\n`;
  s += '};\n';
  s += `\n/** SVCPP_ABI_VERSION of the header this package was generated from: (major << 16) | minor. */\n`;
  s += `export const ABI_VERSION = ${(model.abi.major << 16) | model.abi.minor};\n`;
  return s;
}

function nativeApiFile(model) {
  const fns = jsFunctions(model);
  // An event callback with a payload (idl/surface.mjs callbacks' `payload`) gets its snapshot as a last argument.
  const param = (p) => tsParam(p, (cb) => eventPayload(model, cb));
  const enumNames = model.enums
    .map((e) => e.tsName)
    .filter((n) =>
      fns.some((f) => [...f.params.map(param), tsReturn(f.returns)].some((t) => new RegExp(`\\b${n}\\b`).test(t))),
    );
  let s = HEADER;
  s += `import type { ${enumNames.join(', ')} } from './enums.js';\n`;
  const snapshotNames = [...snapshotSpecs(model).keys()];
  s += `import type { ${snapshotNames.map((n) => `${n}Data`).join(', ')} } from './snapshots.js';\n`;
  s += `
declare const handleBrand: unique symbol;
/**
 * An opaque native handle of the given C ABI type (Svcpp_<T>). Backends check the type on every call;
 * a handle of another type or of another backend throws ERR_SVCPP_INVALID_HANDLE.
 */
export type NativeHandle<T extends string> = { readonly [handleBrand]: T };

/** The object types a NativeHandle can name. */
export type NativeHandleType = ${model.types.map((t) => `'${t.name}'`).join(' | ')};

/**
 * The C ABI as JavaScript sees it: one member per C function (the C name without \`Svcpp_\`).
 * Out-params are return values, optional outs are \`T | undefined\`, callback triples are one function
 * parameter, u64 is bigint, and a non-Ok Svcpp_Errc throws an SvcppError with a stable code.
 */
export interface NativeApi {
  // ---- Library (hand-declared in the IDL's globals) ----
  /** (major << 16) | minor of the ABI the loaded library implements. */
  GetAbiVersion(): number;
  /** Throws ERR_SVCPP_ABI_MISMATCH unless the library can serve a caller built against compiledAgainst. */
  CheckAbiVersion(compiledAgainst: number): void;
  /** Detail of the last failed call on this thread ('' when none). */
  GetLastErrorMessage(): string;
  /** Runs the queued callbacks of every client now, on this thread. */
  RunCallbacks(): void;
  /** Clears every event registration of every client and aborts pending one-shot callbacks. */
  ResetCallbacks(): void;
  /**
   * Whether this client's pump keeps the event loop alive. The binding owns the client's wakeup hook
   * (Svcpp_Client_SetCallbacksPendingHook): N-API drains from a thread-safe function, koffi from a timer.
   * A new client starts unref'd; the TypeScript Client decides (listeners, pending promises, ref()/unref()).
   */
  Client_SetPumpRef(self: NativeHandle<'Client'>, ref: boolean): void;
  /**
   * N-API only, for tests: JS <-> native crossings on this thread (generated calls and the callbacks the pump makes):
   * the total, and the total when the JS callback running now was entered (before its own crossing).
   */
  Debug_Crossings?(): { total: bigint; atCallbackStart: bigint };
`;
  let owner;
  for (const f of fns) {
    const group = f.fn.owner ? f.fn.owner.name : 'Enum names';
    if (group !== owner) {
      s += `\n  // ---- ${group} ----\n`;
      owner = group;
    }
    s += jsDoc(f.fn.doc, '  ');
    s += `  ${f.name}(${f.params.map(param).join(', ')}): ${tsReturn(f.returns)};\n`;
  }
  s += '\n  // ---- Snapshots: every getter of an object in one call (idl/surface.mjs `snapshots`) ----\n';
  for (const n of snapshotNames) {
    s += `  /** Every getter of a ${n} in one call; \`drop\` drops the handle in the same call (also when a getter throws). */\n`;
    s += `  ${n}_Snapshot(self: NativeHandle<'${n}'>, drop?: boolean): ${n}Data;\n`;
  }
  s += '\n  // ---- Lookup snapshots: a Client lookup and the Snapshot of what it finds in one call ----\n';
  for (const { f, target } of lookupSnapshots(model)) {
    s += `  /** ${f.name} and ${target}_Snapshot in one call (no handle to wrap and drop); undefined when nothing is found. */\n`;
    s += `  ${f.name}_Snapshot(${f.params.map(tsParam).join(', ')}): ${target}Data | undefined;\n`;
  }
  s += '}\n';
  return s;
}

export function generate(model) {
  return [
    { path: 'contract/enums.ts', content: enumsFile(model) },
    { path: 'lib/generated/errc.ts', content: errcFile(model) },
    { path: 'contract/native-api.ts', content: nativeApiFile(model) },
    { path: 'contract/snapshots.ts', content: snapshotTypesFile(model, HEADER) },
  ];
}
