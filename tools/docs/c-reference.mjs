// The C and C++ API reference, generated from the IDL (idl/surface.mjs) through the generators' model
// (tools/gen/model.mjs), so it lists exactly what svcpp.h declares and svcpp.hpp wraps: every enum with its values,
// every callback typedef, every type with its C functions (prototype, doc) and the matching svcpp.hpp member.
// generate(model) -> Markdown text, which tools/docs/build.mjs (npm run docs) renders as the site's
// c-cpp-reference.html: its links are written as from a document at the repository's root, its anchors are GitHub's
// (the site's). test/docs.test.ts checks that every exported symbol has an entry and that every link resolves.
import { slug } from 'github-slugger';
import { cSnapshotEntryPoints, LAYOUT_DOC } from '../gen/c_snapshots.mjs';
import { memberNameOf } from '../gen/renames.mjs';

const KIND = {
  client: 'the client: owns the connection, caches and callbacks',
  handle:
    'a handle to an object the client owns ' +
    '(read through it; it may outlive the object, then calls fail with InvalidHandle)',
  value: 'a value object the caller owns (Init, set fields, pass it; Drop when done)',
};
/** A heading's anchor as GitHub and the docs site make it (`Svcpp_Client` → `svcpp_client`). */
const anchor = slug;
const oneLine = (doc) => (doc ?? '').replace(/\s*\n\s*/g, ' ').trim();

function prototype(model, fn) {
  const params = fn.params.length ? fn.params.map(model.cParamDecl).join(', ') : 'void';
  return `${model.cReturnType(fn)} ${fn.cName}(${params});`;
}

/** The svcpp.hpp spelling of a C function: a member of the type's class (static, lifecycle or field accessor). */
function cppMember(fn) {
  if (!fn.owner) return null;
  switch (fn.op) {
    case 'init':
      return `svcpp::${fn.owner.name} (constructor)`;
    case 'drop':
      return `svcpp::${fn.owner.name} (destructor, or .Drop())`;
    case 'clone':
      return `svcpp::${fn.owner.name} (copy constructor)`;
    default:
      return `svcpp::${fn.owner.name}::${memberNameOf(fn)}`;
  }
}

export function generate(model) {
  const out = [];
  const line = (text = '') => out.push(text);
  const { abi, product } = model;
  const version = `svcpp ${product.major}.${product.minor}.${product.patch}`;
  line(`# svcpp C and C++ API reference (ABI ${abi.major}.${abi.minor}, ${version})`);
  line();
  line('Generated from `idl/surface.mjs` by `npm run docs` (tools/docs/c-reference.mjs). The C declarations are in');
  line('`native/include/svcpp.h`; `native/include/svcpp.hpp` wraps each type in a class of the same name in namespace');
  line('`svcpp` (RAII, exceptions for misuse). The rules every call follows — handles, strings, optionals, callbacks,');
  line('threads, errors — are in [native/SEMANTICS.md](native/SEMANTICS.md).');
  line();
  line('## Contents');
  line();
  line('- [Library functions](#library-functions)');
  line('- [Enums](#enums)');
  line('- [Callbacks](#callbacks)');
  for (const t of model.types) line(`- [${t.cName}](#${anchor(t.cName)})`);
  line('- [Spans](#spans)');
  line('- [Snapshots](#snapshots)');
  line();

  line('## Library functions');
  line();
  line('Not tied to a type (declared in the Library section of svcpp.h):');
  line();
  for (const name of model.globals) line(`- \`${name}\``);
  line();

  line('## Enums');
  line();
  line('32-bit in C (`Svcpp_<Enum>_<Value>`); `enum class` with `int32_t` underlying type in C++.');
  for (const e of model.enums) {
    line();
    line(`### ${e.cName}`);
    line();
    if (e.doc) line(oneLine(e.doc));
    if (e.bitmask) line('A bitmask: values combine with `|`.');
    line();
    line('| Value | | Meaning |');
    line('|---|---|---|');
    for (const [name, value, doc] of e.values) line(`| \`${e.cName}_${name}\` | ${value} | ${oneLine(doc)} |`);
    line();
    line(`Name of a value: \`${e.toStringName}\`.`);
  }
  line();

  line('## Callbacks');
  line();
  line('Passed as a `(callback, userDataFree, userData)` triple; they run inside `Svcpp_RunCallbacks()` or');
  line('`Svcpp_Client_RunCallbacks()` on the calling thread unless marked otherwise.');
  for (const cb of model.callbacks) {
    line();
    line(`### ${cb.cName}`);
    line();
    line('```c');
    line(`typedef void (*${cb.cName})(${model.cCallbackParams(cb)});`);
    line('```');
    if (cb.doc) line(oneLine(cb.doc));
    if (cb.thread !== 'pump') line(`Runs on: ${cb.thread}.`);
  }
  line();

  for (const t of model.types) {
    line(`## ${t.cName}`);
    line();
    line(`C++: \`svcpp::${t.name}\` — ${KIND[t.kind] ?? t.kind}.`);
    if (t.doc) {
      line();
      line(oneLine(t.doc));
    }
    for (const fn of model.functions.filter((f) => f.owner === t)) {
      line();
      line(`### ${fn.cName}`);
      line();
      line('```c');
      line(prototype(model, fn));
      line('```');
      if (fn.doc) line(oneLine(fn.doc));
      const cpp = cppMember(fn);
      if (cpp) {
        line();
        line(`C++: \`${cpp}\``);
      }
    }
    line();
  }

  line('## Spans');
  line();
  line('Length-delimited arrays (`{ptr, size}`) the library allocates; drop them with their `_Drop` function.');
  for (const fn of model.functions.filter((f) => f.op === 'spanDrop')) {
    line();
    line(`### ${fn.cName}`);
    line();
    line('```c');
    line(prototype(model, fn));
    line('```');
    line(oneLine(fn.doc));
  }
  line();

  line('## Snapshots');
  line();
  line(
    "One call reads a whole object into the caller's buffer " +
      '([native/SEMANTICS.md](native/SEMANTICS.md) "Snapshots"; generated by',
  );
  line('tools/gen/c_snapshots.mjs). No C++ wrapper: the class getters read the same values one by one.');
  line();
  line(oneLine(LAYOUT_DOC.replace(/\n \*/g, '\n')));
  for (const e of cSnapshotEntryPoints(model)) {
    line();
    line(`### ${e.cName}`);
    line();
    line('```c');
    line(`${e.prototype};`);
    line('```');
    line(oneLine(e.doc.replace(/\n \*/g, '\n')));
  }
  line();
  return `${out.join('\n')}\n`;
}
