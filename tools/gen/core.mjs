// native/core/generated/: the enums and plain value structs the C++ core works with. The core never
// includes svcpp.h; these mirror it one-to-one (same values), which the marshalling casts between.
import { handlesInCallbacks } from './capi.mjs';
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

export function cppType(model, t) {
  const p = model.parseType(t);
  if (p.kind === 'string') return 'std::string';
  if (p.kind === 'enum') return model.joined(p.name);
  if (p.kind === 'obj') return model.joined(p.name);
  if (p.kind === 'map') return 'Properties';
  if (model.isU64List(p)) return 'std::vector<uint64_t>';
  if (p.kind === 'list') return `std::vector<${model.joined(p.name)}>`;
  if (p.kind in SCALAR_CPP) return SCALAR_CPP[p.kind];
  throw new Error(`no core type for ${t}`);
}

/** How the core passes a value to a callback: strings as views, objects, spans and maps by const reference. */
export function callbackArgType(model, t) {
  const p = model.parseType(t);
  if (p.kind === 'string') return 'std::string_view';
  if (p.kind === 'obj' || p.kind === 'list' || p.kind === 'map') return `const ${cppType(model, t)} &`;
  return cppType(model, t);
}

/** Core member name of an IDL field: ClientId -> clientId. */
export const memberName = (field) => field.charAt(0).toLowerCase() + field.slice(1);

function defaultInit(model, t) {
  const p = model.parseType(t);
  if (['string', 'obj', 'list', 'map'].includes(p.kind)) return '';
  return '{}';
}

export function generate(model) {
  let enumsH = `// ${GENERATED}\n#pragma once\n#include <cstdint>\n\nnamespace svcpp::core {\n\n`;
  let enumsCpp = `// ${GENERATED}\n#include "generated/enums.hpp"\n\nnamespace svcpp::core {\n\n`;
  for (const e of model.enums) {
    enumsH += `enum class ${e.coreName} : int32_t {\n${e.values.map(([n, v]) => `    ${n} = ${v},`).join('\n')}\n};\n`;
    enumsH += `/** Static name of the value, "Unknown" for values this library does not know. */\n`;
    enumsH += `const char *ToString(${e.coreName} value);\n`;
    enumsH += e.bitmask
      ? `/** True when raw combines only ${e.coreName}'s flags (inputs are validated with this). */\n`
      : `/** True when raw is one of ${e.coreName}'s values (inputs are validated with this). */\n`;
    enumsH += `bool Is${e.coreName}(int32_t raw);\n\n`;
    enumsCpp += `const char *ToString(${e.coreName} value) {\n    switch (value) {\n`;
    enumsCpp += e.values.map(([n]) => `        case ${e.coreName}::${n}: return "${n}";`).join('\n');
    enumsCpp += `\n    }\n    return "Unknown";\n}\n\n`;
    if (e.bitmask) {
      // A bitmask is valid when it only combines known flags (0 = none).
      const all = e.values.reduce((mask, [, v]) => mask | v, 0);
      enumsCpp += `bool Is${e.coreName}(int32_t raw) {\n    return raw >= 0 && (raw & ~${all}) == 0;\n}\n\n`;
    } else {
      enumsCpp += `bool Is${e.coreName}(int32_t raw) {\n    switch (raw) {\n`;
      enumsCpp += e.values.map(([, v]) => `        case ${v}:`).join('\n');
      enumsCpp += `\n            return true;\n        default:\n            return false;\n    }\n}\n\n`;
    }
  }
  enumsH += '}  // namespace svcpp::core\n';
  enumsCpp += '}  // namespace svcpp::core\n';

  let valuesH = `// ${GENERATED}\n#pragma once\n#include <cstdint>\n#include <optional>\n#include <string>\n#include <vector>\n\n#include "generated/enums.hpp"\n#include "values/properties.hpp"\n\nnamespace svcpp::core {\n\n`;
  // Value types in dependency order: a struct's obj and list fields are declared before it (the IDL lists them so).
  for (const t of model.types.filter((x) => x.kind === 'value')) {
    valuesH += `/** ${t.doc} */\nstruct ${t.name} {\n`;
    for (const f of t.fields) {
      const ty = cppType(model, f.type);
      const decl = f.optional ? `std::optional<${ty}>` : ty;
      valuesH += `    ${decl} ${memberName(f.name)}${f.optional ? '' : defaultInit(model, f.type)};\n`;
    }
    valuesH += `\n    bool operator==(const ${t.name} &) const = default;\n};\n\n`;
  }
  valuesH += '}  // namespace svcpp::core\n';
  let callbacksH = `// ${GENERATED}\n#pragma once\n#include <cstdint>\n#include <string_view>\n#include <vector>\n\n#include "generated/values.hpp"\n#include "runtime/callback.hpp"\n\nnamespace svcpp::core {\n\n`;
  // Hand-written handle classes used in callback signatures: a declaration is enough for a function type.
  const handles = handlesInCallbacks(model);
  if (handles.length) callbacksH += handles.map((t) => `class ${t.name};\n`).join('') + '\n';
  for (const cb of model.callbacks.filter((c) => !c.raw)) {
    const sig = `void(${cb.params.map((p) => callbackArgType(model, p.type)).join(', ')})`;
    callbacksH += `using ${cb.coreName} = Callback<${sig}>;\nusing Shared${cb.coreName} = SharedCallback<${sig}>;\n`;
  }
  callbacksH += '\n}  // namespace svcpp::core\n';
  return [
    { path: 'native/core/generated/callbacks.hpp', content: callbacksH },
    { path: 'native/core/generated/enums.hpp', content: enumsH },
    { path: 'native/core/generated/enums.cpp', content: enumsCpp },
    { path: 'native/core/generated/values.hpp', content: valuesH },
  ];
}
