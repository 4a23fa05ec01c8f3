// Windows only. The addon imports its Node-API and libuv functions from "node.exe" (cmake/node-addon-cross.cmake),
// but the process that loads it is not always called that: Electron, and every game launcher built on it, is
// "electron.exe" or the launcher's own name, and exports the same functions from its executable. So those imports are
// delay-loaded (dlltool --output-delaylib), and this hook answers the delay-load helper's "which module is node.exe?"
// with the process's own executable, whatever its name: no second Node is ever looked for on the DLL search path. In
// node.exe itself the answer is the same module the plain import would have bound. The helper (mingw-w64's
// __delayLoadHelper2, libmingwex) calls the hook at the first call of each imported function.
#include <windows.h>
// After windows.h, which it needs.
#include <delayimp.h>

namespace {

FARPROC WINAPI ResolveNodeFromTheHostProcess(unsigned notification, PDelayLoadInfo info) {
    if (notification != dliNotePreLoadLibrary || lstrcmpiA(info->szDll, "node.exe") != 0) return nullptr;
    return reinterpret_cast<FARPROC>(GetModuleHandleW(nullptr));
}

}  // namespace

// The helper reads this pointer; defining it here (an object file, not a library member) replaces the runtime's null
// default (delayimp.h declares it extern "C", which this definition inherits).
PfnDliHook __pfnDliNotifyHook2 = ResolveNodeFromTheHostProcess;
