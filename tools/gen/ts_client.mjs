// lib/generated/client-methods.ts — the Client methods of the TypeScript face that only forward: one per Client
// method of the IDL with a `ts` hint (kinds and fields: the comment above `tsSnapshots` in idl/surface.mjs).
// They land in a class between the hand-written base (lib/client/base.ts: the handle, the promise plumbing) and the
// hand-written Client (lib/client.ts: what adapts more than a forward, e.g. options objects or value conversions).
import * as idl from '../../idl/surface.mjs';
import { GENERATED } from './text.mjs';
import { jsFunctions, tsType } from './js_surface.mjs';
import { parseType } from './model.mjs';

function jsDoc(doc) {
  const lines = doc.split('\n');
  if (lines.length === 1) return `  /** ${lines[0]} */\n`;
  return `  /**\n${lines.map((l) => `   * ${l}`).join('\n')}\n   */\n`;
}

function mapper(hint, method) {
  const m = idl.tsSnapshots[hint.snapshot];
  if (!m) throw new Error(`Client.${method.name}: ts.snapshot ${hint.snapshot} is not in tsSnapshots`);
  return m;
}

/** One generated method: its text and the mapper imports it needs. */
function methodText(method, fn, imports, enums) {
  const hint = method.ts;
  const inputs = fn.params.filter((p) => p.role === 'in');
  const defaults = hint.defaults ?? {};
  for (const p of inputs) if (parseType(p.type).kind === 'enum') enums.add(tsType(p.type));
  for (const name of Object.keys(defaults)) {
    if (!inputs.some((p) => p.name === name))
      throw new Error(`Client.${method.name}: ts.defaults.${name} is not a parameter`);
  }
  const decl = inputs
    .map((p) => (p.name in defaults ? `${p.name} = ${defaults[p.name]}` : `${p.name}: ${tsType(p.type)}`))
    .join(', ');
  const args = inputs.map((p) => p.name);
  const call = (handle, extra = []) => `api.${fn.name}(${[handle, ...args, ...extra].join(', ')})`;
  const use = (m, what) => {
    imports.add(`${m.module}\0${what}`);
    return what;
  };
  let sig;
  let body;
  switch (hint.kind) {
    case 'void':
      sig = 'Promise<void>';
      body = `return this.voidOperation((handle, api, cb) => ${call('handle', ['cb'])});`;
      break;
    case 'value': {
      sig = fn.returns.kind === 'void' ? 'void' : tsType(fn.returns.type);
      body = `const api = this.api;\n    ${fn.returns.kind === 'void' ? '' : 'return '}${call('this.live()')};`;
      break;
    }
    case 'lookup': {
      const m = mapper(hint, method);
      sig = `${use(m, m.type)} | undefined`;
      // lookupSnapshot: the lookup and the snapshot in one call (NativeApi `<Lookup>_Snapshot`), its data the face's
      // snapshot as it is.
      body = m.lookupSnapshot
        ? `return this.api.${fn.name}_Snapshot(${['this.live()', ...args].join(', ')});`
        : `const api = this.api;\n    const found = ${call('this.live()')};\n    return found && ${use(m, m.take)}(api, found);`;
      break;
    }
    case 'list': {
      const m = mapper(hint, method);
      sig = `${use(m, m.type)}[]`;
      body = m.takeMany
        ? `const api = this.api;\n    return ${use(m, m.takeMany)}(api, ${call('this.live()')});`
        : `const api = this.api;\n    return ${call('this.live()')}.map((found) => ${use(m, m.take)}(api, found));`;
      break;
    }
    case 'snapshots': {
      const m = mapper(hint, method);
      sig = `Promise<${use(m, m.type)}[]>`;
      body = `return this.snapshotOperation((handle, api, cb) => ${call('handle', ['cb'])}, ${use(m, m.takeMany)});`;
      break;
    }
    default:
      throw new Error(`Client.${method.name}: unknown ts.kind ${hint.kind}`);
  }
  return `${jsDoc(hint.doc)}  ${hint.name}(${decl}): ${sig} {\n    ${body}\n  }\n`;
}

export function generate(model) {
  const client = model.typeByName.get('Client');
  const byName = new Map(jsFunctions(model).map((f) => [f.name, f]));
  const imports = new Set();
  const enums = new Set();
  let methods = '';
  for (const method of client.methods) {
    if (!method.ts) continue;
    const fn = byName.get(`Client_${method.name}`);
    if (!fn) throw new Error(`Client.${method.name}: no JS function Client_${method.name}`);
    if (!method.ts.name) throw new Error(`Client.${method.name}: ts.name is required`);
    methods += `\n${methodText(method, fn, imports, enums)}`;
  }
  const byModule = new Map();
  for (const key of [...imports].sort()) {
    const [module, what] = key.split('\0');
    if (!byModule.has(module)) byModule.set(module, []);
    byModule.get(module).push(what);
  }
  let s = `// ${GENERATED}\n`;
  s += `// The forwarding methods of Client (idl/surface.mjs: Client methods with a \`ts\` hint).\n`;
  s += `import { ClientBase } from '../client/base.js';\n`;
  if (enums.size) s += `import type { ${[...enums].sort().join(', ')} } from '../../contract/enums.js';\n`;
  for (const [module, names] of byModule) {
    const list = names.map((n) => (/^take|FromData$/.test(n) ? n : `type ${n}`)).join(', ');
    s += `import { ${list} } from '../${module}.js';\n`;
  }
  s += `\n/** Generated: every method only forwards to one C ABI function (through the base's promise plumbing). */\n`;
  s += `export abstract class GeneratedClientMethods extends ClientBase {${methods}}\n`;
  return [{ path: 'lib/generated/client-methods.ts', content: s }];
}
