// Header values the HTTP client and the WebSocket handshake both send.
#pragma once
#include <string>

#include "net/http.hpp"

namespace svcpp::core::net {

/** The Host header for url: the port only when it is not the scheme's default, IPv6 in brackets. */
std::string HostHeaderValue(const Url &url);

/** "svcpp/<major>.<minor>.<patch>". */
std::string UserAgentValue();

}  // namespace svcpp::core::net
