// Where the local client listens (native/SEMANTICS.md "Local RPC"): `discord-ipc-0` … `discord-ipc-9`, tried in
// order, in the first set of XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP, else /tmp (Windows: the named pipe
// `\\?\pipe\discord-ipc-{n}`). An explicit path (ClientCreateOptions.IpcPath, else the SVCPP_IPC_PATH environment
// variable the local client gives the games it launches) replaces the search, so tests and launched games never
// reach another instance.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace svcpp::core::rpc {

inline constexpr int kSocketSlots = 10;
inline constexpr const char *kIpcPathVariable = "SVCPP_IPC_PATH";

/** Reads an environment variable; nullopt when unset. Injected so tests need not touch the process environment. */
using EnvLookup = std::function<std::optional<std::string>(const std::string &name)>;
EnvLookup ProcessEnvironment();

/** The directory of the Unix sockets: the first non-empty XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP, else /tmp. */
std::string SocketDirectory(const EnvLookup &env);

/** The paths to try, in order: the explicit path alone when there is one, else the ten slots. */
std::vector<std::string> CandidatePaths(const std::string &explicitPath, const EnvLookup &env);

}  // namespace svcpp::core::rpc
