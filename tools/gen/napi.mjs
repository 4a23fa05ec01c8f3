// bindings/napi/generated/* — node-addon-api glue over the C ABI, one JS function per C function
// (the NativeApi of contract/native-api.ts). The hand-written half is bindings/napi/src.
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
    if (t.kind !== 'client')
      s += `  static Svcpp_Errc Clone(${t.cName} *self, ${t.cName} const *other) { return ${t.cName}_Clone(self, other); }\n`;
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
    case 'bool':
      return `BoolArg(${v})`;
    case 'i32':
      return `I32Arg(${v})`;
    case 'u32':
      return `U32Arg(${v})`;
    case 'f32':
      return `F32Arg(${v})`;
    case 'u64':
      return `U64Arg(${v})`;
    case 'enum':
      return `static_cast<${model.cType(t)}>(I32Arg(${v}))`;
    default:
      throw new Error(`not a scalar: ${t}`);
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
    case 'bool':
      return `Napi::Boolean::New(env, ${x})`;
    case 'i32':
    case 'u32':
    case 'f32':
    case 'enum':
      return `Napi::Number::New(env, static_cast<double>(${x}))`;
    case 'u64':
      return `Napi::BigInt::New(env, static_cast<uint64_t>(${x}))`;
    case 'string':
      return take ? `TakeString(env, ${x})` : `BorrowString(env, ${x})`;
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
    default:
      throw new Error(`no JS conversion for ${t}`);
  }
}

function unwrapExpr(model, typeName, v) {
  return isClientType(model, typeName) ? `UnwrapClient(env, ${v})` : `UnwrapHandle<Svcpp_${typeName}>(env, ${v})`;
}

/** The callbacks the addon delivers (not raw, not run on an SDK thread). */
const deliveredCallbacks = (model) => model.callbacks.filter((cb) => !cb.raw && cb.thread !== 'sdk');

/** The delivered events with a payload (eventPayload), in order: the k-th is delivered by the k-th JS deliverer. */
const payloadEvents = (model) =>
  deliveredCallbacks(model)
    .map((cb) => ({ cb, payload: eventPayload(model, cb) }))
    .filter((e) => e.payload);

/**
 * One trampoline per callback typedef: the C arguments converted into a fixed array (no allocation per event). An
 * event with a payload (eventPayload) goes to its JS deliverer instead (InvokeJsWithPayload): the registered function,
 * the converted arguments and the values of its lookup snapshot, read in the same crossing from the client the
 * registration recorded (JsCallback::client).
 */
function trampolines(model) {
  let s = '';
  const payloads = payloadEvents(model);
  for (const cb of deliveredCallbacks(model)) {
    const payloadIndex = payloads.findIndex((e) => e.cb === cb);
    const params = cb.params.map(model.cCallbackParamDecl).concat('void *userData').join(', ');
    if (payloadIndex >= 0) {
      const { payload } = payloads[payloadIndex];
      const pushes = cb.params.map((p) => `values.Push(${toJs(model, p.type, p.name, { borrowed: true })});`);
      pushes.push(`FlattenLookup_${payload.f.name}(env, &registration.client, ${payload.args.join(', ')}, values);`);
      s += `/** ${cb.cName}: the registered JS function, called with converted arguments and the ${payload.name} (payload) by its deliverer (pump thread = JS thread). */\n`;
      s += `void SVCPP_CALL Call_${cb.cName}(${params}) {\n`;
      s += `  InvokeJsWithPayload(userData, ${payloadIndex}, [&](Napi::Env env, JsCallback &registration, SnapshotValues &values) {\n`;
      s += `${pushes.map((a) => `    ${a}`).join('\n')}\n  });\n}\n\n`;
      continue;
    }
    const args = cb.params.map((p, i) => `args[${i}] = ${toJs(model, p.type, p.name, { borrowed: true })};`);
    const count = args.length;
    const lambda = `[&](Napi::Env ${count ? 'env' : ''}, JsCallback &, napi_value *${count ? 'args' : ''})`;
    const body = count ? `\n${args.map((a) => `    ${a}`).join('\n')}\n  ` : '';
    s += `/** ${cb.cName}: the registered JS function, called with converted arguments (pump thread = JS thread). */\n`;
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
      if (fn.op === 'drop' || fn.pump) {
        args.push(v);
        continue;
      } // handled by the call below
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
        lines.push(
          `std::optional<${model.cType(p.type)}> ${n};`,
          `if (!IsNullish(${v})) ${n} = ${scalarArg(model, p.type, v)};`,
        );
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
        lines.push(
          `std::unique_ptr<JsCallback> ${data};`,
          `if (!IsNullish(${v})) ${data} = NewJsCallback(env, FunctionArg(${v})${client});`,
        );
        args.push(
          `${data} ? Call_${p.callback.cName} : nullptr`,
          `${data} ? FreeJsCallback : nullptr`,
          `${data}.get()`,
        );
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
  if (fn.op === 'drop')
    call = isClient ? `DropClient(env, ${args[0]})` : `DropHandle<${fn.owner.cName}>(env, ${args[0]})`;
  // A bounded pump (RunCallbacksUpTo) passes its bound; the C function refuses a bad one.
  else if (fn.pump)
    call = `RunClientCallbacks(env, ${[args[0], ...args.slice(1).map((a) => `std::optional<uint32_t>(${a})`)].join(', ')})`;
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

/**
 * How one value of IDL type t is read from the SnapshotReader `r`: `push`, the C++ statement pushing it onto the
 * snapshot's values `v` (a map or a list: its count, then its items); `js`, the builder's expression taking it back.
 */
function readValue(t) {
  const p = parseType(t);
  const scalar = (expr) => ({ push: `v.Push(${expr});`, js: 'v[i++]', scalar: true, expr });
  switch (p.kind) {
    case 'bool':
      return scalar('r.Boolean(r.Bool())');
    case 'i32':
    case 'enum':
      return scalar('r.Int32(r.I32())');
    case 'u32':
      return scalar('r.Uint32(r.U32())');
    case 'f32':
      return scalar('r.Number(static_cast<double>(r.F32()))');
    case 'u64':
      return scalar('r.BigInt(r.U64())');
    case 'string':
      return scalar('r.String()');
    case 'map':
      return { push: 'r.Properties(v);', js: 'properties()' };
    case 'list':
      if (p.elem.kind === 'u64') return { push: 'r.U64List(v);', js: 'u64List()' };
      break;
    default:
      break;
  }
  throw new Error(`napi: no packed layout for ${t}`);
}

/**
 * How one snapshot field is read from the packed layout the C snapshot wrote (tools/gen/c_snapshots.mjs writes the
 * same fields in the same order: the layout is theirs): the C++ statement pushing its values (a nested object's
 * inline, a list's count then its items) and the builder's expression taking them back. An optional scalar is its
 * value or undefined; any other optional value is a presence flag, then the value when present.
 */
function readSnapshotField(field) {
  const fn = field.f.fn;
  let one;
  if (fn.ret === 'value') one = readValue(fn.valueType);
  else if (fn.ret === 'cstr') one = readValue('string');
  else if (field.mode === 'nest') one = { push: `Flatten_${field.target}(r, v);`, js: `${field.target}()` };
  else if (field.mode === 'list') one = { push: `v.List(r, Flatten_${field.target});`, js: `list(${field.target})` };
  else if (field.mode === 'only') one = readValue(field.only.fn.valueType);
  else one = readValue(field.f.returns.type);
  if (fn.ret !== 'optional') return one;
  if (one.scalar) return { push: `v.Push(r.Present() ? ${one.expr} : v.Undefined());`, js: 'v[i++]' };
  return { push: `if (v.PushPresence(r.Present())) { ${one.push} }`, js: `v[i++] ? ${one.js} : undefined` };
}

/**
 * The JavaScript source of the snapshot builders, compiled once per environment (napi_run_script; snapshots.hpp
 * InitSnapshotBuilders): `[builders, more, deliverers]`. builders[k] takes every value of a snapshot of the k-th type
 * (in snapshotSpecs order) as its arguments, its nested objects' and lists' values inline, and builds the whole object
 * tree in optimised JS — one call into JS per snapshot, each object a literal with one hidden class per type. `more`
 * takes the values of a large snapshot ahead of the last chunk (SnapshotValues: a bounded number of arguments per
 * call). deliverers[k] delivers the k-th payload event (payloadEvents): it builds the payload and calls the function.
 */
function snapshotBuilderSource(specs, payloads) {
  const readers = [...specs].map(([name, spec]) => {
    const parts = [
      ...spec.fields.map((field) => `${JSON.stringify(field.key)}: ${readSnapshotField(field).js}`),
      ...spec.calls.map((c) => `${JSON.stringify(c.key)}: v[i++]`),
    ];
    return `  const ${name} = () => ({ ${parts.join(', ')} });`;
  });
  // An event's deliverer: the function, the event's arguments, then its payload's values (none: not found).
  const deliverers = payloads.map(({ cb, payload }) => {
    const args = cb.params.map((_, k) => `a${k}`);
    const taken = ['fn = v[i++]', ...args.map((a) => `${a} = v[i++]`)].join(', ');
    return `    (...values) => { take(values); const ${taken}; const payload = i < v.length ? ${payload.target}() : undefined; v = none; return fn(${[...args, 'payload'].join(', ')}); },`;
  });
  return `(() => {
  const none = [];
  let v = none, i = 0, earlier = none;
  const list = (read) => { const items = []; for (let n = v[i++]; n > 0; n--) items.push(read()); return items; };
  const u64List = () => { const ids = []; for (let n = v[i++]; n > 0; n--) ids.push(v[i++]); return ids; };
  // fromEntries: a "__proto__" key stays an entry, as everywhere else.
  const properties = () => { const entries = []; for (let n = v[i++]; n > 0; n--) entries.push([v[i++], v[i++]]); return Object.fromEntries(entries); };
${readers.join('\n')}
  const take = (values) => {
    if (earlier === none) v = values;
    else {
      v = earlier.concat(values);
      earlier = none;
    }
    i = 0;
  };
  const builder = (read) => (...values) => {
    take(values);
    const built = read();
    v = none; // the values are not kept alive until the next snapshot
    return built;
  };
  const more = (...values) => {
    if (earlier === none) earlier = [];
    for (const value of values) earlier.push(value);
  };
  return [[${[...specs.keys()].map((name) => `builder(${name})`).join(', ')}], more, [
${deliverers.join('\n')}
  ]];
})()`;
}

/**
 * The Snapshot entry points: `<Type>_Snapshot(handle, drop?)` is one call of the C snapshot `Svcpp_<T>_WriteSnapshot`
 * (every getter, read inside the library) and the packed bytes read into the type's builder by `ReadSnapshot_<T>`.
 */
function snapshotFunctions(model) {
  const specs = snapshotSpecs(model);
  let s =
    '// ---- snapshots (idl/surface.mjs `snapshots`; native/SEMANTICS.md "Snapshots") -----------------------------\n\n';
  s += `/** The snapshot builders' source (see InitSnapshotBuilders): builders[k] builds the snapshot of the k-th type below. */\n`;
  s += `constexpr const char *kSnapshotBuilders = R"js(${snapshotBuilderSource(specs, payloadEvents(model))})js";\n\n`;
  for (const [name] of specs) s += `void Flatten_${name}(SnapshotReader &r, SnapshotValues &v);\n`;
  s += '\n';
  let builderIndex = 0;
  for (const [name, spec] of specs) {
    // One statement per value: the layout is read in order.
    const lines = [
      ...spec.fields.map((field) => readSnapshotField(field).push),
      ...spec.calls.map(() => 'v.Push(r.String());'),
    ];
    if (lines.length === 0) lines.push('(void)r;', '(void)v;');
    s += `void Flatten_${name}(SnapshotReader &r, SnapshotValues &v) {\n${lines.map((l) => `  ${l}`).join('\n')}\n}\n\n`;
    s += `napi_value ReadSnapshot_${name}(Napi::Env env, SnapshotReader &r) {\n`;
    s += `  return SnapshotValues::Build(env, ${builderIndex}, [&](SnapshotValues &v) { Flatten_${name}(r, v); });\n}\n\n`;
    builderIndex += 1;
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

/** Declarations of the payload lookups' FlattenLookup_<Lookup> (the trampolines of events with a payload use them). */
function lookupSnapshotDeclarations(model) {
  return payloadLookups(model)
    .map(({ f }) => `${flattenLookupSignature(f)};\n`)
    .join('');
}

/** The lookup snapshots events read as their payload, each once. */
const payloadLookups = (model) =>
  lookupSnapshots(model).filter(({ f }) => payloadEvents(model).some(({ payload }) => payload.f.name === f.name));

const flattenLookupSignature = (f) =>
  `void FlattenLookup_${f.name}(${['Napi::Env env', 'Svcpp_Client const *client', ...lookupIds(f).map((n) => `uint64_t ${n}`), 'SnapshotValues &values'].join(', ')})`;

/**
 * `FlattenLookup_<Lookup>`: a lookup snapshot's values pushed for an event's deliverer (none when nothing is found).
 */
function flattenLookupFunctions(model) {
  let s = '';
  for (const { f, target } of payloadLookups(model)) {
    s += `${flattenLookupSignature(f)} {\n`;
    s += `  ReadCSnapshot(env, SnapshotKind::Lookup, [&](uint8_t *buffer, size_t capacity, size_t *size) {\n`;
    s += `    return ${f.fn.cName}_WriteSnapshot(${['client', ...lookupIds(f), 'buffer', 'capacity', 'size'].join(', ')});\n`;
    s += `  }, [&values](Napi::Env, SnapshotReader &r) -> napi_value {\n    Flatten_${target}(r, values);\n    return nullptr;\n  });\n}\n\n`;
  }
  return s;
}

/**
 * `<Lookup>_Snapshot(client, ...ids)`: the lookup and its object's snapshot in one crossing (snapshots.mjs
 * lookupSnapshots), through `LookupSnapshot_<Lookup>`, which the payload of an event reads too.
 */
function lookupSnapshotFunctions(model) {
  let s =
    '// ---- lookup snapshots ---------------------------------------------------------------------------------\n\n';
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
  return s + flattenLookupFunctions(model);
}

function functionsFile(model) {
  const fns = jsFunctions(model);
  let s = `${HEADER}// One Napi function per C function of svcpp.h (see contract/native-api.ts for the JS contract).
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
  for (const name of snapshotSpecs(model).keys())
    s += `  exports.Set("${name}_Snapshot", Napi::Function::New(env, ${name}_Snapshot, "${name}_Snapshot"));\n`;
  for (const { f } of lookupSnapshots(model))
    s += `  exports.Set("${f.name}_Snapshot", Napi::Function::New(env, ${f.name}_Snapshot, "${f.name}_Snapshot"));\n`;
  s += '  InitSnapshotBuilders(env, kSnapshotBuilders);\n';
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
