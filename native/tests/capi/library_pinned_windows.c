/* svcpp.dll stays loaded once loaded (native/capi/library_pin_windows.cpp), as libsvcpp.so is linked -z nodelete: a
 * host that loads it at run time, as koffi does, and frees it again — with a client's threads possibly still in it —
 * leaves it mapped. This program does not link svcpp.dll: it loads it from its own directory, checks an entry point,
 * frees it, and the module must still be there. */
#include <stdio.h>
#include <windows.h>

typedef unsigned int(__cdecl *GetAbiVersionFn)(void);

int main(void) {
    HMODULE library = LoadLibraryW(L"svcpp.dll");
    FARPROC entry;
    if (!library) {
        printf("FAIL: LoadLibraryW(svcpp.dll): error %lu\n", GetLastError());
        return 1;
    }
    entry = GetProcAddress(library, "Svcpp_GetAbiVersion");
    if (!entry || ((GetAbiVersionFn)(void (*)(void))entry)() == 0) {
        puts("FAIL: Svcpp_GetAbiVersion missing or zero");
        return 1;
    }
    if (!FreeLibrary(library)) {
        puts("FAIL: FreeLibrary refused");
        return 1;
    }
    if (GetModuleHandleW(L"svcpp.dll") == NULL) {
        puts("FAIL: svcpp.dll was unloaded by FreeLibrary: it must stay pinned");
        return 1;
    }
    puts("ok: svcpp.dll stays loaded after FreeLibrary");
    return 0;
}
