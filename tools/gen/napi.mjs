// bindings/napi/generated/* — node-addon-api glue over the C ABI, one JS function per C function
// (the NativeApi of lib/generated/native-api.ts). The hand-written half is bindings/napi/src.
import { GENERATED } from './text.mjs';
import { errcCode, jsFunctions } from './js_surface.mjs';
import { parseType } from './model.mjs';
import { eventPayload, lookupSnapshots, snapshotSpecs } from './snapshots.mjs';

const HEADER = `// ${GENERATED}\n`;

function handleTraits(model) {
  let s = `${HEADER}// Per handle type: its index (the type a HandleArena slot names), its name, and its Drop.\n#pragma once\n\n`;
  s += '#include <cstddef>\n\n#include "../../../native/include/svcpp.h"\n\nnamespace svcpp_node {\n\n';
  s += 'template <class H>\nstruct HandleTraits;\n\n';
  model.types.forEach((t, i) => {
    s += `template <>\nstruct HandleTraits<${t.cName}> {\n  static constexpr size_t index = ${i};\n`;
    s += `  static constexpr const char *name = "${t.name}";\n`;
    s += `  static Svcpp_Errc Drop(${t.cName} *self) { return ${t.cName}_Drop(self); }\n`;
    if (t.kind !== 'client') s += `  static Svcpp_Errc Clone(${t.cName} *self, ${t.cName} const *other) { return ${t.cName}_Clone(self, other); }\n`;
    s += '};\n\n';
  });
  s += `constexpr size_t kHandleTypeCount = ${model.types.length};\n\n}  // namespace svcpp_node\n`;
  return s;
}

function errcCodes(model) {
  const errc = model.enumByName.get('Errc');
  let s = `${HEADER}#include "../src/addon.hpp"\n\nnamespace svcpp_node {\n\nconst char *ErrcCode(Svcpp_Errc rc) {\n  switch (rc) {\n`;
  for (const [name] of errc.values) s += `    case Svcpp_Errc_${name}: return "${errcCode(name)}";\n`;
  s += '    default: return "ERR_SVCPP_UNKNOWN";\n  }\n}\n\n}  // namespace svcpp_node\n';
  return s;
}

const isClientType = (model, name) => model.typeByName.get(name)?.kind === 'client';

/** C++ expression: JS value `v` -> C value of IDL type t (for scalars, enums). */
function scalarArg(model, t, v) {
  const p = parseType(t);
  switch (p.kind) {
    case 'bool': return `BoolArg(${v})`;
    case 'i32': return `I32Arg(${v})`;
    case 'u32': return `U32Arg(${v})`;
    case 'f32': return `F32Arg(${v})`;
    case 'u64': return `U64Arg(${v})`;
    case 'enum': return `static_cast<${model.cType(t)}>(I32Arg(${v}))`;
    default: throw new Error(`not a scalar: ${t}`);
  }
}

/**
 * C++ expression: C value `x` of IDL type t -> Napi::Value (borrowed strings are not freed). In a callback
 * (`borrowed`), objects are `Svcpp_X const *` and spans `Svcpp_XSpan` borrowed for the call, so JavaScript gets
 * its own copies; a result span (`take`) is adopted element by element and its buffer freed.
 */
function toJs(model, t, x, { take = false, borrowed = false } = {}) {
  const p = parseType(t);
  switch (p.kind) {
    case 'bool': return `Napi::Boolean::New(env, ${x})`;
    case 'i32': case 'u32': case 'f32': case 'enum': return `Napi::Number::New(env, static_cast<double>(${x}))`;
    case 'u64': return `Napi::BigInt::New(env, static_cast<uint64_t>(${x}))`;
    case 'string': return take ? `TakeString(env, ${x})` : `BorrowString(env, ${x})`;
    case 'obj':
      if (borrowed) return `CloneHandle<${model.cType(t)}>(env, ${x})`;
      return isClientType(model, p.name) ? `WrapClient(env, ${x})` : `WrapHandle<${model.cType(t)}>(env, ${x})`;
    case 'map':
      if (borrowed) return `BorrowProperties(env, ${x})`;
      if (take) return `TakeProperties(env, ${x})`;
      throw new Error(`a map is either borrowed (callback) or taken (result): ${t}`);
    case 'list': {
      if (model.isU64List(p)) {
        if (borrowed) return `BorrowU64Span(env, ${x})`;
        if (take) return `TakeU64Span(env, ${x})`;
        throw new Error(`a span is either borrowed (callback) or taken (result): ${t}`);
      }
      const elem = model.cType(`obj:${p.name}`);
      if (borrowed) return `CloneSpan<${elem}>(env, ${x})`;
      if (take) return `AdoptSpan<${elem}>(env, ${x})`;
      throw new Error(`a span is either borrowed (callback) or taken (result): ${t}`);
    }
    default: throw new Error(`no JS conversion for ${t}`);
  }
}

function unwrapExpr(model, typeName, v) {
  return isClientType(model, typeName) ? `UnwrapClient(env, ${v})` : `UnwrapHandle<Svcpp_${typeName}>(env, ${v})`;
}

/**
 * One trampoline per callback typedef: the C arguments converted into a fixed array (no allocation per event), and
 * for an event with a payload (eventPayload) its lookup snapshot as the last argument, read in the same crossing from
 * the client the registration recorded (JsCallback::client).
 */
function trampolines(model) {
  let s = '';
  for (const cb of model.callbacks) {
    if (cb.raw || cb.thread === 'sdk') continue;
    const payload = eventPayload(model, cb);
    const params = cb.params.map(model.cCallbackParamDecl).concat('void *userData').join(', ');
    const args = cb.params.map((p, i) => `args[${i}] = ${toJs(model, p.type, p.name, { borrowed: true })};`);
    if (payload) args.push(`args[${cb.params.length}] = LookupSnapshot_${payload.f.name}(env, &registration.client, ${payload.args.join(', ')});`);
    const count = args.length;
    const uses = payload ? 'registration' : '';
    const what = payload ? ` and the ${payload.name} (payload)` : '';
    const lambda = `[&](Napi::Env ${count ? 'env' : ''}, JsCallback &${uses}, napi_value *${count ? 'args' : ''})`;
    const body = count ? `\n${args.map((a) => `    ${a}`).join('\n')}\n  ` : '';
    s += `/** ${cb.cName}: the registered JS function, called with converted arguments${what} (pump thread = JS thread). */\n`;
    s += `void SVCPP_CALL Call_${cb.cName}(${params}) {\n  InvokeJs<${count}>(userData, ${lambda} {${body}});\n}\n\n`;
  }
  return s;
}

function functionBody(model, f) {
  const { fn } = f;
  const isClient = fn.owner?.kind === 'client';
  const lines = ['Napi::Env env = info.Env();', 'CountCrossing();'];
  const args = [];
  let jsIndex = 0;
  let outName;
  let created;
  const triples = [];
  for (const p of fn.params) {
    const t = parseType(p.type);
    if (p.role === 'self' && p.uninit) {
      created = `${model.cType(p.type)}`;
      lines.push(`${created} created{};`);
      args.push('&created');
      continue;
    }
    if (p.role === 'self') {
      const v = `info[${jsIndex++}]`;
      if (fn.op === 'drop' || fn.pump) { args.push(v); continue; } // handled by the call below
      args.push(unwrapExpr(model, fn.owner.name, v));
      continue;
    }
    if (p.role === 'in') {
      const v = `info[${jsIndex++}]`;
      const n = p.name;
      if (t.kind === 'string') {
        if (p.optional) {
          lines.push(`std::optional<std::string> ${n}Text;`, `if (!IsNullish(${v})) ${n}Text = StringArg(${v});`);
          lines.push(`Svcpp_String ${n}View = ${n}Text ? View(*${n}Text) : Svcpp_String{};`);
          args.push(`${n}Text ? &${n}View : nullptr`);
        } else {
          lines.push(`std::string ${n}Text = StringArg(${v});`);
          args.push(`View(${n}Text)`);
        }
      } else if (t.kind === 'map') {
        lines.push(`PropertiesArg ${n}Map(${v});`);
        args.push(`${n}Map.View()`);
      } else if (model.isU64List(t)) {
        lines.push(`std::vector<uint64_t> ${n}Ids = U64ArrayArg(${v});`);
        args.push(`U64SpanView(${n}Ids)`);
      } else if (t.kind === 'list') {
        const elem = model.cType(`obj:${t.name}`);
        lines.push(`std::vector<${elem}> ${n}Handles = HandleArrayArg<${elem}>(env, ${v});`);
        args.push(`SpanView<${model.cType(p.type)}>(${n}Handles)`);
      } else if (t.kind === 'obj') {
        const unwrap = unwrapExpr(model, t.name, v);
        args.push(p.optional ? `IsNullish(${v}) ? nullptr : ${unwrap}` : unwrap);
      } else if (p.optional) {
        lines.push(`std::optional<${model.cType(p.type)}> ${n};`, `if (!IsNullish(${v})) ${n} = ${scalarArg(model, p.type, v)};`);
        args.push(`${n} ? &*${n} : nullptr`);
      } else {
        lines.push(`${model.cType(p.type)} ${n} = ${scalarArg(model, p.type, v)};`);
        args.push(n);
      }
      continue;
    }
    if (p.role === 'cb') {
      const v = `info[${jsIndex++}]`;
      const data = `${p.name}Data`;
      triples.push(data);
      // An event with a payload reads it from this client when it is delivered (a copy of the handle: a stale one
      // is refused by the registry, never dereferenced).
      let client = '';
      if (eventPayload(model, p.callback)) {
        if (!isClient) throw new Error(`${fn.cName}: an event with a payload needs a Client setter`);
        client = ', *UnwrapClient(env, info[0])';
      }
      if (p.nullable) {
        lines.push(`std::unique_ptr<JsCallback> ${data};`, `if (!IsNullish(${v})) ${data} = NewJsCallback(env, FunctionArg(${v})${client});`);
        args.push(`${data} ? Call_${p.callback.cName} : nullptr`, `${data} ? FreeJsCallback : nullptr`, `${data}.get()`);
      } else {
        lines.push(`std::unique_ptr<JsCallback> ${data} = NewJsCallback(env, FunctionArg(${v})${client});`);
        args.push(`Call_${p.callback.cName}`, 'FreeJsCallback', `${data}.get()`);
      }
      continue;
    }
    if (p.role === 'out') {
      outName = p.name;
      lines.push(`${model.cType(p.type)} ${p.name}{};`);
      args.push(`&${p.name}`);
    }
  }
  let call = `${fn.cName}(${args.join(', ')})`;
  if (fn.op === 'drop') call = isClient ? `DropClient(env, ${args[0]})` : `DropHandle<${fn.owner.cName}>(env, ${args[0]})`;
  // A bounded pump (RunCallbacksUpTo) passes its bound; the C function refuses a bad one.
  else if (fn.pump) call = `RunClientCallbacks(env, ${[args[0], ...args.slice(1).map((a) => `std::optional<uint32_t>(${a})`)].join(', ')})`;
  const runsCallbacks = isClient && (fn.pump || fn.op === 'drop');
  const r = f.returns;
  if (fn.ret === 'errc') {
    lines.push(`Svcpp_Errc rc = ${call};`);
    // An accepted triple now belongs to the library (it calls FreeJsCallback); a rejected one is ours.
    for (const d of triples) lines.push(`if (rc == Svcpp_Errc_Ok) ${d}.release();`);
    if (runsCallbacks) lines.push('RethrowCallbackError(env);');
    lines.push('Check(env, rc);');
    if (created) lines.push(`return ${toJs(model, `obj:${fn.owner.name}`, 'created')};`);
    else if (r.kind === 'out') lines.push(`return ${toJs(model, r.type, outName, { take: true })};`);
    else lines.push('return env.Undefined();');
  } else if (fn.ret === 'optional') {
    lines.push(`if (!${call}) return env.Undefined();`);
    lines.push(`return ${toJs(model, r.type, outName, { take: true })};`);
  } else if (fn.ret === 'cstr') {
    lines.push(`return Napi::String::New(env, ${call});`);
  } else {
    lines.push(`return ${toJs(model, fn.valueType, call)};`);
  }
  return `Napi::Value ${f.name}(const Napi::CallbackInfo &info) {\n${lines.map((l) => `  ${l}`).join('\n')}\n}\n`;
}


/** C++ expression reading one value of IDL type t from the SnapshotReader `r` as a JS value. */
function readValue(t) {
  const p = parseType(t);
  switch (p.kind) {
    case 'bool': return 'r.Boolean(r.Bool())';
    case 'i32': case 'enum': return 'r.Number(static_cast<double>(r.I32()))';
    case 'u32': return 'r.Number(static_cast<double>(r.U32()))';
    case 'f32': return 'r.Number(static_cast<double>(r.F32()))';
    case 'u64': return 'r.BigInt(r.U64())';
    case 'string': return 'r.String()';
    case 'map': return 'r.Properties()';
    case 'list': if (p.elem.kind === 'u64') return 'r.U64List()'; break;
    default: break;
  }
  throw new Error(`napi: no packed layout for ${t}`);
}

/**
 * C++ expression reading one snapshot field from the packed layout the C snapshot wrote (tools/gen/c_snapshots.mjs
 * writes the same fields in the same order: the layout is theirs).
 */
function readSnapshotField(field) {
  const fn = field.f.fn;
  if (fn.ret === 'value') return readValue(fn.valueType);
  if (fn.ret === 'cstr') return 'r.String()';
  let one;
  if (field.mode === 'nest') one = `ReadSnapshot_${field.target}(env, r)`;
  else if (field.mode === 'list') one = `r.List(ReadSnapshot_${field.target})`;
  else if (field.mode === 'only') one = readValue(field.only.fn.valueType);
  else one = readValue(field.f.returns.type);
  return fn.ret === 'optional' ? `r.Present() ? ${one} : static_cast<napi_value>(env.Undefined())` : one;
}

/** The keys of a snapshot object, in the order its factory takes them (fields, then fixed-argument calls). */
const snapshotKeys = (spec) => [...spec.fields.map((field) => field.key), ...spec.calls.map((c) => c.key)];

/**
 * The JavaScript source of the snapshot factories, one arrow function per object type (by index, in snapshotSpecs
 * order), each returning an object literal of its arguments: compiled once per environment (napi_run_script), so
 * every snapshot of a type is built by optimised JS with one hidden class — setting each key through
 * napi_set_named_property (a key string internalised and a map transition per field) cost most of a snapshot.
 */
function snapshotFactorySource(specs) {
  const factories = [...specs.values()].map((spec) => {
    const keys = snapshotKeys(spec);
    return `(${keys.map((_, i) => `a${i}`).join(', ')}) => ({ ${keys.map((k, i) => `${JSON.stringify(k)}: a${i}`).join(', ')} })`;
  });
  return `[\n${factories.map((f) => `  ${f},`).join('\n')}\n]`;
}

/**
 * The Snapshot entry points: `<Type>_Snapshot(handle, drop?)` is one call of the C snapshot `Svcpp_<T>_WriteSnapshot`
 * (every getter, read inside the library) and the packed bytes read into the type's factory by `ReadSnapshot_<T>`.
 */
function snapshotFunctions(model) {
  const specs = snapshotSpecs(model);
  let s = '// ---- snapshots (idl/surface.mjs `snapshots`; native/SEMANTICS.md "Snapshots") -----------------------------\n\n';
  s += `/** The snapshot factories' source (see InitSnapshotFactories): index i builds the snapshot of the i-th type below. */\n`;
  s += `constexpr const char *kSnapshotFactories = R"js(${snapshotFactorySource(specs)})js";\n\n`;
  for (const [name] of specs) s += `napi_value ReadSnapshot_${name}(Napi::Env env, SnapshotReader &r);\n`;
  s += '\n';
  let factoryIndex = 0;
  for (const [name, spec] of specs) {
    const count = snapshotKeys(spec).length;
    const lines = count === 0 ? ['(void)r;'] : [`napi_value values[${count}];`];
    // One statement per value: the layout is read in order.
    spec.fields.forEach((field, i) => lines.push(`values[${i}] = ${readSnapshotField(field)};`));
    spec.calls.forEach((c, j) => lines.push(`values[${spec.fields.length + j}] = r.String();`));
    lines.push(count === 0 ? 'return Napi::Object::New(env);' : `return SnapshotFactory(env, ${factoryIndex}).Call(env.Undefined(), ${count}, values);`);
    factoryIndex += 1;
    s += `napi_value ReadSnapshot_${name}(Napi::Env env, SnapshotReader &r) {\n${lines.map((l) => `  ${l}`).join('\n')}\n}\n\n`;
    s += `Napi::Value SnapshotOf_${name}(Napi::Env env, ${spec.type.cName} *self) {\n`;
    s += `  return ReadCSnapshot(env, SnapshotKind::Object, [self](uint8_t *buffer, size_t capacity, size_t *size) {\n`;
    s += `    return ${spec.type.cName}_WriteSnapshot(self, buffer, capacity, size);\n  }, ReadSnapshot_${name});\n}\n\n`;
    s += `Napi::Value ${name}_Snapshot(const Napi::CallbackInfo &info) {\n  Napi::Env env = info.Env();\n  CountCrossing();\n`;
    s += `  ${spec.type.cName} *self = UnwrapHandle<${spec.type.cName}>(env, info[0]);\n`;
    s += `  // drop: the handle is dropped in this same call, also when the snapshot throws.\n`;
    s += `  DropOnExit<${spec.type.cName}> dropped{info.Length() > 1 && info[1].ToBoolean() ? self : nullptr};\n`;
    s += `  return SnapshotOf_${name}(env, self);\n}\n\n`;
  }
  return s;
}

/** The C++ parameters of a lookup snapshot's ids: 'uint64_t userId'. */
const lookupIds = (f) => f.params.filter((p) => p.role === 'in').map((p) => p.name);

/** Declarations of the lookup snapshot helpers (the trampolines of events with a payload use them). */
function lookupSnapshotDeclarations(model) {
  let s = '';
  for (const { f } of lookupSnapshots(model)) {
    s += `Napi::Value LookupSnapshot_${f.name}(${['Napi::Env env', 'Svcpp_Client const *client', ...lookupIds(f).map((n) => `uint64_t ${n}`)].join(', ')});
`;
  }
  return s;
}

/**
 * `<Lookup>_Snapshot(client, ...ids)`: the lookup and its object's snapshot in one crossing (snapshots.mjs
 * lookupSnapshots), through `LookupSnapshot_<Lookup>`, which the payload of an event reads too.
 */
function lookupSnapshotFunctions(model) {
  let s = '// ---- lookup snapshots ---------------------------------------------------------------------------------\n\n';
  for (const { f, target } of lookupSnapshots(model)) {
    const ids = lookupIds(f);
    s += `Napi::Value LookupSnapshot_${f.name}(${['Napi::Env env', 'Svcpp_Client const *client', ...ids.map((n) => `uint64_t ${n}`)].join(', ')}) {\n`;
    s += `  return ReadCSnapshot(env, SnapshotKind::Lookup, [&](uint8_t *buffer, size_t capacity, size_t *size) {\n`;
    s += `    return ${f.fn.cName}_WriteSnapshot(${['client', ...ids, 'buffer', 'capacity', 'size'].join(', ')});\n  }, ReadSnapshot_${target});\n}\n\n`;
    const lines = ['Napi::Env env = info.Env();', 'CountCrossing();'];
    const args = [];
    f.params.forEach((p, i) => {
      if (p.role === 'self') return args.push(`UnwrapClient(env, info[${i}])`);
      lines.push(`uint64_t ${p.name} = U64Arg(info[${i}]);`);
      args.push(p.name);
    });
    lines.push(`return LookupSnapshot_${f.name}(${['env', ...args].join(', ')});`);
    s += `Napi::Value ${f.name}_Snapshot(const Napi::CallbackInfo &info) {\n${lines.map((l) => `  ${l}`).join('\n')}\n}\n\n`;
  }
  return s;
}

function functionsFile(model) {
  const fns = jsFunctions(model);
  let s = `${HEADER}// One Napi function per C function of svcpp.h (see lib/generated/native-api.ts for the JS contract).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../src/callbacks.hpp"
#include "../src/client_pump.hpp"
#include "../src/containers.hpp"
#include "../src/handles.hpp"
#include "../src/snapshots.hpp"

namespace svcpp_node {
namespace {

${lookupSnapshotDeclarations(model)}
// ---- callback trampolines -----------------------------------------------------------------------------

${trampolines(model)}// ---- functions ----------------------------------------------------------------------------------------

`;
  for (const f of fns) s += `${functionBody(model, f)}\n`;
  s += snapshotFunctions(model);
  s += lookupSnapshotFunctions(model);
  s += '}  // namespace\n\nvoid RegisterGenerated(Napi::Env env, Napi::Object exports) {\n';
  for (const f of fns) s += `  exports.Set("${f.name}", Napi::Function::New(env, ${f.name}, "${f.name}"));\n`;
  for (const name of snapshotSpecs(model).keys()) s += `  exports.Set("${name}_Snapshot", Napi::Function::New(env, ${name}_Snapshot, "${name}_Snapshot"));\n`;
  for (const { f } of lookupSnapshots(model)) s += `  exports.Set("${f.name}_Snapshot", Napi::Function::New(env, ${f.name}_Snapshot, "${f.name}_Snapshot"));\n`;
  s += '  InitSnapshotFactories(env, kSnapshotFactories);\n';
  s += '}\n\n}  // namespace svcpp_node\n';
  return s;
}

export function generate(model) {
  return [
    { path: 'bindings/napi/generated/handle_traits.hpp', content: handleTraits(model) },
    { path: 'bindings/napi/generated/errc_codes.cpp', content: errcCodes(model) },
    { path: 'bindings/napi/generated/functions.cpp', content: functionsFile(model) },
  ];
}
