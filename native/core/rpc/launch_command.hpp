// The launch command of RegisterLaunchCommand with an empty command: this executable, quoted for the POSIX shell the
// local client runs launch commands with (native/SEMANTICS.md "Local RPC").
#pragma once
#include <optional>
#include <string>

namespace svcpp::core::rpc {

/** `'<path>'` with embedded single quotes escaped; nullopt when this system does not say where the executable is. */
std::optional<std::string> CurrentExecutableCommand();

/** A word quoted for /bin/sh: single quotes, each ' written as '\''. */
std::string ShellQuote(const std::string &word);

}  // namespace svcpp::core::rpc
