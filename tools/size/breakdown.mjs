// Size breakdown of a linked shared library by contributor, from the GNU ld map of its link
// (docs/binary-size.md says how to produce one). Usage:
//   node tools/size/breakdown.mjs <link.map> [--top N] [--members <contributor>]
// --top N lists the N largest functions/data of each of our contributors; --members lists one contributor's archive
// members (object files) by size, e.g. --members 'OpenSSL libcrypto' shows which parts of OpenSSL the link pulled in.
// Every input section that survived --gc-sections is attributed to the archive or object it came from (OpenSSL,
// libsodium, Opus, WebRTC APM, static libstdc++, our libraries). Code of our own objects is split further by the
// symbol its section holds (-ffunction-sections names each section after its function): Boost.Asio/Beast, nlohmann
// and std:: templates are instantiated inside our translation units, so only the symbol says whose code it is.
// Sizes are of the sections as the linker laid them out; .eh_frame is shown per contributor before the linker merges
// and compresses it, so its total differs a little from the output section's.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const mapFile = args[0];
const topIndex = args.indexOf('--top');
const top = topIndex >= 0 ? Number(args[topIndex + 1]) : 0;
const membersIndex = args.indexOf('--members');
const membersOf = membersIndex >= 0 ? args[membersIndex + 1] : null;
if (!mapFile) {
  console.error('usage: node tools/size/breakdown.mjs <link.map> [--top N] [--members <contributor>]');
  process.exit(2);
}

// Output sections that end up in the file (.bss takes no file space; .comment and debug sections go with strip).
const kept = new Set([
  '.text',
  '.rodata',
  '.data.rel.ro',
  '.data.rel.ro.local',
  '.data',
  '.gcc_except_table',
  '.eh_frame',
  '.init_array',
  '.tbss',
  '.tdata',
]);
const column = (outSection) =>
  outSection === '.text'
    ? 'code'
    : outSection === '.eh_frame' || outSection === '.gcc_except_table'
      ? 'unwind'
      : 'data';

// Which library an input file belongs to: archives by name, our objects by the CMake target directory they were
// compiled in.
const libraryOf = (file) => {
  const rules = [
    [/libcrypto\.a\(/, 'OpenSSL libcrypto'],
    [/libssl\.a\(/, 'OpenSSL libssl'],
    [/libsodium\.a\(/, 'libsodium'],
    [/libwebrtc_audio_processing\.a\(/, 'WebRTC audio processing'],
    [/libopus\.a\(/, 'Opus'],
    [/lib(std|sup)c\+\+\.a\(/, 'libstdc++ (static)'],
    [/libgcc|crt[^/]*\.o|libc_nonshared|glibc-2\.28/, 'C runtime, glibc floor'],
    [/svcpp_mls\.dir|libsvcpp_mls\.a/, 'svcpp: MLS'],
    [/svcpp_voice_e2ee\.dir|libsvcpp_voice_e2ee\.a/, 'svcpp: DAVE (voice e2ee)'],
    [/svcpp_voice_media\.dir|libsvcpp_voice_media\.a/, 'svcpp: voice media'],
    [/svcpp_capi\.dir\/generated\//, 'svcpp: C ABI (generated glue)'],
    [/svcpp_capi\.dir\//, 'svcpp: C ABI (support)'],
    [/svcpp_core\.dir|libsvcpp_core\.a/, 'svcpp: core'],
    [/svcpp_node\.dir/, 'svcpp: Node addon'],
  ];
  for (const [pattern, name] of rules) if (pattern.test(file)) return name;
  return 'other';
};

// Whose template code an instantiation in our objects is, from the demangled symbol.
const templateOf = (demangled) => {
  if (/boost::(beast|asio)/.test(demangled)) return 'Boost.Asio/Beast';
  if (/boost::/.test(demangled)) return 'Boost (other)';
  if (/nlohmann::/.test(demangled)) return 'nlohmann::json';
  if (/^(std::|void std::|bool std::|__gnu_cxx::)/.test(demangled) && !/svcpp::/.test(demangled))
    return 'std:: templates';
  return null;
};

// Parse the memory map: " <section>  0x<addr>  0x<size>  <file>", the name possibly alone on the line before.
const text = readFileSync(mapFile, 'utf8');
// GNU ld heads the part we read "Linker script and memory map", gold "Memory map".
const start = Math.max(text.indexOf('\nLinker script and memory map'), text.indexOf('\nMemory map\n'));
const lines = text.slice(start).split('\n');
const sections = [];
let outSection = null;
let pendingName = null;
for (const line of lines) {
  const out = /^(\.[^\s]+)(\s|$)/.exec(line);
  if (out) {
    outSection = out[1];
    pendingName = null;
    continue;
  }
  const full = /^ (\S+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$/.exec(line);
  const tail = /^\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$/.exec(line);
  const nameOnly = /^ (\.\S+)$/.exec(line);
  let name, size, file;
  if (full) [name, size, file] = [full[1], parseInt(full[3], 16), full[4]];
  else if (tail && pendingName) [name, size, file] = [pendingName, parseInt(tail[2], 16), tail[3]];
  pendingName = nameOnly ? nameOnly[1] : null;
  if (name === undefined || !size || !kept.has(outSection)) continue;
  sections.push({ outSection, name, size, file: file.trim() });
}

// Demangle the function/datum names of our objects' sections in one c++filt run.
const symbolOf = (name) =>
  name.replace(/^\.(text|rodata|data\.rel\.ro|data|gcc_except_table)(\.(unlikely|hot|startup|exit|local))?\./, '');
const ours = sections.filter((s) => libraryOf(s.file).startsWith('svcpp:'));
const mangled = ours.map((s) => symbolOf(s.name).replace(/\.(constprop|isra|part|cold)\..*$|\.(cold|localalias)$/, ''));
const demangled = mangled.length
  ? execFileSync('c++filt', { input: mangled.join('\n'), encoding: 'utf8', maxBuffer: 1 << 30 }).split('\n')
  : [];
ours.forEach((s, i) => {
  s.symbol = demangled[i];
});

const groups = new Map();
const add = (group, s) => {
  const g = groups.get(group) ?? { code: 0, data: 0, unwind: 0, symbols: new Map() };
  g[column(s.outSection)] += s.size;
  if (s.symbol) g.symbols.set(s.symbol, (g.symbols.get(s.symbol) ?? 0) + s.size);
  groups.set(group, g);
};
for (const s of sections) {
  const library = libraryOf(s.file);
  const instantiated = s.symbol ? templateOf(s.symbol) : null;
  add(instantiated ? `${instantiated} (instantiated in ${library.replace('svcpp: ', '')})` : library, s);
}

const kb = (n) => (n / 1024).toFixed(0).padStart(7);
const rows = [...groups.entries()].map(([name, g]) => ({ name, ...g, total: g.code + g.data + g.unwind }));
rows.sort((a, b) => b.total - a.total);
const sum = (key) => rows.reduce((acc, r) => acc + r[key], 0);
console.log(
  `${'contributor'.padEnd(60)} ${'code'.padStart(7)} ${'data'.padStart(7)} ${'unwind'.padStart(7)} ${'total'.padStart(7)}  (KiB)`,
);
for (const r of rows) console.log(`${r.name.padEnd(60)} ${kb(r.code)} ${kb(r.data)} ${kb(r.unwind)} ${kb(r.total)}`);
console.log(`${'all'.padEnd(60)} ${kb(sum('code'))} ${kb(sum('data'))} ${kb(sum('unwind'))} ${kb(sum('total'))}`);
if (top > 0) {
  for (const r of rows.filter((row) => row.symbols.size)) {
    console.log(`\n${r.name}: largest ${top}`);
    const largest = [...r.symbols.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
    for (const [symbol, size] of largest)
      console.log(`${kb(size)}  ${symbol.length > 150 ? `${symbol.slice(0, 147)}...` : symbol}`);
  }
}
if (membersOf) {
  const perMember = new Map();
  for (const s of sections.filter((section) => libraryOf(section.file) === membersOf)) {
    const member = /\(([^)]+)\)$/.exec(s.file)?.[1] ?? s.file.split('/').pop();
    perMember.set(member, (perMember.get(member) ?? 0) + s.size);
  }
  console.log(`\n${membersOf}: ${perMember.size} members`);
  for (const [member, size] of [...perMember.entries()].sort((a, b) => b[1] - a[1]))
    console.log(`${kb(size)}  ${member}`);
}
