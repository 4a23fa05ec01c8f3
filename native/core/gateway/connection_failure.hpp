// What the host is told when connecting fails (Client::GetLastConnectionFailure): the reason, a message a person
// can act on, and whether trying again later may help. Certificate, URL and token failures are never retryable:
// retrying cannot fix them, and a launcher that retries them hides the real problem from its user.
#pragma once
#include <string>

#include "gateway/session.hpp"
#include "generated/values.hpp"
#include "net/http.hpp"

namespace svcpp::core::gateway {

/** Gateway discovery (GET /gateway) failed: a transport failure or an HTTP error status. */
ConnectionFailure DiscoveryFailure(const net::HttpResponse &response, const std::string &message);

/** The session ended in Disconnected with `error` / `closeCode`; `attempt` is the last failed attempt's transport
 * failure. */
ConnectionFailure SessionFailure(ClientError error, int32_t closeCode, const AttemptFailure &attempt);

/** Connect without a token. */
ConnectionFailure NoTokenFailure();

}  // namespace svcpp::core::gateway
