// What the local client is told about this process: the launch command of RegisterLaunchCommand with an empty
// command (this executable, quoted for the POSIX shell the local client runs launch commands with) and the process
// id of SET_ACTIVITY (native/SEMANTICS.md "Local RPC").
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace svcpp::core::rpc {

/** `'<path>'` with embedded single quotes escaped; nullopt when this system does not say where the executable is. */
std::optional<std::string> CurrentExecutableCommand();

/** This process's id (SET_ACTIVITY's `pid`). */
int64_t CurrentProcessId();

/** A word quoted for /bin/sh: single quotes, each ' written as '\''. */
std::string ShellQuote(const std::string &word);

}  // namespace svcpp::core::rpc
