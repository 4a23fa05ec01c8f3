#include "thread_census.hpp"

#include <windows.h>
#include <tlhelp32.h>

#include "files/utf16_windows.hpp"

namespace svcpp::test {

namespace {

/** GetThreadDescription exists from Windows 10 1607 on (and in Wine): looked up, as the SDK looks up its setter. */
using GetThreadDescriptionFn = HRESULT(WINAPI *)(HANDLE, PWSTR *);
GetThreadDescriptionFn ThreadDescriptionGetter() {
    static const auto fn = reinterpret_cast<GetThreadDescriptionFn>(
        reinterpret_cast<void *>(GetProcAddress(GetModuleHandleW(L"kernel32.dll"), "GetThreadDescription")));
    return fn;
}

}  // namespace

int CountThreadsNamed(const std::string &name) {
    const auto describe = ThreadDescriptionGetter();
    if (!describe) return 0;
    const std::wstring wanted = core::files::Utf8ToUtf16(name);
    HANDLE snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0);
    if (snapshot == INVALID_HANDLE_VALUE) return 0;
    int count = 0;
    THREADENTRY32 entry{};
    entry.dwSize = sizeof entry;
    for (BOOL more = Thread32First(snapshot, &entry); more; more = Thread32Next(snapshot, &entry)) {
        if (entry.th32OwnerProcessID != GetCurrentProcessId()) continue;
        HANDLE thread = OpenThread(THREAD_QUERY_LIMITED_INFORMATION, FALSE, entry.th32ThreadID);
        if (!thread) continue;  // it ended since the snapshot
        PWSTR description = nullptr;
        if (SUCCEEDED(describe(thread, &description)) && description) {
            if (wanted == description) ++count;
            LocalFree(description);
        }
        CloseHandle(thread);
    }
    CloseHandle(snapshot);
    return count;
}

std::vector<int> ThreadNicesNamed(const std::string &) { return {}; }

bool ThreadNicesAreReadable() { return false; }

}  // namespace svcpp::test
