// The systems svcpp ships native binaries for, and the one error a user of any other system gets. The loader
// checks the running system before it looks for a binary, so a macOS, musl or Windows-on-Arm user learns at once
// what is supported instead of meeting "file not found" or a long compile that fails (docs/platforms.md).
// The install script (scripts/install-native.cjs) asks the same question before it would compile anything.
import { SvcppError } from './errors.js';

/** What a binary is built for: the operating system, the CPU and, on Linux, the C library. */
export interface NativeSystem {
  platform: string;
  arch: string;
  /** 'glibc' or 'musl' on Linux; absent elsewhere. */
  libc?: 'glibc' | 'musl';
}

/** A target svcpp ships: its prebuild folder name and its C ABI library's file name. */
export interface NativeTarget {
  /** `<platform>-<arch>`: the folder under prebuilds/ (node-gyp-build's naming). */
  name: string;
  platform: string;
  arch: string;
  libc?: 'glibc';
  libraryFile: string;
}

/** Every target of the package, in the order of docs/platforms.md's table. */
export const SUPPORTED_TARGETS: readonly NativeTarget[] = Object.freeze([
  { name: 'linux-x64', platform: 'linux', arch: 'x64', libc: 'glibc', libraryFile: 'libsvcpp.so' },
  { name: 'linux-arm64', platform: 'linux', arch: 'arm64', libc: 'glibc', libraryFile: 'libsvcpp.so' },
  { name: 'win32-x64', platform: 'win32', arch: 'x64', libraryFile: 'svcpp.dll' },
]);

/** How a user of an unsupported system can still get a binary, where one could be built at all. */
function remedyFor(system: NativeSystem): string {
  if (system.platform === 'darwin') {
    return 'macOS needs a CoreAudio backend and a Keychain trust store that are not written yet (docs/platforms.md, "macOS, on paper")';
  }
  if (system.platform === 'linux') {
    // The core is portable POSIX C++; only the shipped binaries are glibc/x64/arm64. Untested here, so said so.
    return (
      'a build from source may work (untested there): npm install svcpp --build-from-source, with a C++20 compiler, ' +
      'CMake, Boost 1.81 headers, OpenSSL 3, nlohmann-json and python3 (docs/packaging.md)'
    );
  }
  return 'no toolchain for it exists in this project yet';
}

/** `linux-x64-musl`, `darwin-arm64`, `win32-arm64`: how the error names a system. */
export function describeSystem(system: NativeSystem): string {
  return `${system.platform}-${system.arch}${system.platform === 'linux' && system.libc ? `-${system.libc}` : ''}`;
}

/** Loading svcpp on a system no prebuilt binary serves. `target` names it; `supported` lists what is shipped. */
export class SvcppUnsupportedTargetError extends SvcppError {
  override name = 'SvcppUnsupportedTargetError';
  /** The running system, e.g. `darwin-arm64` or `linux-x64-musl`. */
  readonly target: string;
  /** The targets svcpp ships binaries for (`linux-x64`, `linux-arm64`, `win32-x64`). */
  readonly supported: readonly string[];

  constructor(system: NativeSystem) {
    const target = describeSystem(system);
    const supported = SUPPORTED_TARGETS.map((t) => t.name + (t.libc ? ` (${t.libc})` : ''));
    super(
      'ERR_SVCPP_UNSUPPORTED_TARGET',
      `svcpp: no native binary for ${target}; svcpp ships ${supported.join(', ')}. ${remedyFor(system)}.`,
    );
    this.target = target;
    this.supported = SUPPORTED_TARGETS.map((t) => t.name);
  }
}

/** The running process's system. On Linux the C library is glibc when Node reports a glibc runtime version. */
export function currentSystem(): NativeSystem {
  const system: NativeSystem = { platform: process.platform, arch: process.arch };
  if (process.platform === 'linux') {
    const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
    system.libc = header?.glibcVersionRuntime ? 'glibc' : 'musl';
  }
  return system;
}

/** The shipped target that serves `system`; throws SvcppUnsupportedTargetError when none does. */
export function targetFor(system: NativeSystem = currentSystem()): NativeTarget {
  const found = SUPPORTED_TARGETS.find(
    (t) => t.platform === system.platform && t.arch === system.arch && (t.libc === undefined || t.libc === system.libc),
  );
  if (!found) throw new SvcppUnsupportedTargetError(system);
  return found;
}
