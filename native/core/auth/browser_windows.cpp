// OpenInBrowser on Windows (auth/browser.hpp; the POSIX one is auth/browser_posix.cpp).
#include "auth/browser.hpp"

#include <windows.h>
#include <shellapi.h>

namespace svcpp::core::auth {

bool OpenInBrowser(const std::string &url) {
    // ShellExecuteW "opens" whatever it is given — a program path runs the program — so only a web address goes.
    if (url.rfind("https://", 0) != 0 && url.rfind("http://", 0) != 0) return false;
    // UTF-8 at the ABI, UTF-16 to Windows. The URL is handed to the shell's "open" verb as a file name, never to a
    // command line, so no character of it can be read as an argument or a command.
    const int length = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, url.c_str(), -1, nullptr, 0);
    if (length <= 0) return false;
    std::wstring wide(static_cast<size_t>(length), L'\0');
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, url.c_str(), -1, wide.data(), length);
    // ShellExecuteW answers a value above 32 when the default browser was started (it does not wait for it).
    const auto result =
        reinterpret_cast<INT_PTR>(ShellExecuteW(nullptr, L"open", wide.c_str(), nullptr, nullptr, SW_SHOWNORMAL));
    return result > 32;
}

}  // namespace svcpp::core::auth
