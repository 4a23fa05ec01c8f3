#include "threads/os_thread.hpp"

#include <windows.h>
#include <avrt.h>

#include <string>

#include "per_thread/per_thread.hpp"

namespace svcpp::core::os {

namespace {
/** UTF-8 → UTF-16 for the wide Windows API. */
std::wstring Wide(const char *text) {
    const int length = MultiByteToWideChar(CP_UTF8, 0, text, -1, nullptr, 0);
    if (length <= 0) return {};
    std::wstring wide(static_cast<size_t>(length), L'\0');
    MultiByteToWideChar(CP_UTF8, 0, text, -1, wide.data(), length);
    wide.resize(static_cast<size_t>(length - 1));
    return wide;
}

/** The nice scale (-20 … 19) onto Windows' seven thread priority levels; 0 stays normal. */
int WindowsPriority(int32_t nice) {
    if (nice <= -15) return THREAD_PRIORITY_TIME_CRITICAL;
    if (nice <= -10) return THREAD_PRIORITY_HIGHEST;
    if (nice < 0) return THREAD_PRIORITY_ABOVE_NORMAL;
    if (nice == 0) return THREAD_PRIORITY_NORMAL;
    if (nice < 10) return THREAD_PRIORITY_BELOW_NORMAL;
    if (nice < 19) return THREAD_PRIORITY_LOWEST;
    return THREAD_PRIORITY_IDLE;
}

std::string LastErrorText(DWORD code) {
    char *text = nullptr;
    const DWORD n =
        FormatMessageA(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                       nullptr, code, 0, reinterpret_cast<char *>(&text), 0, nullptr);
    std::string out = n && text ? std::string(text, n) : "error " + std::to_string(code);
    if (text) LocalFree(text);
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r' || out.back() == ' ')) out.pop_back();
    return out;
}

/** SetThreadDescription exists from Windows 10 1607 on: looked up, so older systems (and Wine) just skip the name. */
using SetThreadDescriptionFn = HRESULT(WINAPI *)(HANDLE, PCWSTR);
SetThreadDescriptionFn ThreadDescriptionSetter() {
    static const auto fn = reinterpret_cast<SetThreadDescriptionFn>(
        reinterpret_cast<void *>(GetProcAddress(GetModuleHandleW(L"kernel32.dll"), "SetThreadDescription")));
    return fn;
}
}  // namespace

ThreadId CurrentThreadId() { return static_cast<ThreadId>(GetCurrentThreadId()); }

void NameCurrentThread(const char *name) {
    if (auto set = ThreadDescriptionSetter()) set(GetCurrentThread(), Wide(name).c_str());
}

void PinCurrentThread(uint64_t mask) {
    // A mask naming no CPU of this machine fails and is ignored rather than failing the client.
    SetThreadAffinityMask(GetCurrentThread(), static_cast<DWORD_PTR>(mask));
}

std::string SetThreadNice(ThreadId tid, int32_t nice) {
    HANDLE thread = OpenThread(THREAD_SET_LIMITED_INFORMATION, FALSE, static_cast<DWORD>(tid));
    if (!thread) return LastErrorText(GetLastError());
    const bool ok = SetThreadPriority(thread, WindowsPriority(nice)) != 0;
    const DWORD error = ok ? 0 : GetLastError();
    CloseHandle(thread);
    return ok ? std::string() : LastErrorText(error);
}

namespace {
/** The calling thread's MMCSS task, reverted when the thread ends. */
struct AudioTask {
    HANDLE handle = nullptr;
    ~AudioTask() {
        if (handle) AvRevertMmThreadCharacteristics(handle);
    }
};
}  // namespace

void EnterRealTimeAudioClass() {
    AudioTask &audioTask = threads::PerThread<AudioTask>();  // not thread_local: per_thread/per_thread.hpp says why
    if (audioTask.handle) return;
    DWORD taskIndex = 0;
    audioTask.handle = AvSetMmThreadCharacteristicsW(L"Pro Audio", &taskIndex);
    // Null when the MMCSS service is off (or absent, as under Wine): the nice value is all there is.
    if (audioTask.handle) AvSetMmThreadPriority(audioTask.handle, AVRT_PRIORITY_HIGH);
}

}  // namespace svcpp::core::os
