#include "rpc/this_process.hpp"

#include <filesystem>
#include <system_error>

#ifdef _WIN32
#include <process.h>
#else
#include <unistd.h>
#endif

namespace svcpp::core::rpc {

std::string ShellQuote(const std::string &word) {
    std::string out = "'";
    for (char c : word) {
        if (c == '\'') out += "'\\''";
        else out += c;
    }
    return out + "'";
}

int64_t CurrentProcessId() {
#ifdef _WIN32
    return static_cast<int64_t>(_getpid());
#else
    return static_cast<int64_t>(getpid());
#endif
}

std::optional<std::string> CurrentExecutableCommand() {
#if defined(__linux__)
    std::error_code ec;
    auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec || path.empty()) return std::nullopt;
    return ShellQuote(path.string());
#else
    return std::nullopt;
#endif
}

}  // namespace svcpp::core::rpc
