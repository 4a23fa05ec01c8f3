// The JavaScript view of the C ABI, shared by the TypeScript, N-API and koffi generators so the three agree.
//
// Every C function of model.functions becomes one NativeApi member named like the C function without
// `Svcpp_` (Svcpp_AuthorizationArgs_Scopes -> AuthorizationArgs_Scopes), with these rewrites:
//   - an uninitialised `self` (Init*, Clone) is not a parameter: the new handle is the return value;
//   - a (callback, userDataFree, userData) triple is one JS function parameter;
//   - an out-param is the return value; an optional getter returns `T | undefined`;
//   - an Errc return is not visible: non-Ok throws (SvcppError with a stable code).
//   - a span (callback argument or result) is an array of handles JavaScript owns (copies of borrowed elements,
//     or the adopted elements of a result); a span input (a list field's setter) is an array of handles the
//     library copies; list:u64 is an array of bigint both ways;
//   - a map is a plain object of strings (Record<string, string>) both ways; inputs take the object's own
//     enumerable string keys and throw TypeError for a value that is not a string.
// Functions whose callback runs on an SDK thread (the wakeup hook) are left out: each binding owns the
// hook itself (N-API: a thread-safe function; koffi: a timer), so JavaScript never sees a foreign thread.
// Span Drop functions are left out too: JavaScript never holds a span, only the handles of its elements.
import { joined, parseType, PREFIX } from './model.mjs';

/** 'Svcpp_AuthorizationArgs_Scopes' -> 'AuthorizationArgs_Scopes'. */
export const jsName = (cName) => cName.slice(PREFIX.length);

/** Stable error code of an Errc value name: 'InvalidUtf8' -> 'ERR_SVCPP_INVALID_UTF8'. */
export const errcCode = (name) => `ERR_SVCPP_${name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`;

/** True when a function has a callback parameter that runs on an SDK thread. */
const hasSdkThreadCallback = (fn) => fn.params.some((p) => p.role === 'cb' && p.callback.thread === 'sdk');

/** The TypeScript spelling of an IDL type. */
export function tsType(t) {
  const p = parseType(t);
  switch (p.kind) {
    case 'bool':
      return 'boolean';
    case 'i32':
    case 'u32':
    case 'f32':
      return 'number';
    case 'u64':
      return 'bigint';
    case 'string':
      return 'string';
    case 'enum':
      return joined(p.name);
    case 'obj':
      return `NativeHandle<'${p.name}'>`;
    case 'list':
      return p.elem.kind === 'u64' ? 'bigint[]' : `NativeHandle<'${p.name}'>[]`;
    case 'map':
      return 'Record<string, string>';
    default:
      throw new Error(`no TypeScript type for ${t}`);
  }
}

/**
 * The JS function type of a callback typedef: (message: string, severity: LoggingSeverity) => void. `payload` (an
 * event that carries its object, snapshots.mjs eventPayload) adds its snapshot as the last argument.
 */
export function tsCallbackType(cb, payload) {
  const params = cb.params.map((p) => `${p.name}: ${tsType(p.type)}`);
  if (payload) params.push(`${payload.name}: ${payload.target}Data | undefined`);
  return `(${params.join(', ')}) => void`;
}

/**
 * @returns {Array<{fn, name: string, params: Array<{name, type, role, optional?, nullable?, callback?, cIndex}>,
 *   returns: {kind: 'void'|'value'|'handle'|'out'|'optional'|'cstr', type?: string}}>}
 */
export function jsFunctions(model) {
  const out = [];
  for (const fn of model.functions) {
    if (hasSdkThreadCallback(fn) || fn.op === 'spanDrop') continue;
    const params = [];
    let returns = { kind: 'void' };
    fn.params.forEach((p, cIndex) => {
      if (p.role === 'self' && p.uninit) returns = { kind: 'handle', type: p.type };
      else if (p.role === 'self' || p.role === 'in') params.push({ ...p, cIndex });
      else if (p.role === 'cb') params.push({ ...p, cIndex });
      else if (p.role === 'out') returns = { kind: fn.ret === 'optional' ? 'optional' : 'out', type: p.type };
    });
    if (fn.ret === 'value') returns = { kind: 'value', type: fn.valueType };
    if (fn.ret === 'cstr') returns = { kind: 'cstr', type: 'string' };
    out.push({ fn, name: jsName(fn.cName), params, returns });
  }
  return out;
}

/** TypeScript parameter declaration of a JS parameter (`payloadOf(cb)`: the payload of an event callback, if any). */
export function tsParam(p, payloadOf = () => undefined) {
  if (p.role === 'cb') {
    const type = tsCallbackType(p.callback, payloadOf(p.callback));
    return `${p.name}: ${p.nullable ? `(${type}) | null` : type}`;
  }
  return `${p.name}: ${tsType(p.type)}${p.optional ? ' | undefined' : ''}`;
}

/** TypeScript return type of a JS function. */
export function tsReturn(r) {
  switch (r.kind) {
    case 'void':
      return 'void';
    case 'cstr':
      return 'string';
    case 'optional':
      return `${tsType(r.type)} | undefined`;
    default:
      return tsType(r.type);
  }
}

/** The value-object handle types JavaScript can hold (every obj: type of the surface). */
export const handleTypes = (model) => model.types.map((t) => t.name);
