// Normalises idl/surface.mjs into the model every generator walks.
//
// The central product is `model.functions`: the flat list of C ABI functions, each with its C name, its
// parameters in C order (self, inputs, callback triples, out-params) and how it returns. Every layer
// (C header, C marshalling, C++ wrapper, N-API glue, koffi declarations, TypeScript) is a walk over this
// list, so they cannot disagree about names, order or ownership.
import * as idl from '../../idl/surface.mjs';

export const PREFIX = 'Svcpp_';

/** 'Client.Status' -> 'Client_Status' (C type suffix), 'LoggingSeverity' -> 'LoggingSeverity'. */
export const flat = (dotted) => dotted.replace(/\./g, '_');
/** 'Client.Status' -> 'ClientStatus' (core/TS identifier). */
export const joined = (dotted) => dotted.replace(/\./g, '');
export const lowerFirst = (s) => s.charAt(0).toLowerCase() + s.slice(1);

/**
 * Parses an IDL type string. `list:obj:X` is a span of X objects (c-abi.md §5): `name` is the element type's
 * name and `elem` the parsed element type.
 * @returns {{kind: 'bool'|'i32'|'u32'|'u64'|'f32'|'string'|'enum'|'obj'|'cb'|'voidptr'|'list', name?: string, elem?: object}}
 */
export function parseType(t) {
  const list = /^list:(obj:.+)$/.exec(t);
  if (list) {
    const elem = parseType(list[1]);
    return { kind: 'list', name: elem.name, elem };
  }
  const m = /^(enum|obj|cb):(.+)$/.exec(t);
  if (m) return { kind: m[1], name: m[2] };
  if (['bool', 'i32', 'u32', 'u64', 'f32', 'string', 'voidptr'].includes(t)) return { kind: t };
  throw new Error(`unknown IDL type ${t}`);
}

const SCALAR_C = { bool: 'bool', i32: 'int32_t', u32: 'uint32_t', u64: 'uint64_t', f32: 'float', voidptr: 'void *' };

/** C spelling of a value of IDL type t (string -> Svcpp_String, obj -> Svcpp_X, list:obj:X -> Svcpp_XSpan). */
export function cType(t) {
  const p = parseType(t);
  if (p.kind === 'string') return `${PREFIX}String`;
  if (p.kind === 'list') return `${PREFIX}${flat(p.name)}Span`;
  if (p.kind === 'enum' || p.kind === 'obj') return `${PREFIX}${flat(p.name)}`;
  if (p.kind === 'cb') return `${PREFIX}${flat(p.name)}`;
  return SCALAR_C[p.kind];
}

export const enums = idl.enums.map((e) => ({
  ...e,
  cName: `${PREFIX}${flat(e.name)}`,
  coreName: joined(e.name),
  tsName: joined(e.name),
  toStringName: e.name === 'Errc' ? `${PREFIX}ErrcName` : `${PREFIX}${flat(e.name)}ToString`,
}));
export const enumByName = new Map(enums.map((e) => [e.name, e]));

export const callbacks = idl.callbacks.map((c) => ({
  ...c,
  cName: `${PREFIX}${flat(c.name)}`,
  coreName: joined(c.name),
  thread: c.thread ?? 'pump',
}));
export const callbackByName = new Map(callbacks.map((c) => [c.name, c]));

export const types = idl.types.map((t) => ({ ...t, cName: `${PREFIX}${t.name}`, fields: t.fields ?? [], methods: t.methods ?? [] }));
export const typeByName = new Map(types.map((t) => [t.name, t]));

/**
 * A parameter of a C function.
 * role: self | in | cb | cbFree | cbData | out
 * For `in`: optional => passed by pointer (NULL = unset); obj => always by const pointer.
 * For `out`: the function writes *out; `optional` outs make the function return bool.
 */
function param(name, type, role, extra = {}) {
  return { name, type, role, ...extra };
}

function expandInputs(params) {
  const out = [];
  for (const p of params ?? []) {
    const t = parseType(p.type);
    if (t.kind === 'cb') {
      out.push(param(p.name, p.type, 'cb', { callback: callbackByName.get(t.name), nullable: !!p.nullable }));
      out.push(param(`${p.name}__userDataFree`, 'cb:FreeFn', 'cbFree'));
      out.push(param(`${p.name}__userData`, 'voidptr', 'cbData'));
    } else if (t.kind === 'list') {
      throw new Error(`parameter ${p.name}: spans are not inputs (only callback arguments and method results)`);
    } else {
      out.push(param(p.name, p.type, 'in', { optional: !!p.optional, max: p.max, min: p.min }));
    }
  }
  return out;
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

function fieldFunctions(type, f) {
  const t = parseType(f.type);
  if (t.kind === 'list') throw new Error(`${type.name}.${f.name}: list fields are not supported (spans are callback arguments and method results)`);
  const self = param('self', `obj:${type.name}`, 'self', { constSelf: true });
  const getter = makeFunction({
    cName: `${type.cName}_${f.name}`, owner: type, member: f.name, op: 'get', field: f, doc: f.doc ?? '',
    params: [self],
  });
  if (f.optional) {
    getter.ret = 'optional';
    getter.params.push(param('out', f.type, 'out'));
  } else if (t.kind === 'string' || t.kind === 'obj') {
    getter.params.push(param('out', f.type, 'out'));
  } else {
    getter.ret = 'value';
    getter.valueType = f.type;
  }
  const setter = makeFunction({
    cName: `${type.cName}_Set${f.name}`, owner: type, member: f.name, op: 'set', field: f,
    doc: f.optional ? `Sets ${f.name}; NULL clears it.` : `Sets ${f.name}.`,
    params: [param('self', `obj:${type.name}`, 'self'), param('value', f.type, 'in', { optional: !!f.optional, max: f.max, min: f.min })],
  });
  return [getter, setter];
}

function methodFunction(type, m) {
  const fn = makeFunction({
    cName: `${type.cName}_${m.name}`, owner: type, member: m.name, op: m.static ? 'static' : 'method', method: m,
    doc: m.doc ?? '', pump: !!m.pump,
  });
  if (!m.static) fn.params.push(param('self', `obj:${type.name}`, 'self', { constSelf: !!m.const }));
  fn.params.push(...expandInputs(m.params));
  if (m.returns && m.optional) {
    if (parseType(m.returns).kind === 'list') throw new Error(`${type.name}.${m.name}: a span result is never optional (empty is {NULL, 0})`);
    // A lookup that may miss: bool f(self, ..., T *out) — false (out untouched) when absent.
    fn.ret = 'optional';
    fn.params.push(param('out', m.returns, 'out'));
  } else if (m.returns) {
    const t = parseType(m.returns);
    if (t.kind === 'string' || t.kind === 'obj' || t.kind === 'list') fn.params.push(param('out', m.returns, 'out'));
    else { fn.ret = 'value'; fn.valueType = m.returns; }
  }
  if (m.out) fn.params.push(param(`out${m.out.name.charAt(0).toUpperCase()}${m.out.name.slice(1)}`, m.out.type, 'out'));
  return fn;
}

function lifecycleFunctions(type) {
  const fns = [];
  const self = param('self', `obj:${type.name}`, 'self', { uninit: true });
  if (type.kind === 'client') {
    for (const c of type.constructors) {
      fns.push(makeFunction({ cName: `${type.cName}_${c.name}`, owner: type, member: c.name, op: 'init', doc: c.doc,
        params: [self, ...expandInputs(c.params)] }));
    }
  } else if (type.init) {
    fns.push(makeFunction({ cName: `${type.cName}_Init`, owner: type, member: 'Init', op: 'init',
      doc: `Creates an empty ${type.name}. Overwrites *self without dropping it.`, params: [self] }));
  }
  fns.push(makeFunction({ cName: `${type.cName}_Drop`, owner: type, member: 'Drop', op: 'drop',
    doc: 'Releases the object and zeroes the handle. Dropping a zeroed handle is Ok.',
    params: [param('self', `obj:${type.name}`, 'self', { dropSelf: true })] }));
  if (type.kind === 'value' || type.kind === 'handle') {
    fns.push(makeFunction({ cName: `${type.cName}_Clone`, owner: type, member: 'Clone', op: 'clone',
      doc: 'Deep copy of other into *self (overwritten, not dropped first).',
      params: [param('self', `obj:${type.name}`, 'self', { uninit: true }), param('other', `obj:${type.name}`, 'in')] }));
  }
  // A type with a field of that name (ActivityInvite.IsValid, the reference's name) keeps the field: its getter is
  // false for a dead handle too, so it still answers "is this usable".
  if (type.fields.some((f) => f.name === 'IsValid')) return fns;
  fns.push(makeFunction({ cName: `${type.cName}_IsValid`, owner: type, member: 'IsValid', op: 'isValid', ret: 'value', valueType: 'bool',
    doc: 'True when the handle holds a live object of this type.', params: [param('self', `obj:${type.name}`, 'self', { constSelf: true })] }));
  return fns;
}

export const functions = [];
for (const type of types) {
  functions.push(...lifecycleFunctions(type));
  for (const f of type.fields) functions.push(...fieldFunctions(type, f));
  for (const m of type.methods) functions.push(methodFunction(type, m));
}
for (const e of enums) {
  functions.push(makeFunction({
    cName: e.toStringName, owner: null, member: `${e.coreName}ToString`, op: 'enumToString', enum: e, ret: 'cstr',
    doc: `Name of a ${e.name} value (static storage; "Unknown" for values this library does not know).`,
    params: [param('value', `enum:${e.name}`, 'in', { anyEnumValue: true })],
  }));
}

/**
 * Span types (c-abi.md §5): one per element type used in a `list:` callback parameter or method result, in order
 * of first use. Each gets a C struct {ptr, size} and a Drop function (model.functions, op 'spanDrop').
 */
export const spans = [];
{
  const seen = new Set();
  const use = (t) => {
    const p = parseType(t);
    if (p.kind !== 'list' || seen.has(t)) return;
    const elem = typeByName.get(p.name);
    if (!elem || elem.kind === 'client') throw new Error(`${t}: the element type must be a value or handle type`);
    seen.add(t);
    spans.push({ type: t, elem, cName: cType(t) });
  };
  for (const cb of callbacks) for (const p of cb.params) use(p.type);
  for (const fn of functions) for (const p of fn.params) if (p.role === 'out') use(p.type);
}
for (const span of spans) {
  functions.push(makeFunction({
    cName: `${span.cName}_Drop`, owner: null, member: `${span.cName}_Drop`, op: 'spanDrop', span,
    doc: 'Drops every element, frees the buffer and zeroes the span. A zeroed span is Ok; NULL is NullArgument.',
    params: [param('span', span.type, 'self', { dropSelf: true })],
  }));
}

export const abi = idl.abi;
export const product = idl.product;
export const globals = idl.globals;

/** Every exported symbol, sorted: the committed symbol list is checked against `nm -D`. */
export const exportedSymbols = [...functions.map((f) => f.cName), ...globals].sort();

/** The C declaration of one parameter, e.g. `Svcpp_String const *value`. */
export function cParamDecl(p) {
  const t = parseType(p.type);
  switch (p.role) {
    case 'self': return `${cType(p.type)}${p.constSelf ? ' const' : ''} *${p.name}`;
    case 'cb': case 'cbFree': return `${cType(p.type)} ${p.name}`;
    case 'cbData': return `void *${p.name}`;
    case 'out': return `${cType(p.type)} *${p.name}`;
    case 'in':
      if (t.kind === 'obj') return `${cType(p.type)} const *${p.name}`;
      if (p.optional) return `${cType(p.type)} const *${p.name}`;
      return `${cType(p.type)} ${p.name}`;
    default: throw new Error(`unknown role ${p.role}`);
  }
}

/** The C return type of a function. */
export function cReturnType(fn) {
  switch (fn.ret) {
    case 'errc': return `${PREFIX}Errc`;
    case 'optional': return 'bool';
    case 'cstr': return 'const char *';
    case 'value': return cType(fn.valueType);
    default: throw new Error(`unknown return kind ${fn.ret}`);
  }
}

/** The C declaration of one callback parameter: objects are borrowed `Svcpp_X const *`, spans borrowed by value. */
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
