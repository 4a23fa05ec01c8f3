#include "rpc/launch_command.hpp"

#include <filesystem>
#include <system_error>

namespace svcpp::core::rpc {

std::string ShellQuote(const std::string &word) {
    std::string out = "'";
    for (char c : word) {
        if (c == '\'') out += "'\\''";
        else out += c;
    }
    return out + "'";
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
