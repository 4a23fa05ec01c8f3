// The Snapshot entry points (idl/surface.mjs `snapshots`): which getters each object type's `<Type>_Snapshot` reads,
// shared by the N-API glue (one crossing: the glue calls the C getters), the koffi layer (the same object from its
// own getter calls) and the TypeScript types, so the three agree.
import * as idl from '../../idl/surface.mjs';
import { jsFunctions, tsType } from './js_surface.mjs';
import { parseType } from './model.mjs';

const lowerFirst = (s) => s[0].toLowerCase() + s.slice(1);

/** A getter's own name: 'UserHandle_GlobalName' -> 'GlobalName'. */
const getterName = (f) => f.name.slice(f.fn.owner.name.length + 1);

/** Getters a Snapshot may read: self only, a result, not IsValid; value types' fields, handle types' methods. */
function isSnapshotGetter(f) {
  if (!f.fn.owner || f.fn.owner.kind === 'client') return false;
  if (f.params.length !== 1 || f.params[0].role !== 'self') return false;
  if (['drop', 'clone', 'init', 'isValid'].includes(f.fn.op)) return false;
  if (f.returns.kind === 'void' || f.returns.kind === 'handle') return false;
  return f.fn.owner.kind === 'value' ? f.fn.op === 'get' : true;
}

/**
 * @returns {Map<string, {type, fields: Array<{key, f, mode: 'plain'|'nest'|'list'|'only', target?: string, only?}>,
 *   calls: Array<{key, f, args: number[]}>}>} per object type (not the client)
 */
export function snapshotSpecs(model) {
  const fns = jsFunctions(model);
  const byName = new Map(fns.map((f) => [f.name, f]));
  const specs = new Map();
  for (const type of model.types) {
    if (type.kind === 'client') continue;
    const skip = new Set(idl.snapshots.skip[type.name] ?? []);
    const only = idl.snapshots.only[type.name] ?? {};
    const keys = idl.snapshots.keys?.[type.name] ?? {};
    const fields = [];
    for (const f of fns) {
      if (f.fn.owner !== type && f.fn.owner?.name !== type.name) continue;
      if (!isSnapshotGetter(f) || skip.has(getterName(f))) continue;
      const name = getterName(f);
      const p = parseType(f.returns.type);
      const key = keys[name] ?? lowerFirst(name);
      if (p.kind === 'obj' && only[name]) {
        const inner = byName.get(`${p.name}_${only[name]}`);
        if (!inner) throw new Error(`snapshots.only.${type.name}.${name}: no getter ${p.name}_${only[name]}`);
        fields.push({ key, f, mode: 'only', target: p.name, only: inner });
      } else if (p.kind === 'obj') fields.push({ key, f, mode: 'nest', target: p.name });
      else if (p.kind === 'list' && p.elem.kind !== 'u64') fields.push({ key, f, mode: 'list', target: p.name });
      else fields.push({ key, f, mode: 'plain' });
    }
    const calls = (idl.snapshots.calls[type.name] ?? []).map((c) => {
      const f = byName.get(`${type.name}_${c.getter}`);
      if (!f) throw new Error(`snapshots.calls.${type.name}: no getter ${c.getter}`);
      const args = c.args.map(([enumName, value]) => {
        const e = model.enumByName.get(enumName);
        const v = e?.values.find(([n]) => n === value);
        if (!v) throw new Error(`snapshots.calls.${type.name}.${c.key}: no ${enumName}.${value}`);
        return v[1];
      });
      return { key: c.key, f, args };
    });
    specs.set(type.name, { type, fields, calls });
  }
  // Nested snapshots are read recursively: the graph of nested types must be acyclic (skip an edge otherwise).
  const visiting = new Set();
  const done = new Set();
  const visit = (name, path) => {
    if (done.has(name)) return;
    if (visiting.has(name))
      throw new Error(`snapshots: cycle ${[...path, name].join(' -> ')} (add a snapshots.skip entry)`);
    visiting.add(name);
    for (const field of specs.get(name).fields)
      if (field.mode === 'nest' || field.mode === 'list') visit(field.target, [...path, name]);
    visiting.delete(name);
    done.add(name);
  };
  for (const name of specs.keys()) visit(name, []);
  return specs;
}

/** The TypeScript type of one snapshot field. */
export function snapshotFieldType(field) {
  const r = field.f.returns;
  switch (field.mode) {
    case 'nest':
      return `${snapshotTypeName(field.target)}${r.kind === 'optional' ? ' | undefined' : ''}`;
    case 'list':
      return `${snapshotTypeName(field.target)}[]`;
    case 'only':
      return `${tsType(field.only.returns.type)}${r.kind === 'optional' ? ' | undefined' : ''}`;
    default: {
      const t = r.kind === 'cstr' ? 'string' : tsType(r.type);
      return r.kind === 'optional' ? `${t} | undefined` : t;
    }
  }
}

/**
 * The name a snapshot's type is written under: its public name (idl/surface.mjs `snapshots.public`, exported from
 * the package as the TypeScript face's type, with docs) or `<Type>Data` for the types only the bindings see.
 */
export function snapshotTypeName(typeName) {
  return idl.snapshots.public?.[typeName]?.name ?? `${typeName}Data`;
}

/** A JSDoc block (one line when short) at `indent`. */
function jsDoc(text, indent) {
  const lines = text.split('\n');
  if (lines.length === 1) return `${indent}/** ${text} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} * ${line}`).join('\n')}\n${indent} */\n`;
}

/**
 * contract/snapshots.ts: one interface per object type (what `<Type>_Snapshot` returns). A type with a public
 * name is the package's snapshot type itself, documented from the IDL (the type's `doc` there, each field's getter
 * doc); `<Type>Data` then names the same interface for the bindings.
 */
export function snapshotTypesFile(model, header) {
  const specs = snapshotSpecs(model);
  const enums = new Set();
  let body = '';
  for (const [name, spec] of specs) {
    const publicType = idl.snapshots.public?.[name];
    const typeName = snapshotTypeName(name);
    body += publicType
      ? `\n${jsDoc(publicType.doc, '')}`
      : `\n/** What ${name}_Snapshot returns: every getter of a ${name}, read in one call. */\n`;
    body += `export interface ${typeName} {\n`;
    for (const field of spec.fields) {
      const t = snapshotFieldType(field);
      for (const e of model.enums) if (new RegExp(`\\b${e.tsName}\\b`).test(t)) enums.add(e.tsName);
      if (publicType && field.f.fn.doc) body += jsDoc(field.f.fn.doc, '  ');
      body += `  ${field.key}: ${t};\n`;
    }
    for (const c of spec.calls) {
      if (publicType && c.f.fn.doc) body += jsDoc(c.f.fn.doc, '  ');
      body += `  ${c.key}: ${c.f.returns.kind === 'cstr' ? 'string' : tsType(c.f.returns.type)};\n`;
    }
    body += '}\n';
    if (publicType)
      body += `/** The bindings' name of {@link ${typeName}}. */\nexport type ${name}Data = ${typeName};\n`;
  }
  let s = header;
  s += '// The plain objects of the generated Snapshot entry points (idl/surface.mjs `snapshots`).\n';
  if (enums.size) s += `import type { ${[...enums].sort().join(', ')} } from './enums.js';\n`;
  return s + body;
}

/**
 * The lookups that also have a snapshot form, `<Lookup>_Snapshot(client, ...ids)`: every const Client function that
 * answers an optional object for id arguments only (GetUser, GetLobbyHandle …). It is the lookup and the object's
 * Snapshot in one call, without a handle for JavaScript to wrap and drop: undefined when the lookup finds nothing.
 * @returns {Array<{f, target: string}>}
 */
export function lookupSnapshots(model) {
  return jsFunctions(model)
    .filter(
      (f) =>
        f.fn.owner?.kind === 'client' &&
        !f.fn.pump &&
        f.returns.kind === 'optional' &&
        parseType(f.returns.type).kind === 'obj',
    )
    .filter((f) =>
      f.params.every(
        (p) =>
          (p.role === 'self' && p.constSelf) || (p.role === 'in' && !p.optional && parseType(p.type).kind === 'u64'),
      ),
    )
    .map((f) => ({ f, target: parseType(f.returns.type).name }));
}

/**
 * The payload of an event callback (idl/surface.mjs callbacks' `payload`): the lookup snapshot whose result the JS
 * function gets as its last argument. undefined for a callback without one.
 * @returns {{name: string, f, target: string, args: string[]} | undefined}
 */
export function eventPayload(model, cb) {
  if (!cb.payload) return undefined;
  const { name, lookup, args } = cb.payload;
  const found = lookupSnapshots(model).find(({ f }) => f.name === `Client_${lookup}`);
  if (!found) throw new Error(`${cb.name}.payload: Client.${lookup} has no lookup snapshot`);
  const ids = found.f.params.filter((p) => p.role === 'in');
  if (ids.length !== args.length) throw new Error(`${cb.name}.payload: Client.${lookup} takes ${ids.length} ids`);
  for (const a of args) {
    const param = cb.params.find((p) => p.name === a);
    if (!param || param.type !== 'u64')
      throw new Error(`${cb.name}.payload: ${a} is not a u64 argument of the callback`);
  }
  if (cb.params.some((p) => p.name === name)) throw new Error(`${cb.name}.payload: ${name} is already an argument`);
  return { name, f: found.f, target: found.target, args };
}
