// native/include/svcpp.hpp — the header-only C++ wrapper over svcpp.h: inline only, move-only classes
// (copy via Clone) that never throw; a non-Ok Svcpp_Errc is logged and asserted in debug builds.
//
// A walk over model.functions: every C function of a type becomes one member of that type's class
// (Init* -> constructor, Clone -> copy, Drop -> destructor/Drop(), field getter/setter, method, static),
// every enum becomes `enum class X : int32_t` (class-scoped ones nested in their class) plus
// `EnumToString`, every callback becomes a `std::function` alias with a trampoline. An operation kind or
// type kind this walk does not know is an error, so a new IDL construct cannot be silently dropped.
// The reference SDK's names (model.renames) become [[deprecated]] aliases: forwarding members and enumerators.
import { memberNameOf } from './renames.mjs';
import { GENERATED } from './text.mjs';

const SCALAR_CPP = {
  bool: 'bool',
  i32: 'int32_t',
  u32: 'uint32_t',
  u64: 'uint64_t',
  f32: 'float',
  samples: 'int16_t *',
  boolref: 'bool &',
};

/** Doc comment lines for C++ (`///`). */
function doc(text, indent) {
  if (!text) return '';
  return text
    .split('\n')
    .map((l) => `${indent}/// ${l}\n`)
    .join('');
}

/** 'Client.Status' -> 'Client::Status'. */
const cppQualified = (dotted) => dotted.replace(/\./g, '::');
/** 'Client.Status' -> 'Status' (the name inside its class). */
const leaf = (dotted) => dotted.split('.').pop();
/** 'Client.Status' -> 'Client'; 'LoggingSeverity' -> null. */
const scopeOf = (dotted) => (dotted.includes('.') ? dotted.slice(0, dotted.lastIndexOf('.')) : null);

export function generate(model) {
  const { types, enums, callbacks, functions, renames, parseType, isU64List, cType, cCallbackParamDecl } = model;
  const typeNames = new Set(types.map((t) => t.name));
  for (const e of enums) {
    const s = scopeOf(e.name);
    if (s && !typeNames.has(s)) throw new Error(`enum ${e.name}: scope ${s} is not a type`);
  }

  /** C++ spelling of a value of IDL type t (as a plain value). */
  function cppType(t) {
    const p = parseType(t);
    if (p.kind in SCALAR_CPP) return SCALAR_CPP[p.kind];
    if (p.kind === 'string') return 'std::string';
    if (p.kind === 'enum' || p.kind === 'obj') return `svcpp::${cppQualified(p.name)}`;
    if (p.kind === 'cb') return `svcpp::${cppQualified(p.name)}`;
    if (isU64List(p)) return 'std::vector<uint64_t>';
    if (p.kind === 'list') return `std::vector<svcpp::${cppQualified(p.name)}>`;
    if (p.kind === 'map') return 'std::unordered_map<std::string, std::string>';
    throw new Error(`no C++ type for ${t}`);
  }

  /** Expression converting a C value `expr` of type t to C++ (strings are copied and not freed here). */
  function fromC(expr, t) {
    const p = parseType(t);
    if (p.kind === 'boolref') return `*${expr}`; // bool * in C, bool & in C++
    if (p.kind in SCALAR_CPP) return expr;
    if (p.kind === 'string') return `detail::ToStdString(${expr})`;
    if (p.kind === 'enum') return `static_cast<${cppType(t)}>(${expr})`;
    // Objects reach callbacks borrowed (Svcpp_X const *): the C++ callback gets its own copy.
    if (p.kind === 'obj') return `detail::CloneBorrowed<${cppType(t)}>(${expr}, &${cType(t)}_Clone)`;
    // So do spans and maps: the C++ callback gets copies.
    if (isU64List(p)) return `detail::ToU64Vector(${expr})`;
    if (p.kind === 'map') return `detail::ToUnorderedMap(${expr})`;
    if (p.kind === 'list')
      return `detail::CloneSpan<${cppType(`obj:${p.name}`)}>(${expr}, &${cType(`obj:${p.name}`)}_Clone)`;
    throw new Error(`fromC: ${t}`);
  }

  /** Expression converting a C++ value `expr` of type t to the C by-value argument. */
  function toC(expr, t) {
    const p = parseType(t);
    if (p.kind in SCALAR_CPP) return expr;
    if (p.kind === 'string') return `detail::ToSvcppString(${expr})`;
    if (p.kind === 'enum') return `static_cast<${cType(t)}>(${expr})`;
    if (p.kind === 'obj') return `${expr}.instance()`;
    throw new Error(`toC: ${t}`);
  }

  // ---- enums --------------------------------------------------------------------------------------
  function enumDecl(e, indent) {
    const i2 = `${indent}    `;
    let s = doc(e.doc, indent);
    s += `${indent}enum class ${leaf(e.name)} : int32_t {\n`;
    for (const [name, value, d] of e.values) s += `${i2}${name} = ${value},${d ? ` ///< ${d}` : ''}\n`;
    // Same value, so a switch that covers ours covers the alias too (no -Wswitch warning).
    for (const r of renames.filter((x) => x.kind === 'enumValue' && x.enum === e)) {
      s += `${i2}${r.reference} [[deprecated("use ${r.ours}")]] = ${r.ours}, ///< The reference SDK's name of ${r.ours}.\n`;
    }
    s += `${indent}};\n`;
    return s;
  }
  function bitmaskOps(e) {
    const T = cppType(`enum:${e.name}`);
    return ['|', '&']
      .map(
        (op) =>
          `inline ${T} operator${op}(${T} a, ${T} b) {\n` +
          `    return static_cast<${T}>(static_cast<int32_t>(a) ${op} static_cast<int32_t>(b));\n}\n`,
      )
      .join('');
  }

  // ---- callbacks ----------------------------------------------------------------------------------
  const cppCallbacks = callbacks.filter((cb) => !cb.raw);
  function callbackAlias(cb, indent) {
    const args = cb.params.map((p) => `${cppType(p.type)} ${p.name}`).join(', ');
    return `${doc(cb.doc, indent)}${indent}using ${leaf(cb.name)} = std::function<void(${args})>;\n`;
  }
  /** detail::<C typedef>_Trampoline: Invoke is the C function pointer (a captureless lambda). */
  const trampolineName = (cb) => `detail::${cb.cName}_Trampoline`;
  function trampoline(cb) {
    const cParams = cb.params.map(cCallbackParamDecl);
    cParams.push('void *userData');
    const args = cb.params.map((p) => fromC(p.name, p.type)).join(', ');
    return (
      `struct ${cb.cName}_Trampoline {\n` +
      `    using Fn = ${cppType(`cb:${cb.name}`)};\n` +
      `    static constexpr ${cb.cName} Invoke = [](${cParams.join(', ')}) {\n` +
      `        Guarded("${cb.cName}", [&] { static_cast<Delegate<Fn> *>(userData)->fn(${args}); });\n` +
      `    };\n};\n`
    );
  }

  // ---- members ------------------------------------------------------------------------------------
  const memberName = memberNameOf;

  /** The C++ parameters of a function: inputs and callbacks (not self, not the free/userData halves). */
  function cppParams(fn) {
    const ps = fn.params.filter((p) => p.role === 'in' || p.role === 'cb');
    // Add<Event>Callback registrations take the callback first, like the reference SDK
    // (AddLogCallback(cb, minSeverity)); in C the triple follows the inputs (native/SEMANTICS.md "Arguments").
    if (/^Add\w*Callback$/.test(memberName(fn)))
      ps.sort((a, b) => (a.role === 'cb' ? 0 : 1) - (b.role === 'cb' ? 0 : 1));
    return ps;
  }
  function cppParamDecl(p) {
    const t = parseType(p.type);
    if (p.role === 'cb') return `${cppType(p.type)} ${p.name}`;
    if (p.optional) return `std::optional<${cppType(p.type)}> ${p.name}`;
    if (['obj', 'list', 'map'].includes(t.kind)) return `${cppType(p.type)} const &${p.name}`;
    return `${cppType(p.type)} ${p.name}`;
  }

  /**
   * Body lines that marshal the C++ parameters into C arguments. Returns {pre, args, onReject}:
   * pre = statements before the call, args = C argument expressions, onReject = cleanup when the call is
   * rejected (the delegates were not taken).
   */
  function marshal(fn) {
    const pre = [];
    const args = [];
    const delegates = [];
    let outType = null;
    for (const p of fn.params) {
      const t = parseType(p.type);
      switch (p.role) {
        case 'self':
          args.push('&instance_');
          break;
        case 'in':
          if (p.optional && t.kind === 'obj') args.push(`${p.name} ? ${p.name}->instance() : nullptr`);
          else if (p.optional) {
            pre.push(`${cType(p.type)} ${p.name}__c{};`);
            pre.push(`if (${p.name}) ${p.name}__c = ${toC(`*${p.name}`, p.type)};`);
            args.push(`${p.name} ? &${p.name}__c : nullptr`);
          } else if (t.kind === 'map') {
            // The view owns the arrays of Svcpp_String that point into the caller's strings (borrowed for the call).
            pre.push(`detail::PropertiesView ${p.name}__c(${p.name});`);
            args.push(`${p.name}__c.View()`);
          } else if (isU64List(t)) {
            args.push(`detail::U64SpanView(${p.name})`);
          } else if (t.kind === 'list') {
            const elemC = cType(`obj:${t.name}`);
            pre.push(`std::vector<${elemC}> ${p.name}__c = detail::ElementHandles<${elemC}>(${p.name});`);
            args.push(`${cType(p.type)}{${p.name}__c.empty() ? nullptr : ${p.name}__c.data(), ${p.name}__c.size()}`);
          } else args.push(toC(p.name, p.type));
          break;
        case 'cb': {
          const d = `${p.name}__delegate`;
          pre.push(
            `auto *${d} = ${p.name} ? new detail::Delegate<${cppType(p.type)}>{std::move(${p.name})} : nullptr;`,
          );
          args.push(`${d} ? ${trampolineName(p.callback)}::Invoke : nullptr`);
          delegates.push(d);
          break;
        }
        case 'cbFree':
          args.push(
            `${delegates.at(-1)} ? &detail::Delegate<${cppType(fn.params[fn.params.indexOf(p) - 1].type)}>::Free : nullptr`,
          );
          break;
        case 'cbData':
          args.push(delegates.at(-1));
          break;
        case 'out':
          if (outType) throw new Error(`${fn.cName}: more than one out-param is not supported by the C++ wrapper`);
          outType = p.type;
          pre.push(`${cType(p.type)} out{};`);
          args.push('&out');
          break;
        default:
          throw new Error(`${fn.cName}: unknown parameter role ${p.role}`);
      }
    }
    return { pre, args, outType, onReject: delegates.map((d) => `delete ${d};`) };
  }

  /** Member declaration + out-of-class definition for a get/set/method/static/isValid function. */
  function member(fn, cls) {
    const name = memberName(fn);
    const isStatic = fn.op === 'static';
    const selfParam = fn.params.find((p) => p.role === 'self');
    const isConst = !!selfParam?.constSelf;
    const { pre, args, outType, onReject } = marshal(fn);
    const call = `${fn.cName}(${args.join(', ')})`;
    let ret;
    const body = [...pre];
    if (fn.ret === 'value') {
      ret = cppType(fn.valueType);
      body.push(`return ${fromC(call, fn.valueType)};`);
    } else if (fn.ret === 'optional') {
      ret = `std::optional<${cppType(outType)}>`;
      body.push(`if (!${call}) return std::nullopt;`);
      body.push(`return ${outToCpp(outType)};`);
    } else if (fn.ret === 'errc') {
      body.push(`Svcpp_Errc rc = ${call};`);
      if (onReject.length) body.push(`if (rc != Svcpp_Errc_Ok) { ${onReject.join(' ')} }`);
      if (fn.pump) {
        if (outType) throw new Error(`${fn.cName}: a pump has no out-param`);
        ret = 'bool';
        body.push(`if (rc == Svcpp_Errc_Busy) return false;`);
        body.push(`detail::Check(rc, "${fn.cName}");`);
        body.push('return true;');
      } else if (outType) {
        ret = cppType(outType);
        body.push(`detail::Check(rc, "${fn.cName}");`);
        body.push(`return ${outToCpp(outType, 'rc == Svcpp_Errc_Ok')};`);
      } else {
        ret = 'void';
        body.push(`detail::Check(rc, "${fn.cName}");`);
      }
    } else throw new Error(`${fn.cName}: unknown return kind ${fn.ret}`);

    const params = cppParams(fn).map(cppParamDecl).join(', ');
    let d = fn.doc;
    if (fn.op === 'set') d = `Sets ${fn.field.name}${fn.field.optional ? '; std::nullopt clears it' : ''}.`;
    if (fn.pump) d = `${d}\nReturns false when the queue is being pumped already (Svcpp_Errc_Busy).`;
    const decl = `${doc(d, '    ')}    ${isStatic ? 'static ' : ''}${ret} ${name}(${params})${isConst ? ' const' : ''};\n`;
    const def = `inline ${ret} ${cls}::${name}(${params})${isConst ? ' const' : ''}\n{\n${body.map((l) => `    ${l}\n`).join('')}}\n`;
    return { decl, def, ret, params, isStatic, isConst };
  }

  /** A reference-SDK name of a member: an inline [[deprecated]] member with the same signature that forwards. */
  function aliasMember(r, cls) {
    const { ret, params, isStatic, isConst } = member(r.fn, cls);
    const args = cppParams(r.fn).map((p) => {
      const byValueObject = p.role === 'cb' || p.optional || parseType(p.type).kind === 'string';
      return byValueObject ? `std::move(${p.name})` : p.name;
    });
    return (
      `    /// The reference SDK's name of ${r.ours}.\n` +
      `    [[deprecated("use ${r.ours}")]] ${isStatic ? 'static ' : ''}${ret} ${r.reference}(${params})${isConst ? ' const' : ''}\n` +
      `    {\n        return ${r.ours}(${args.join(', ')});\n    }\n`
    );
  }

  /** Expression turning the local `out` (C type of t) into the C++ value; frees C strings. */
  function outToCpp(t, okExpr = 'true') {
    const p = parseType(t);
    if (p.kind === 'string') return 'detail::TakeString(out)';
    if (p.kind === 'obj') return `${cppType(t)}(out, ${okExpr} ? ObjectState::Owned : ObjectState::Invalid)`;
    // A rejected call leaves the span or map zeroed: taking it gives an empty vector or map.
    if (isU64List(p)) return 'detail::TakeU64Span(out)';
    if (p.kind === 'map') return 'detail::TakeProperties(out)';
    if (p.kind === 'list') return `detail::AdoptSpan<${cppType(`obj:${p.name}`)}>(out)`;
    return fromC('out', t);
  }

  // ---- classes ------------------------------------------------------------------------------------
  function classOf(type) {
    const cls = type.name;
    const C = type.cName;
    const fns = functions.filter((f) => f.owner === type);
    const inits = fns.filter((f) => f.op === 'init');
    const drop = fns.find((f) => f.op === 'drop');
    const clone = fns.find((f) => f.op === 'clone');
    if (!drop) throw new Error(`${cls}: no Drop`);
    const scopedEnums = enums.filter((e) => scopeOf(e.name) === cls);
    const scopedCallbacks = cppCallbacks.filter((cb) => scopeOf(cb.name) === cls);

    let decl =
      `${doc(type.doc, '')}class ${cls} {\n    /// The C handle; mutable because const C getters take \`${C} const *\`.\n` +
      `    mutable ${C} instance_{};\n    ObjectState state_ = ObjectState::Invalid;\n\npublic:\n`;
    for (const e of scopedEnums) decl += enumDecl(e, '    ');
    for (const cb of scopedCallbacks) decl += callbackAlias(cb, '    ');
    decl += `\n    /// The empty object: operator bool is false.\n    static const ${cls} nullobj;\n\n`;
    let defs = `inline const ${cls} ${cls}::nullobj{${C}{}, ObjectState::Invalid};\n\n`;

    const hasDefaultInit = inits.some((f) => cppParams(f).length === 0);
    if (!hasDefaultInit) {
      decl += `    /// An empty ${cls} (operator bool is false); ${cls} objects come from the SDK.\n    ${cls}() = default;\n`;
    }
    for (const f of inits) {
      const params = cppParams(f).map(cppParamDecl).join(', ');
      const { pre, args } = marshal(f);
      const explicit = cppParams(f).length === 1 ? 'explicit ' : '';
      // The C doc's "Overwrites *self" sentence is about the C handle; a constructor has nothing to overwrite.
      decl += `${doc(f.doc.replace(/ Overwrites \*self.*$/, ''), '    ')}    ${explicit}${cls}(${params});\n`;
      defs +=
        `inline ${cls}::${cls}(${params})\n{\n${pre.map((l) => `    ${l}\n`).join('')}` +
        `    Svcpp_Errc rc = ${f.cName}(${args.join(', ')});\n` +
        `    detail::Check(rc, "${f.cName}");\n    if (rc == Svcpp_Errc_Ok) state_ = ObjectState::Owned;\n}\n`;
    }
    decl +=
      `    /// Adopts a C handle; with ObjectState::Owned this object drops it.\n` +
      `    ${cls}(${C} instance, ObjectState state) : instance_(instance), state_(state) {}\n`;
    decl += `    ~${cls}() { Drop(); }\n`;
    if (clone) {
      decl += `    ${cls}(${cls} const &other);\n    ${cls} &operator=(${cls} const &other);\n`;
      defs +=
        `inline ${cls}::${cls}(${cls} const &other)\n{\n` +
        '    if (!other) return;\n' +
        `    Svcpp_Errc rc = ${clone.cName}(&instance_, &other.instance_);\n` +
        `    detail::Check(rc, "${clone.cName}");\n    if (rc == Svcpp_Errc_Ok) state_ = ObjectState::Owned;\n}\n` +
        `inline ${cls} &${cls}::operator=(${cls} const &other)\n{\n` +
        `    if (this != &other) *this = ${cls}(other);\n    return *this;\n}\n`;
    } else {
      decl += `    ${cls}(${cls} const &) = delete;\n    ${cls} &operator=(${cls} const &) = delete;\n`;
    }
    decl +=
      `    ${cls}(${cls} &&other) noexcept : instance_(other.instance_), state_(other.state_)\n` +
      `    {\n        other.instance_ = ${C}{};\n        other.state_ = ObjectState::Invalid;\n    }\n` +
      `    ${cls} &operator=(${cls} &&other) noexcept\n    {\n        if (this != &other) {\n            Drop();\n` +
      `            instance_ = other.instance_;\n            state_ = other.state_;\n` +
      `            other.instance_ = ${C}{};\n            other.state_ = ObjectState::Invalid;\n        }\n        return *this;\n    }\n`;
    decl +=
      `    /// True when this object holds a ${cls} (false for nullobj and moved-from objects).\n` +
      `    explicit operator bool() const { return state_ != ObjectState::Invalid; }\n` +
      `    /// The C handle, for calling the C ABI directly.\n    ${C} *instance() const { return &instance_; }\n` +
      '    /// Releases the object now (the destructor does this for an owned object).\n    void Drop();\n\n';
    defs +=
      `inline void ${cls}::Drop()\n{\n    if (state_ != ObjectState::Owned) return;\n` +
      `    detail::Check(${drop.cName}(&instance_), "${drop.cName}");\n` +
      `    instance_ = ${C}{};\n    state_ = ObjectState::Invalid;\n}\n`;

    for (const e of scopedEnums) {
      const fn = functions.find((f) => f.op === 'enumToString' && f.enum === e);
      decl +=
        `    /// Name of a ${leaf(e.name)} value ("Unknown" for a value this library does not know).\n` +
        `    static std::string ${leaf(e.name)}ToString(${leaf(e.name)} value);\n`;
      defs +=
        `inline std::string ${cls}::${leaf(e.name)}ToString(${cls}::${leaf(e.name)} value)\n{\n` +
        `    return ${fn.cName}(static_cast<${e.cName}>(value));\n}\n`;
    }
    for (const fn of fns) {
      if (['init', 'drop', 'clone'].includes(fn.op)) continue;
      if (!['get', 'set', 'method', 'static', 'isValid'].includes(fn.op))
        throw new Error(`${fn.cName}: unknown op ${fn.op}`);
      const m = member(fn, cls);
      decl += m.decl;
      defs += m.def;
    }
    const aliases = renames.filter((r) => r.kind === 'member' && r.fn.owner === type);
    if (aliases.length)
      decl += `\n    // Reference-SDK names (deprecated; docs/porting-from-the-reference-sdk.md).\n${aliases.map((r) => aliasMember(r, cls)).join('')}`;
    decl += '};\n';
    return { decl, defs };
  }

  // ---- assemble -----------------------------------------------------------------------------------
  for (const t of types)
    if (!['value', 'handle', 'client'].includes(t.kind)) throw new Error(`${t.name}: unknown type kind ${t.kind}`);
  let h = `// svcpp.hpp — header-only C++ wrapper over the svcpp C ABI (svcpp.h).
// ${GENERATED}
//
// One class per SDK type holding the C handle and an ObjectState. Value types copy through Clone and
// move cheaply; Client is move-only. Every class has \`explicit operator bool\` (holds an object) and a
// static \`nullobj\`. Optionals are std::optional, callbacks std::function. Nothing throws: a call the C
// layer rejects (Svcpp_Errc) is logged to stderr and asserted in debug builds; callbacks that throw are
// caught and logged at the ABI boundary.
//
// Recommended use: hold the client in std::shared_ptr<svcpp::Client>, capture it weakly in callbacks,
// call svcpp::RunCallbacks() once per frame (or when the CallbacksPending hook fires).
//
// Self-contained: it includes every standard header it uses, and <memory> for the shared_ptr of the
// recommended use (a test compiles it alone as C++17 and C++20). Code written against the reference SDK ports by
// renaming the namespace and the header: its names svcpp spells differently are [[deprecated]] aliases here.
#ifndef SVCPP_HPP
#define SVCPP_HPP

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "svcpp.h"

namespace svcpp {

/// Whether a wrapper object holds (and will drop) a C object.
enum class ObjectState { Invalid, Owned };

${types.map((t) => `class ${t.name};`).join('\n')}

`;
  for (const e of enums.filter((x) => !scopeOf(x.name))) {
    h += enumDecl(e, '');
    if (e.bitmask) h += bitmaskOps(e);
    h += '\n';
  }
  for (const cb of cppCallbacks.filter((x) => !scopeOf(x.name))) h += `${callbackAlias(cb, '')}\n`;

  h += `namespace detail {

inline Svcpp_String ToSvcppString(std::string const &s)
{
    // Inputs are borrowed and never written through (svcpp.h, Strings).
    return Svcpp_String{reinterpret_cast<uint8_t *>(const_cast<char *>(s.data())), s.size()};
}
inline std::string ToStdString(Svcpp_String s) { return s.size ? std::string(reinterpret_cast<char const *>(s.ptr), s.size) : std::string(); }
/// Copies a library-allocated output string and frees it.
inline std::string TakeString(Svcpp_String &s)
{
    std::string r = ToStdString(s);
    Svcpp_Free(s.ptr);
    s = Svcpp_String{};
    return r;
}

/// Logs (and in debug builds asserts) a call the C layer rejected.
inline void Check(Svcpp_Errc rc, char const *function)
{
    if (rc == Svcpp_Errc_Ok) return;
    Svcpp_String detail{};
    Svcpp_GetLastErrorMessage(&detail);
    std::fprintf(stderr, "svcpp: %s returned %s: %s\\n", function, Svcpp_ErrcName(rc), TakeString(detail).c_str());
    assert(rc == Svcpp_Errc_Ok && "svcpp C ABI call rejected (see the message above)");
}

/// Runs user code at the ABI boundary: an exception must not cross into C.
template <class F> void Guarded(char const *what, F &&f) noexcept
{
#if defined(__cpp_exceptions) || defined(_CPPUNWIND)
    try {
        f();
    } catch (std::exception const &e) {
        std::fprintf(stderr, "svcpp: %s threw: %s\\n", what, e.what());
    } catch (...) {
        std::fprintf(stderr, "svcpp: %s threw\\n", what);
    }
#else
    (void)what;
    f();
#endif
}

/// A C++ copy of an object a callback borrows (empty when it cannot be copied).
template <class T, class C> T CloneBorrowed(C const *borrowed, Svcpp_Errc(SVCPP_CALL *clone)(C *, C const *))
{
    C copy{};
    if (!borrowed || clone(&copy, borrowed) != Svcpp_Errc_Ok) return T(C{}, ObjectState::Invalid);
    return T(copy, ObjectState::Owned);
}

/// C++ copies of the elements of a span a callback borrows.
template <class T, class Span, class C> std::vector<T> CloneSpan(Span borrowed, Svcpp_Errc(SVCPP_CALL *clone)(C *, C const *))
{
    std::vector<T> copies;
    copies.reserve(borrowed.size);
    for (size_t i = 0; i < borrowed.size; ++i) copies.push_back(CloneBorrowed<T>(&borrowed.ptr[i], clone));
    return copies;
}

/// Takes ownership of the elements of an output span and frees its buffer (the elements are not dropped).
template <class T, class Span> std::vector<T> AdoptSpan(Span &owned)
{
    std::vector<T> adopted;
    adopted.reserve(owned.size);
    for (size_t i = 0; i < owned.size; ++i) adopted.emplace_back(owned.ptr[i], ObjectState::Owned);
    Svcpp_Free(owned.ptr);
    owned = Span{};
    return adopted;
}

/// The C handles of wrapper objects, for a span input (the library copies the elements; nullobj is rejected).
template <class C, class T> std::vector<C> ElementHandles(std::vector<T> const &objects)
{
    std::vector<C> handles;
    handles.reserve(objects.size());
    for (T const &o : objects) handles.push_back(*o.instance());
    return handles;
}

/// A borrowed Svcpp_UInt64Span over a vector (never written through).
inline Svcpp_UInt64Span U64SpanView(std::vector<uint64_t> const &ids)
{
    return Svcpp_UInt64Span{ids.empty() ? nullptr : const_cast<uint64_t *>(ids.data()), ids.size()};
}
/// A copy of a borrowed Svcpp_UInt64Span.
inline std::vector<uint64_t> ToU64Vector(Svcpp_UInt64Span span)
{
    return span.size ? std::vector<uint64_t>(span.ptr, span.ptr + span.size) : std::vector<uint64_t>();
}
/// Copies a library-allocated Svcpp_UInt64Span and frees its buffer.
inline std::vector<uint64_t> TakeU64Span(Svcpp_UInt64Span &span)
{
    std::vector<uint64_t> ids = ToU64Vector(span);
    Svcpp_Free(span.ptr);
    span = Svcpp_UInt64Span{};
    return ids;
}

/// A borrowed Svcpp_Properties over a map: owns the two arrays of Svcpp_String, which point into the map's strings.
class PropertiesView {
public:
    explicit PropertiesView(std::unordered_map<std::string, std::string> const &map)
    {
        keys_.reserve(map.size());
        values_.reserve(map.size());
        for (auto const &entry : map) {
            keys_.push_back(ToSvcppString(entry.first));
            values_.push_back(ToSvcppString(entry.second));
        }
    }
    Svcpp_Properties View()
    {
        if (keys_.empty()) return Svcpp_Properties{0, nullptr, nullptr};
        return Svcpp_Properties{keys_.size(), keys_.data(), values_.data()};
    }

private:
    std::vector<Svcpp_String> keys_;
    std::vector<Svcpp_String> values_;
};
/// A copy of a borrowed Svcpp_Properties.
inline std::unordered_map<std::string, std::string> ToUnorderedMap(Svcpp_Properties props)
{
    std::unordered_map<std::string, std::string> map;
    map.reserve(props.size);
    for (size_t i = 0; i < props.size; ++i) map.emplace(ToStdString(props.keys[i]), ToStdString(props.values[i]));
    return map;
}
/// Copies a library-allocated Svcpp_Properties and releases it with Svcpp_FreeProperties.
inline std::unordered_map<std::string, std::string> TakeProperties(Svcpp_Properties &props)
{
    std::unordered_map<std::string, std::string> map = ToUnorderedMap(props);
    Svcpp_FreeProperties(props);
    props = Svcpp_Properties{0, nullptr, nullptr};
    return map;
}

/// Heap box for a std::function passed as userData; Free is the userDataFree.
template <class Fn> struct Delegate {
    Fn fn;
    static void SVCPP_CALL Free(void *p) { delete static_cast<Delegate *>(p); }
};
} // namespace detail

`;
  const built = types.map(classOf);
  for (const b of built) h += `${b.decl}\n`;

  h += 'namespace detail {\n\n';
  for (const cb of cppCallbacks) h += `${trampoline(cb)}\n`;
  h += '} // namespace detail\n\n';
  for (const b of built) h += b.defs + '\n';

  h += '// ---- Enum names ----\n\n';
  for (const e of enums) {
    const fn = functions.find((f) => f.op === 'enumToString' && f.enum === e);
    h +=
      `/// Name of a ${e.name} value (static storage; "Unknown" for a value this library does not know).\n` +
      `inline char const *EnumToString(${cppQualified(e.name)} value) { return ${fn.cName}(static_cast<${e.cName}>(value)); }\n`;
  }

  h += `
// ---- Library ----

/// (major << 16) | minor of the ABI the loaded library implements.
inline uint32_t GetAbiVersion() { return Svcpp_GetAbiVersion(); }
/// True when the loaded library can serve code compiled against this header.
inline bool CheckAbiVersion() { return Svcpp_CheckAbiVersion(SVCPP_ABI_VERSION) == Svcpp_Errc_Ok; }
/// Detail of the last C ABI call that failed on this thread (empty when none).
inline std::string GetLastErrorMessage()
{
    Svcpp_String out{};
    return Svcpp_GetLastErrorMessage(&out) == Svcpp_Errc_Ok ? detail::TakeString(out) : std::string();
}
/// Runs the queued callbacks of every client on this thread (call once per frame).
/// Returns false when every pending client was being pumped elsewhere (Svcpp_Errc_Busy).
inline bool RunCallbacks()
{
    Svcpp_Errc rc = Svcpp_RunCallbacks();
    if (rc == Svcpp_Errc_Busy) return false;
    detail::Check(rc, "Svcpp_RunCallbacks");
    return true;
}
/// Ends every callback registration of every client; pending completions run now with ErrorType::Aborted.
inline void ResetCallbacks() { detail::Check(Svcpp_ResetCallbacks(), "Svcpp_ResetCallbacks"); }
/// Wakeup hook for the global pump (runs on an SDK thread; must not block or call svcpp). Empty clears it.
inline void SetCallbacksPendingHook(CallbacksPendingFn hook)
{
    auto *d = hook ? new detail::Delegate<CallbacksPendingFn>{std::move(hook)} : nullptr;
    Svcpp_Errc rc = Svcpp_SetCallbacksPendingHook(d ? detail::Svcpp_CallbacksPendingFn_Trampoline::Invoke : nullptr,
                                                  d ? &detail::Delegate<CallbacksPendingFn>::Free : nullptr, d);
    if (rc != Svcpp_Errc_Ok) delete d;
    detail::Check(rc, "Svcpp_SetCallbacksPendingHook");
}

} // namespace svcpp

#endif // SVCPP_HPP
`;
  return [{ path: 'native/include/svcpp.hpp', content: h }];
}
