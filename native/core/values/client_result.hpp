// Behaviour of the ClientResult value beyond its fields.
#pragma once
#include <string>

#include "generated/values.hpp"

namespace svcpp::core {
bool Successful(const ClientResult &r);
/** One line: type, HTTP status, error code, message (e.g. "HTTPError 429 code=0: You are being rate limited."). */
std::string ToString(const ClientResult &r);
}  // namespace svcpp::core
