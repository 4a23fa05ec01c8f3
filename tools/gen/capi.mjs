// native/capi/generated/: the extern "C" implementation of svcpp.h. Marshalling only: validate handles and
// arguments, convert C values to core values, call the core, convert the results back. No business rules
// (those live in native/core); contract violations become Svcpp_Errc through capi::Guard.
import { callbackArgType, cppType, memberName } from './core.mjs';
import { cSnapshotImplementation } from './c_snapshots.mjs';
import { recordingBranch } from './event_records.mjs';
import { areaHeader, clientMember } from './model.mjs';
import { GENERATED } from './text.mjs';

const core = (name) => `core::${name}`;

/** Handle types are classes of the core with member getters; value types are plain structs. */
const isHandle = (owner) => owner?.kind === 'handle';

function selfCoreType(model, owner) {
  return owner.kind === 'client' ? 'ClientPtr' : core(owner.name);
}

/** Expression converting C input `p` (a parameter of role in) to its core value. */
function inExpr(model, p) {
  const t = model.parseType(p.type);
  const what = `"${p.name}"`;
  const one = (v) => {
    switch (t.kind) {
      case 'string':
        return `InString(${v}, ${what}, ${p.max ?? 0})`;
      case 'enum': {
        const e = model.enumByName.get(t.name);
        return `InEnum<${core(e.coreName)}>(static_cast<int32_t>(${v}), core::Is${e.coreName}, ${what})`;
      }
      case 'f32':
        return `InFloat(${v}, ${what})`;
      case 'bool':
        return `static_cast<bool>(${v})`;
      default:
        return p.min !== undefined ? `InMin<${cppType(model, p.type)}>(${v}, ${p.min}, ${what})` : v;
    }
  };
  if (t.kind === 'obj') {
    const ct = core(model.joined(t.name));
    return p.optional ? `CopyInOptional<${ct}>(${p.name}, ${what})` : `CopyIn<${ct}>(${p.name}, ${what})`;
  }
  // Maps and spans are never optional inputs (the model rejects it): empty is their absent state.
  if (t.kind === 'map')
    return `InProperties(${p.name}, ${what}, MapLimits{${p.maxKeys ?? 0}, ${p.maxKey ?? 0}, ${p.maxValue ?? 0}})`;
  if (model.isU64List(t)) return `InU64Span(${p.name}, ${what})`;
  if (t.kind === 'list') return `InSpan<${core(model.joined(t.name))}>(${p.name}, ${what})`;
  if (p.optional) {
    const ty = t.kind === 'enum' ? core(model.joined(t.name)) : cppType(model, p.type);
    return `(${p.name} ? std::optional<${ty}>(${one(`*${p.name}`)}) : std::nullopt)`;
  }
  return one(p.name);
}

/** Statement writing core value expression `v` of IDL type t to the C out-pointer `out`. */
function outStmt(model, t, v, out) {
  const p = model.parseType(t);
  switch (p.kind) {
    case 'string':
      return `OutString(${v}, ${out}, "${out}");`;
    case 'obj':
      return `OutObject<${core(model.joined(p.name))}>(${v}, ${out}, "${out}");`;
    case 'list':
      if (model.isU64List(p)) return `OutU64Span(${v}, ${out}, "${out}");`;
      return `OutSpan<${core(model.joined(p.name))}>(${v}, ${out}, "${out}");`;
    case 'map':
      return `OutProperties(${v}, ${out}, "${out}");`;
    case 'enum':
      return `*${out} = static_cast<${model.cType(t)}>(${v});`;
    default:
      return `*${out} = ${v};`;
  }
}

/** Converts a core value expression of IDL type t to its C return value. */
function retExpr(model, t, v) {
  const p = model.parseType(t);
  return p.kind === 'enum' ? `static_cast<${model.cType(t)}>(${v})` : v;
}

function cDefault(model, t) {
  const p = model.parseType(t);
  if (p.kind === 'enum') return `static_cast<${model.cType(t)}>(0)`;
  if (p.kind === 'bool') return 'false';
  return '0';
}

/** Converts one C callback triple into the core Callback (empty when a nullable callback is NULL). */
function wrapperFor(model, cb) {
  const args = cb.params
    .map((p) => {
      const t = model.parseType(p.type);
      let ty;
      if (t.kind === 'enum') ty = core(model.joined(t.name));
      else if (model.isU64List(t)) ty = 'const std::vector<uint64_t> &';
      else if (t.kind === 'list') ty = `const std::vector<${core(model.joined(t.name))}> &`;
      else if (t.kind === 'map') ty = 'const core::Properties &';
      else ty = callbackArgType(model, p.type).replace(/^const (\w+)/, 'const core::$1');
      return `${ty} ${p.name}`;
    })
    .join(', ');
  const pre = [];
  const post = [];
  const callArgs = cb.params.map((p) => {
    const t = model.parseType(p.type);
    if (t.kind === 'string') return `Borrow(${p.name})`;
    if (t.kind === 'boolref') return `&${p.name}`; // bool & in the core, bool * in C
    if (t.kind === 'enum') return `static_cast<${model.cType(p.type)}>(${p.name})`;
    if (t.kind === 'obj') {
      // Objects handed to a callback are borrowed: a temporary handle that is dropped when it returns.
      pre.push(`${model.cType(p.type)} ${p.name}Handle{NewBox<${core(model.joined(t.name))}>(${p.name})};`);
      post.push(`DropValue<${core(model.joined(t.name))}>(&${p.name}Handle);`);
      return `&${p.name}Handle`;
    }
    if (model.isU64List(t)) return `BorrowU64Span(${p.name})`;
    if (t.kind === 'map') {
      // Maps handed to a callback are borrowed: views of the core map's strings.
      pre.push(`BorrowedProperties ${p.name}Map(${p.name});`);
      return `${p.name}Map.View()`;
    }
    if (t.kind === 'list') {
      // Spans handed to a callback are borrowed too: temporary element handles, dropped when it returns.
      pre.push(`BorrowedSpan<${core(model.joined(t.name))}, ${model.cType(p.type)}> ${p.name}Span(${p.name});`);
      return `${p.name}Span.View()`;
    }
    return p.name;
  });
  callArgs.push('userData');
  // A recordable event is written into the host's buffer inside Svcpp_Client_DrainEvents (event_records.mjs).
  const body = [...recordingBranch(model, cb), ...pre, `fn(${callArgs.join(', ')});`, ...post]
    .map((l) => `            ${l}`)
    .join('\n');
  return `inline core::${cb.coreName} Wrap${cb.coreName}(${cb.cName} fn, Svcpp_FreeFn free, void *userData) {
    if (!fn) return {};  // a NULL callback takes nothing: userData stays the host's
    return core::${cb.coreName}{
        [fn, userData](${args}) {
${body}
        },
        core::UserData(free, userData)};
}
`;
}

function signature(model, fn) {
  const params = fn.params.length ? fn.params.map(model.cParamDecl).join(', ') : 'void';
  return `SVCPP_API ${model.cReturnType(fn)} SVCPP_CALL ${fn.cName}(${params})`;
}

/** The statements of a function body (inside Guard), given the function's return value variable. */
function bodyLines(model, fn) {
  const L = [];
  const owner = fn.owner;
  const ins = fn.params.filter((p) => p.role === 'in');
  const outs = fn.params.filter((p) => p.role === 'out');
  const cbs = fn.params.filter((p) => p.role === 'cb');
  const coreT = owner ? selfCoreType(model, owner) : null;

  switch (fn.op) {
    case 'init': {
      if (owner.kind === 'client') {
        L.push('core::ClientCreateOptions createOptions;');
        if (fn.member === 'InitWithBases') {
          L.push(
            `createOptions.apiBase = ${inExpr(model, ins[0])};`,
            `createOptions.webBase = ${inExpr(model, ins[1])};`,
          );
        } else if (fn.member === 'InitWithOptions') {
          L.push(`createOptions = ${inExpr(model, ins[0])};`);
        }
        L.push('InitClient(self, createOptions);');
      } else {
        L.push('Require(self, "self");', `self->opaque = NewBox<${coreT}>(${coreT}{});`);
      }
      return L;
    }
    case 'drop':
      return [owner.kind === 'client' ? 'DropClient(self);' : `DropValue<${coreT}>(self);`];
    case 'clone':
      return [
        'Require(self, "self");',
        `auto copy = CopyIn<${coreT}>(other, "other");`,
        `self->opaque = NewBox<${coreT}>(std::move(copy));`,
      ];
    case 'get': {
      const m = memberName(fn.field.name);
      if (fn.ret === 'optional') {
        L.push('Require(out, "out");', `Locked<${coreT}> obj(OpaqueOf(self), "self");`);
        L.push(
          `if (obj->${m}) {`,
          `    ${outStmt(model, fn.field.type, `*obj->${m}`, 'out')}`,
          '    result = true;',
          '}',
        );
      } else if (fn.ret === 'value') {
        L.push(
          `Locked<${coreT}> obj(OpaqueOf(self), "self");`,
          `result = ${retExpr(model, fn.field.type, `obj->${m}`)};`,
        );
      } else {
        L.push(
          'Require(out, "out");',
          `Locked<${coreT}> obj(OpaqueOf(self), "self");`,
          outStmt(model, fn.field.type, `obj->${m}`, 'out'),
        );
      }
      return L;
    }
    case 'set': {
      const m = memberName(fn.field.name);
      // Convert (validate) before locking: a failing call changes nothing, and an object input never
      // deadlocks on its owner's lock.
      L.push(
        `auto value_ = ${inExpr(model, ins[0])};`,
        `Locked<${coreT}> obj(OpaqueOf(self), "self");`,
        `obj->${m} = std::move(value_);`,
      );
      return L;
    }
    case 'enumToString':
      return [];
    case 'spanDrop':
      return [fn.span.elem ? `DropSpan<${core(model.joined(fn.span.elem.name))}>(span);` : 'DropU64Span(span);'];
    default:
      break;
  }

  // Methods (value-type behaviour, handle getters, client methods, statics).
  for (const o of outs) L.push(`Require(${o.name}, "${o.name}");`);
  for (const c of cbs) if (!c.nullable) L.push(`Require(reinterpret_cast<const void *>(${c.name}), "${c.name}");`);
  const args = [];
  for (const p of ins) {
    L.push(`auto ${p.name}_ = ${inExpr(model, p)};`);
    args.push(`std::move(${p.name}_)`);
  }
  let target;
  if (fn.op === 'static') target = `${core(owner.name)}::${fn.member}`;
  else if (owner.kind === 'client') {
    L.push('ClientRef client(self);');
    target = clientMember(fn);
  } else if (isHandle(owner)) {
    L.push(`Locked<${coreT}> obj(OpaqueOf(self), "self");`);
    target = `obj->${fn.member}`;
  } else {
    L.push(`Locked<${coreT}> obj(OpaqueOf(self), "self");`);
    target = `core::${fn.member}`;
    args.unshift('*obj');
  }
  // Callbacks are converted last, right before the call, so every earlier rejection takes nothing.
  for (const c of cbs) {
    const cb = c.callback;
    L.push(`auto ${c.name}_ = Wrap${cb.coreName}(${c.name}, ${c.name}UserDataFree, ${c.name}UserData);`);
    L.push(`KeepUserDataOnThrow keep_${c.name}(${c.name}_.owner);`);
    args.push(`std::move(${c.name}_)`);
  }
  const call = `${target}(${args.join(', ')})`;
  if (fn.ret === 'value') L.push(`result = ${retExpr(model, fn.valueType, call)};`);
  else if (fn.ret === 'optional') {
    L.push(
      `auto found = ${call};`,
      'if (found) {',
      `    ${outStmt(model, outs[0].type, '*found', outs[0].name)}`,
      '    result = true;',
      '}',
    );
  } else if (outs.length === 1) L.push(outStmt(model, outs[0].type, call, outs[0].name));
  else L.push(`${call};`);
  return L;
}

function definition(model, fn) {
  const sig = signature(model, fn);
  if (fn.op === 'enumToString') {
    return `${sig} {\n    return core::ToString(static_cast<core::${fn.enum.coreName}>(value));\n}\n`;
  }
  if (fn.op === 'isValid') {
    let body = fn.owner.kind === 'client' ? 'IsLiveClient(self)' : `IsLive<${selfCoreType(model, fn.owner)}>(self)`;
    // A live handle is valid only while its client lives (native/SEMANTICS.md "Handles").
    if (isHandle(fn.owner)) body = `IsLiveHandle<${selfCoreType(model, fn.owner)}>(self)`;
    return `${sig} {\n    return ${body};\n}\n`;
  }
  const lines = bodyLines(model, fn)
    .map((l) => `        ${l}`)
    .join('\n');
  const guard = `Guard("${fn.cName}", [&] {\n${lines}\n    })`;
  if (fn.ret === 'errc') return `${sig} {\n    return ${guard};\n}\n`;
  const init = fn.ret === 'optional' ? 'false' : cDefault(model, fn.valueType);
  const rt = fn.ret === 'optional' ? 'bool' : model.cReturnType(fn);
  return `${sig} {\n    ${rt} result = ${init};\n    ${guard};\n    return result;\n}\n`;
}

/** Handle types that appear (as objects or span elements) among the callbacks' parameters, in IDL order. */
export function handlesInCallbacks(model) {
  const used = new Set();
  for (const cb of model.callbacks) {
    for (const p of cb.params) {
      const t = model.parseType(p.type);
      if (t.kind === 'obj' || t.kind === 'list') used.add(t.name);
    }
  }
  return model.types.filter((t) => isHandle(t) && used.has(t.name));
}

export function generate(model) {
  const head = (extra) => `// ${GENERATED}\n${extra}`;
  // Handle types passed to callbacks (spans of MessageHandle, …) must be complete where the wrappers convert them.
  const cbHandleHeaders = handlesInCallbacks(model)
    .map((t) => `#include "${t.header}"\n`)
    .join('');
  let cbs = head(
    `#pragma once\n#include "generated/callbacks.hpp"\n${cbHandleHeaders}#include "support/event_records.hpp"\n#include "support/marshal.hpp"\n#include "support/properties.hpp"\n#include "support/spans.hpp"\n\nnamespace svcpp::capi {\n\n`,
  );
  for (const cb of model.callbacks.filter((c) => !c.raw)) cbs += wrapperFor(model, cb) + '\n';
  cbs += '}  // namespace svcpp::capi\n';
  const files = [{ path: 'native/capi/generated/callback_wrappers.hpp', content: cbs }];

  const handleHeaders = model.types
    .filter(isHandle)
    .map((t) => `#include "${t.header}"\n`)
    .join('');
  // Value types with methods name the header of their hand-written free functions (native/core/values/).
  const valueHeaders = model.types
    .filter((t) => t.kind === 'value' && t.header)
    .map((t) => `#include "${t.header}"\n`)
    .join('');
  const includes =
    `#include "generated/callback_wrappers.hpp"\n${handleHeaders}#include "support/marshal.hpp"\n` +
    '#include "support/properties.hpp"\n#include "support/spans.hpp"\n#include "values/client_result.hpp"\n' +
    valueHeaders;
  // The client's functions call the services of their areas (model.clientMember): their files include those.
  const areas = [...new Set(model.functions.filter((f) => f.area).map((f) => f.area))];
  const clientIncludes = includes + areas.map((a) => `#include "${areaHeader(a)}"\n`).join('');
  const groups = [
    ...model.types.map((t) => [t.name, model.functions.filter((f) => f.owner === t)]),
    ['Enums', model.functions.filter((f) => f.op === 'enumToString')],
  ];
  if (model.spans.length) groups.push(['Spans', model.functions.filter((f) => f.op === 'spanDrop')]);
  for (const [name, fns] of groups) {
    const fileIncludes = name === 'Client' ? clientIncludes : includes;
    let cpp = head(`${fileIncludes}\nusing namespace svcpp::capi;\nnamespace core = svcpp::core;\n\nextern "C" {\n\n`);
    cpp += fns.map((f) => definition(model, f)).join('\n');
    cpp += '\n}  // extern "C"\n';
    files.push({ path: `native/capi/generated/${name}.cpp`, content: cpp });
  }
  files.push({
    path: 'native/capi/generated/Snapshots.cpp',
    content: cSnapshotImplementation(model, head(''), clientIncludes),
  });
  return files;
}
