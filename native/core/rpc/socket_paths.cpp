#include "rpc/socket_paths.hpp"

#include <cstdlib>

namespace svcpp::core::rpc {

EnvLookup ProcessEnvironment() {
    return [](const std::string &name) -> std::optional<std::string> {
        const char *value = std::getenv(name.c_str());
        if (value == nullptr) return std::nullopt;
        return std::string(value);
    };
}

std::string SocketDirectory(const EnvLookup &env) {
    for (const char *name : {"XDG_RUNTIME_DIR", "TMPDIR", "TMP", "TEMP"}) {
        auto value = env(name);
        if (value && !value->empty()) {
            std::string dir = *value;
            while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
            return dir;
        }
    }
    return "/tmp";
}

std::vector<std::string> CandidatePaths(const std::string &explicitPath, const EnvLookup &env) {
    if (!explicitPath.empty()) return {explicitPath};
    if (auto fromEnv = env(kIpcPathVariable); fromEnv && !fromEnv->empty()) return {*fromEnv};
    std::vector<std::string> paths;
#ifdef _WIN32
    for (int n = 0; n < kSocketSlots; ++n) paths.push_back("\\\\?\\pipe\\discord-ipc-" + std::to_string(n));
#else
    const std::string dir = SocketDirectory(env);
    for (int n = 0; n < kSocketSlots; ++n) paths.push_back(dir + "/discord-ipc-" + std::to_string(n));
#endif
    return paths;
}

}  // namespace svcpp::core::rpc
