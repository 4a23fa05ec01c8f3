// The exported symbol list (checked against `nm -D` by the tests) and the linker version script
// that makes it true: libsvcpp exports exactly the Svcpp_* functions of the surface.
import { GENERATED } from './text.mjs';

export function generate(model) {
  const list = `${model.exportedSymbols.join('\n')}\n`;
  const map = `/* ${GENERATED} */\n{\n  global:\n${model.exportedSymbols.map((s) => `    ${s};`).join('\n')}\n  local:\n    *;\n};\n`;
  return [
    { path: 'native/capi/exported-symbols.txt', content: list },
    { path: 'native/capi/svcpp.map', content: map },
  ];
}
