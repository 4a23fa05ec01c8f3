#include "rpc/this_process.hpp"

#include <unistd.h>

#include <filesystem>
#include <system_error>

namespace svcpp::core::rpc {

int64_t CurrentProcessId() { return static_cast<int64_t>(getpid()); }

std::optional<std::string> CurrentExecutableCommand() {
    std::error_code ec;
    auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec || path.empty()) return std::nullopt;
    return ShellQuote(path.string());
}

}  // namespace svcpp::core::rpc
