// The NetFailure kind of a failed TCP connect (shared by HttpClient and the WebSocket factory).
#pragma once
#include <boost/system/error_code.hpp>

#include "net/http.hpp"

namespace svcpp::core::net {

/** Refused or TimedOut when the error says so, else Transfer (unreachable network, reset, …). */
NetFailure ConnectFailure(const boost::system::error_code &ec);

}  // namespace svcpp::core::net
