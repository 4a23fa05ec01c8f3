// Normalises an IDL module (idl/surface.mjs) into the model every generator walks (buildModel).
//
// The central product is `model.functions`: the flat list of C ABI functions, each with its C name, its
// parameters in C order (self, inputs, callback triples, out-params) and how it returns. Every layer
// (C header, C marshalling, C++ wrapper, N-API glue, koffi declarations, TypeScript) is a walk over this
// list, so they cannot disagree about names, order or ownership.
import { resolveRenames } from './renames.mjs';

export const PREFIX = 'Svcpp_';

/** 'Client.Status' -> 'Client_Status' (C type suffix), 'LoggingSeverity' -> 'LoggingSeverity'. */
export const flat = (dotted) => dotted.replace(/\./g, '_');
/** 'Client.Status' -> 'ClientStatus' (core/TS identifier). */
export const joined = (dotted) => dotted.replace(/\./g, '');
export const lowerFirst = (s) => s.charAt(0).toLowerCase() + s.slice(1);

/**
 * Parses an IDL type string. A `list:` is a span (native/SEMANTICS.md "Spans") with `elem` the parsed element type:
 * `list:obj:X` (X handles; `name` is X) or `list:u64` (`name` undefined — test `isU64List`). `map` is a string->string
 * properties map (native/SEMANTICS.md "Maps").
 * @returns {{kind: 'bool'|'i32'|'u32'|'u64'|'f32'|'string'|'enum'|'obj'|'cb'|'voidptr'|'list'|'map', name?: string,
 * elem?: object}}
 */
export function parseType(t) {
  const list = /^list:(obj:.+|u64)$/.exec(t);
  if (list) {
    const elem = parseType(list[1]);
    return { kind: 'list', name: elem.name, elem };
  }
  const m = /^(enum|obj|cb):(.+)$/.exec(t);
  if (m) return { kind: m[1], name: m[2] };
  // samples (int16_t *, PCM a callback may change in place) and boolref (bool *, an out-flag of a callback) exist only
  // as callback parameters of the audio callbacks.
  if (['bool', 'i32', 'u32', 'u64', 'f32', 'string', 'voidptr', 'map', 'samples', 'boolref'].includes(t))
    return { kind: t };
  throw new Error(`unknown IDL type ${t}`);
}

/** True for a parsed `list:u64` (a span of plain uint64_t, not of handles). */
export const isU64List = (p) => p.kind === 'list' && p.elem.kind === 'u64';
/** True for a parsed `list:obj:X`. */
export const isObjList = (p) => p.kind === 'list' && p.elem.kind === 'obj';

const SCALAR_C = {
  bool: 'bool',
  i32: 'int32_t',
  u32: 'uint32_t',
  u64: 'uint64_t',
  f32: 'float',
  voidptr: 'void *',
  samples: 'int16_t *',
  boolref: 'bool *',
};

/**
 * C spelling of a value of IDL type t (string -> Svcpp_String, obj -> Svcpp_X, list:obj:X -> Svcpp_XSpan,
 * list:u64 -> Svcpp_UInt64Span, map -> Svcpp_Properties).
 */
export function cType(t) {
  const p = parseType(t);
  if (p.kind === 'string') return `${PREFIX}String`;
  if (p.kind === 'map') return `${PREFIX}Properties`;
  if (isU64List(p)) return `${PREFIX}UInt64Span`;
  if (p.kind === 'list') return `${PREFIX}${flat(p.name)}Span`;
  if (p.kind === 'enum' || p.kind === 'obj') return `${PREFIX}${flat(p.name)}`;
  if (p.kind === 'cb') return `${PREFIX}${flat(p.name)}`;
  return SCALAR_C[p.kind];
}

/**
 * A parameter of a C function.
 * role: self | in | cb | cbFree | cbData | out
 * For `in`: optional => passed by pointer (NULL = unset); obj => always by const pointer; string, map and
 * spans by value (borrowed for the call).
 * For `out`: the function writes *out; `optional` outs make the function return bool.
 */
function param(name, type, role, extra = {}) {
  return { name, type, role, ...extra };
}

/**
 * How a C function returns:
 *   errc        Svcpp_Errc; outputs (if any) through out-params
 *   value       a required scalar/enum getter: returns the value (default on misuse, last error set)
 *   optional    bool: true and *out written when present; false when absent or on misuse
 */
function makeFunction(fields) {
  return { doc: '', params: [], ret: 'errc', ...fields };
}

/**
 * The core call of a client method on a `ClientRef client`: through its area's service when it has one
 * (`client->Lobbies().LeaveLobby`), else core::Client's own member.
 */
export function clientMember(fn) {
  if (!fn.area) return `client->${fn.member}`;
  return `client->${fn.area.charAt(0).toUpperCase()}${fn.area.slice(1)}().${fn.member}`;
}

/** The header of an area's service: `native/core/<area>/<area>_service.hpp`, the area in snake case. */
export function areaHeader(area) {
  const folder = area.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return `${folder}/${folder}_service.hpp`;
}

/** Types whose C form is written through an out-param (never returned by value). */
const isOutParamType = (t) => ['string', 'obj', 'list', 'map'].includes(t.kind);

/**
 * Builds the model of an IDL module (idl/surface.mjs, or an in-memory surface in the generator tests).
 * Throws on a construct the layers do not support, so it can never be silently mis-generated.
 */
export function buildModel(idl) {
  const enums = idl.enums.map((e) => ({
    ...e,
    cName: `${PREFIX}${flat(e.name)}`,
    coreName: joined(e.name),
    tsName: joined(e.name),
    toStringName: e.name === 'Errc' ? `${PREFIX}ErrcName` : `${PREFIX}${flat(e.name)}ToString`,
  }));
  const enumByName = new Map(enums.map((e) => [e.name, e]));

  const callbacks = idl.callbacks.map((c) => ({
    ...c,
    cName: `${PREFIX}${flat(c.name)}`,
    coreName: joined(c.name),
    thread: c.thread ?? 'pump',
  }));
  const callbackByName = new Map(callbacks.map((c) => [c.name, c]));

  const types = idl.types.map((t) => ({
    ...t,
    cName: `${PREFIX}${t.name}`,
    fields: t.fields ?? [],
    methods: t.methods ?? [],
  }));
  const typeByName = new Map(types.map((t) => [t.name, t]));
  // A value type's core struct holds its obj and list:obj fields by value, so they must be declared before it.
  types.forEach((t, i) => {
    for (const f of t.fields) {
      const p = parseType(f.type);
      if (p.kind !== 'obj' && !isObjList(p)) continue;
      const at = types.findIndex((x) => x.name === p.name);
      if (at < 0) throw new Error(`${t.name}.${f.name}: unknown type ${p.name}`);
      if (at >= i) throw new Error(`${t.name}.${f.name}: ${p.name} must be declared before ${t.name}`);
    }
  });

  /** Options of a `map` input: limits checked by the C layer (0 = none). */
  const mapLimits = (p) => ({ maxKeys: p.maxKeys, maxKey: p.maxKey, maxValue: p.maxValue });

  function expandInputs(where, params) {
    const out = [];
    for (const p of params ?? []) {
      const t = parseType(p.type);
      if (t.kind === 'cb') {
        out.push(param(p.name, p.type, 'cb', { callback: callbackByName.get(t.name), nullable: !!p.nullable }));
        out.push(param(`${p.name}UserDataFree`, 'cb:FreeFn', 'cbFree'));
        out.push(param(`${p.name}UserData`, 'voidptr', 'cbData'));
      } else if (t.kind === 'list') {
        throw new Error(
          `${where} parameter ${p.name}: spans are not method inputs (callback arguments, method results and value fields)`,
        );
      } else {
        if (t.kind === 'map' && p.optional)
          throw new Error(`${where} parameter ${p.name}: a map is never optional (empty is {0, NULL, NULL})`);
        out.push(param(p.name, p.type, 'in', { optional: !!p.optional, max: p.max, min: p.min, ...mapLimits(p) }));
      }
    }
    return out;
  }

  function fieldFunctions(type, f) {
    const t = parseType(f.type);
    const where = `${type.name}.${f.name}`;
    if (t.kind === 'list' || t.kind === 'map') {
      if (type.kind !== 'value') throw new Error(`${where}: list and map fields exist only on value types`);
      if (f.optional) throw new Error(`${where}: a list or map field is never optional (empty is its absent state)`);
      if (isObjList(t) && typeByName.get(t.name)?.kind !== 'value')
        throw new Error(`${where}: a list field holds value objects`);
    }
    const self = param('self', `obj:${type.name}`, 'self', { constSelf: true });
    const getter = makeFunction({
      cName: `${type.cName}_${f.name}`,
      owner: type,
      member: f.name,
      op: 'get',
      field: f,
      doc: f.doc ?? '',
      params: [self],
    });
    if (f.optional) {
      getter.ret = 'optional';
      getter.params.push(param('out', f.type, 'out'));
    } else if (isOutParamType(t)) {
      getter.params.push(param('out', f.type, 'out'));
    } else {
      getter.ret = 'value';
      getter.valueType = f.type;
    }
    const setter = makeFunction({
      cName: `${type.cName}_Set${f.name}`,
      owner: type,
      member: f.name,
      op: 'set',
      field: f,
      doc: f.optional ? `Sets ${f.name}; NULL clears it.` : `Sets ${f.name}.`,
      params: [
        param('self', `obj:${type.name}`, 'self'),
        param('value', f.type, 'in', { optional: !!f.optional, max: f.max, min: f.min, ...mapLimits(f) }),
      ],
    });
    return [getter, setter];
  }

  function methodFunction(type, m) {
    const fn = makeFunction({
      cName: `${type.cName}_${m.name}`,
      owner: type,
      member: m.name,
      // The core service a client method lives in (idl/surface.mjs `inArea`); null: core::Client itself.
      area: m.area ?? null,
      op: m.static ? 'static' : 'method',
      method: m,
      doc: m.doc ?? '',
      pump: !!m.pump,
    });
    if (!m.static) fn.params.push(param('self', `obj:${type.name}`, 'self', { constSelf: !!m.const }));
    fn.params.push(...expandInputs(`${type.name}.${m.name}`, m.params));
    if (m.returns && m.optional) {
      const kind = parseType(m.returns).kind;
      if (kind === 'list')
        throw new Error(`${type.name}.${m.name}: a span result is never optional (empty is {NULL, 0})`);
      if (kind === 'map')
        throw new Error(`${type.name}.${m.name}: a map result is never optional (empty is {0, NULL, NULL})`);
      // A lookup that may miss: bool f(self, ..., T *out) — false (out untouched) when absent.
      fn.ret = 'optional';
      fn.params.push(param('out', m.returns, 'out'));
    } else if (m.returns) {
      if (isOutParamType(parseType(m.returns))) fn.params.push(param('out', m.returns, 'out'));
      else {
        fn.ret = 'value';
        fn.valueType = m.returns;
      }
    }
    if (m.out)
      fn.params.push(param(`out${m.out.name.charAt(0).toUpperCase()}${m.out.name.slice(1)}`, m.out.type, 'out'));
    return fn;
  }

  function lifecycleFunctions(type) {
    const fns = [];
    const self = param('self', `obj:${type.name}`, 'self', { uninit: true });
    if (type.kind === 'client') {
      for (const c of type.constructors) {
        fns.push(
          makeFunction({
            cName: `${type.cName}_${c.name}`,
            owner: type,
            member: c.name,
            op: 'init',
            doc: c.doc,
            params: [self, ...expandInputs(`${type.name}.${c.name}`, c.params)],
          }),
        );
      }
    } else if (type.init) {
      fns.push(
        makeFunction({
          cName: `${type.cName}_Init`,
          owner: type,
          member: 'Init',
          op: 'init',
          doc: `Creates an empty ${type.name}. Overwrites *self without dropping it.`,
          params: [self],
        }),
      );
    }
    fns.push(
      makeFunction({
        cName: `${type.cName}_Drop`,
        owner: type,
        member: 'Drop',
        op: 'drop',
        doc: 'Releases the object and zeroes the handle. Dropping a zeroed handle is Ok.',
        params: [param('self', `obj:${type.name}`, 'self', { dropSelf: true })],
      }),
    );
    if (type.kind === 'value' || type.kind === 'handle') {
      fns.push(
        makeFunction({
          cName: `${type.cName}_Clone`,
          owner: type,
          member: 'Clone',
          op: 'clone',
          doc: 'Deep copy of other into *self (overwritten, not dropped first).',
          params: [
            param('self', `obj:${type.name}`, 'self', { uninit: true }),
            param('other', `obj:${type.name}`, 'in'),
          ],
        }),
      );
    }
    // A type with a field of that name (ActivityInvite.IsValid, the reference's name) keeps the field: its getter is
    // false for a dead handle too, so it still answers "is this usable".
    if (type.fields.some((f) => f.name === 'IsValid')) return fns;
    fns.push(
      makeFunction({
        cName: `${type.cName}_IsValid`,
        owner: type,
        member: 'IsValid',
        op: 'isValid',
        ret: 'value',
        valueType: 'bool',
        doc: 'True when the handle holds a live object of this type.',
        params: [param('self', `obj:${type.name}`, 'self', { constSelf: true })],
      }),
    );
    return fns;
  }

  const functions = [];
  for (const type of types) {
    functions.push(...lifecycleFunctions(type));
    for (const f of type.fields) functions.push(...fieldFunctions(type, f));
    for (const m of type.methods) functions.push(methodFunction(type, m));
  }
  for (const e of enums) {
    functions.push(
      makeFunction({
        cName: e.toStringName,
        owner: null,
        member: `${e.coreName}ToString`,
        op: 'enumToString',
        enum: e,
        ret: 'cstr',
        doc: `Name of a ${e.name} value (static storage; "Unknown" for values this library does not know).`,
        params: [param('value', `enum:${e.name}`, 'in', { anyEnumValue: true })],
      }),
    );
  }

  /**
   * Span types (native/SEMANTICS.md "Spans"): Svcpp_UInt64Span, then one per element type used in a `list:` callback
   * parameter, method result or value field, in order of first use. Each gets a C struct {ptr, size} and a Drop
   * function (op 'spanDrop'); `elem` is the element type (null for list:u64, whose elements are plain uint64_t).
   */
  const spans = [];
  {
    const seen = new Set();
    const use = (t) => {
      const p = parseType(t);
      if (p.kind !== 'list' || seen.has(t)) return;
      let elem = null;
      if (!isU64List(p)) {
        elem = typeByName.get(p.name);
        if (!elem || elem.kind === 'client') throw new Error(`${t}: the element type must be a value or handle type`);
      }
      seen.add(t);
      spans.push({ type: t, elem, cName: cType(t) });
    };
    // Svcpp_UInt64Span is part of the fixed vocabulary (like Svcpp_String and Svcpp_Properties): always declared,
    // so the marshalling helpers and their tests exist before the first method uses it.
    use('list:u64');
    for (const cb of callbacks) for (const p of cb.params) use(p.type);
    for (const fn of functions) for (const p of fn.params) if (p.role === 'out' || p.role === 'in') use(p.type);
  }
  for (const span of spans) {
    functions.push(
      makeFunction({
        cName: `${span.cName}_Drop`,
        owner: null,
        member: `${span.cName}_Drop`,
        op: 'spanDrop',
        span,
        doc: span.elem
          ? 'Drops every element, frees the buffer and zeroes the span. A zeroed span is Ok; NULL is NullArgument.'
          : 'Frees the buffer (same as Svcpp_Free(span->ptr)) and zeroes the span. A zeroed span is Ok; NULL is NullArgument.',
        params: [param('span', span.type, 'self', { dropSelf: true })],
      }),
    );
  }

  return {
    // the stateless helpers, so generators can reach everything through the model they are given
    PREFIX,
    flat,
    joined,
    lowerFirst,
    parseType,
    isU64List,
    isObjList,
    cType,
    cParamDecl,
    cReturnType,
    cCallbackParamDecl,
    cCallbackParams,
    enums,
    enumByName,
    callbacks,
    callbackByName,
    types,
    typeByName,
    functions,
    spans,
    /** The reference SDK's names for members and enum values of ours (renames.mjs), resolved and checked. */
    renames: resolveRenames(idl.referenceRenames ?? [], { types, enums, functions }),
    abi: idl.abi,
    product: idl.product,
    globals: idl.globals,
    /** Every exported symbol, sorted: the committed symbol list is checked against `nm -D`. */
    exportedSymbols: [...functions.map((f) => f.cName), ...idl.globals].sort(),
  };
}

/** The C declaration of one parameter, e.g. `Svcpp_String const *value`. */
export function cParamDecl(p) {
  const t = parseType(p.type);
  switch (p.role) {
    case 'self':
      return `${cType(p.type)}${p.constSelf ? ' const' : ''} *${p.name}`;
    case 'cb':
    case 'cbFree':
      return `${cType(p.type)} ${p.name}`;
    case 'cbData':
      return `void *${p.name}`;
    case 'out':
      return `${cType(p.type)} *${p.name}`;
    case 'in':
      if (t.kind === 'obj') return `${cType(p.type)} const *${p.name}`;
      if (p.optional) return `${cType(p.type)} const *${p.name}`;
      return `${cType(p.type)} ${p.name}`;
    default:
      throw new Error(`unknown role ${p.role}`);
  }
}

/** The C return type of a function. */
export function cReturnType(fn) {
  switch (fn.ret) {
    case 'errc':
      return `${PREFIX}Errc`;
    case 'optional':
      return 'bool';
    case 'cstr':
      return 'const char *';
    case 'value':
      return cType(fn.valueType);
    default:
      throw new Error(`unknown return kind ${fn.ret}`);
  }
}

/**
 * The C declaration of one callback parameter: objects are borrowed `Svcpp_X const *`; spans and maps borrowed by
 * value.
 */
export function cCallbackParamDecl(p) {
  if (p.type === 'voidptr') return `void *${p.name}`;
  return parseType(p.type).kind === 'obj' ? `${cType(p.type)} const *${p.name}` : `${cType(p.type)} ${p.name}`;
}

/** The C parameter list of a callback typedef (userData appended unless raw). */
export function cCallbackParams(cb) {
  const ps = cb.params.map(cCallbackParamDecl);
  if (!cb.raw) ps.push('void *userData');
  return ps.length ? ps.join(', ') : 'void';
}
