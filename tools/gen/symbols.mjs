// The exported symbol list (checked against `nm -D` by the tests) and what makes it true: the linker version script
// of libsvcpp.so and the module-definition file of svcpp.dll (which `dlltool` also turns into the MSVC import library
// svcpp.lib): libsvcpp exports exactly the Svcpp_* functions of the surface.
import { cSnapshotSymbols } from './c_snapshots.mjs';
import { eventRecordSymbols } from './event_records.mjs';
import { GENERATED } from './text.mjs';

export function generate(model) {
  // The C snapshot entry points (c_snapshots.mjs) are generated from the snapshot specs, outside the model's functions.
  const symbols = [...model.exportedSymbols, ...cSnapshotSymbols(model), ...eventRecordSymbols(model)].sort();
  const list = `${symbols.join('\n')}\n`;
  const map = `/* ${GENERATED} */\n{\n  global:\n${symbols.map((s) => `    ${s};`).join('\n')}\n  local:\n    *;\n};\n`;
  const def = `; ${GENERATED}\nLIBRARY svcpp.dll\nEXPORTS\n${symbols.map((s) => `  ${s}`).join('\n')}\n`;
  return [
    { path: 'native/capi/exported-symbols.txt', content: list },
    { path: 'native/capi/svcpp.map', content: map },
    { path: 'native/capi/svcpp.def', content: def },
  ];
}
