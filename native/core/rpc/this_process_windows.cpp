// CurrentProcessId and CurrentExecutableCommand on Windows: the command is the executable's path double-quoted, as a
// Windows command line quotes a program name (the POSIX one: this_process_linux.cpp, single-quoted for /bin/sh).
#include "rpc/this_process.hpp"

#include <windows.h>

#include <string>

namespace svcpp::core::rpc {

int64_t CurrentProcessId() { return static_cast<int64_t>(GetCurrentProcessId()); }

std::optional<std::string> CurrentExecutableCommand() {
    // The executable's path in UTF-16 (long paths grow the buffer), handed on in UTF-8 and double-quoted as a Windows
    // command line quotes a program name (a path cannot contain '"').
    std::wstring path(MAX_PATH, L'\0');
    for (;;) {
        const DWORD n = GetModuleFileNameW(nullptr, path.data(), static_cast<DWORD>(path.size()));
        if (n == 0) return std::nullopt;
        if (n < path.size()) {
            path.resize(n);
            break;
        }
        path.resize(path.size() * 2);
    }
    const int length =
        WideCharToMultiByte(CP_UTF8, 0, path.c_str(), static_cast<int>(path.size()), nullptr, 0, nullptr, nullptr);
    if (length <= 0) return std::nullopt;
    std::string utf8(static_cast<size_t>(length), '\0');
    WideCharToMultiByte(CP_UTF8, 0, path.c_str(), static_cast<int>(path.size()), utf8.data(), length, nullptr, nullptr);
    return "\"" + utf8 + "\"";
}

}  // namespace svcpp::core::rpc
