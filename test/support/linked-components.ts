/**
 * What the shipped binaries (libsvcpp.so, the addon) are made of, read from the real CMake/Ninja build: the objects
 * and static archives on their link lines (build.ninja), recursively through the archives the build itself makes,
 * and every header the compiler read for those objects (`ninja -t deps`). Each file is traced to a component: a
 * Debian package (dpkg's own file lists), an npm package (node_modules/<name>) or a source tree unpacked in the
 * build's cache (SVCPP_CACHE_DIR/<dir>, e.g. opus-1.3.1). The project's own files are not components.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A third-party component and a few of the files that brought it in (for the failure message). */
export interface LinkedComponent {
  name: string;
  evidence: string[];
}

/** The toolchain and system: linked dynamically or covered by the GCC Runtime Library Exception (not redistributed). */
export const TOOLCHAIN_PACKAGES = new Set(['libc6-dev', 'linux-libc-dev', 'libgcc-12-dev', 'libstdc++-12-dev']);

/** The shipped outputs whose contents need notices. */
export const SHIPPED_TARGETS = ['Release/libsvcpp.so', 'Release/svcpp_node.node'];

interface NinjaBuild {
  inputs: string[];
  linkLibraries: string[];
}

/** `build <outputs>: <rule> <explicit inputs> | … || …` statements with their LINK_LIBRARIES, keyed by each output. */
function parseNinja(text: string): Map<string, NinjaBuild> {
  const builds = new Map<string, NinjaBuild>();
  let current: NinjaBuild | undefined;
  for (const line of text.split('\n')) {
    const statement = /^build (.+?): \S+ ?(.*)$/.exec(line);
    if (statement) {
      current = { inputs: statement[2]!.split(/ \|/)[0]!.split(' ').filter(Boolean), linkLibraries: [] };
      for (const output of statement[1]!.split(' ')) builds.set(output, current);
      continue;
    }
    const libraries = /^ {2}LINK_LIBRARIES = (.*)$/.exec(line);
    if (libraries && current) current.linkLibraries = libraries[1]!.split(/\s+/).filter(Boolean);
    else if (!line.startsWith('  ')) current = undefined;
  }
  return builds;
}

function cacheValue(cache: string, key: string): string {
  const value = new RegExp(`^${key}:[A-Z]+=(.*)$`, 'm').exec(cache)?.[1];
  if (value === undefined) throw new Error(`CMakeCache.txt has no ${key}`);
  return value;
}

/** Package of each of `paths` according to dpkg's file lists (/var/lib/dpkg/info/<package>[:arch].list). */
function dpkgOwners(paths: Set<string>): Map<string, string> {
  const owners = new Map<string, string>();
  const infoDir = '/var/lib/dpkg/info';
  for (const file of readdirSync(infoDir)) {
    if (!file.endsWith('.list')) continue;
    const pkg = file.slice(0, -'.list'.length).split(':')[0]!;
    for (const path of readFileSync(join(infoDir, file), 'utf8').split('\n'))
      if (paths.has(path)) owners.set(path, pkg);
  }
  return owners;
}

/**
 * The third-party components compiled into `targets` (build.ninja outputs, relative to the build directory; default
 * SHIPPED_TARGETS). Throws when the build is absent or not a Ninja build (the suite runs after
 * `npm run build:native`), or when a file belongs to nothing known.
 */
export function linkedComponents(buildDir: string, targets: readonly string[] = SHIPPED_TARGETS): LinkedComponent[] {
  const ninjaFile = join(buildDir, 'build.ninja');
  if (!existsSync(ninjaFile))
    throw new Error(`no Ninja build in ${buildDir}: build the native code first (npm run build:native)`);
  const build = realpathSync(buildDir);
  const cache = readFileSync(join(build, 'CMakeCache.txt'), 'utf8');
  const sourceDir = cacheValue(cache, 'CMAKE_HOME_DIRECTORY');
  const cacheDir = cacheValue(cache, 'SVCPP_CACHE_DIR');
  const builds = parseNinja(readFileSync(ninjaFile, 'utf8'));

  // Objects and external archives of the shipped targets; archives the build makes are opened up into their objects.
  const objects = new Set<string>();
  const externalArchives = new Set<string>();
  const visit = (target: string) => {
    const statement = builds.get(target);
    if (!statement) throw new Error(`build.ninja has no build statement for ${target}`);
    for (const input of [...statement.inputs, ...statement.linkLibraries]) {
      if (input.endsWith('.o')) objects.add(input);
      else if (input.endsWith('.a') && builds.has(input)) visit(input);
      else if (input.endsWith('.a')) externalArchives.add(input);
    }
  };
  for (const target of targets) visit(target);

  const deps = execFileSync('ninja', ['-C', build, '-t', 'deps', ...objects], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const files = new Set<string>(externalArchives);
  for (const line of deps.split('\n')) if (line.startsWith('    ')) files.add(line.trim());
  // The object files' own records name their sources too: an object without recorded deps would hide its headers.
  const recorded = deps.split('\n').filter((line) => /^\S.*: #deps \d+/.test(line)).length;
  if (recorded !== objects.size)
    throw new Error(`ninja recorded dependencies for ${recorded} of ${objects.size} objects: rebuild`);

  const absolute = [...files].map((file) => (isAbsolute(file) ? file : resolve(build, file)));
  const owners = dpkgOwners(new Set(absolute));
  const within = (dir: string, path: string) => {
    const rel = relative(dir, path);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep) : undefined;
  };

  const components = new Map<string, string[]>();
  for (const path of absolute) {
    let name: string | undefined;
    const inCache = within(cacheDir, path);
    const inModules = within(join(sourceDir, 'node_modules'), path);
    if (inCache) name = inCache[0];
    else if (inModules) name = inModules[0]!.startsWith('@') ? `${inModules[0]}/${inModules[1]}` : inModules[0];
    else if (within(sourceDir, path) || within(build, path))
      continue; // the project's own sources and generated files
    else name = owners.get(path) ?? `unidentified file ${path}`;
    if (TOOLCHAIN_PACKAGES.has(name!)) continue;
    const evidence = components.get(name!) ?? [];
    if (evidence.length < 3) evidence.push(path);
    components.set(name!, evidence);
  }
  return [...components].map(([name, evidence]) => ({ name, evidence })).sort((a, b) => a.name.localeCompare(b.name));
}
