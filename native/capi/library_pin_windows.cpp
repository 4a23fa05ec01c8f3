// svcpp.dll is never unloaded, as libsvcpp.so is linked with -z nodelete (native/capi/CMakeLists.txt): a client owns
// threads, and a host that frees the library while they run (koffi can unload what it loaded) would leave them in
// unmapped code and run the DLL's static destructors under them. Pinned at load, the DLL stays until the process
// ends, as any DLL a program links.
#include <windows.h>

extern "C" BOOL WINAPI DllMain(HINSTANCE, DWORD reason, LPVOID) {
    if (reason == DLL_PROCESS_ATTACH) {
        HMODULE self = nullptr;
        // The loader lock is held here; GetModuleHandleExW only takes it again (it is reentrant) and loads nothing.
        GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN,
                           reinterpret_cast<LPCWSTR>(&DllMain), &self);
    }
    return TRUE;
}
