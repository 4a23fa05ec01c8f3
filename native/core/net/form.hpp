// application/x-www-form-urlencoded and URL query strings (RFC 3986 percent-encoding).
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace svcpp::core::net {

using FormFields = std::vector<std::pair<std::string, std::string>>;

/** Percent-encodes everything but the RFC 3986 unreserved characters. */
std::string UrlEncode(std::string_view text);
/** "a=1&b=x%20y" from the fields, in order. */
std::string EncodeForm(const FormFields &fields);
/** The query of a request target ("/callback?code=x&state=y" -> {code: x, state: y}); '+' is a space. */
std::map<std::string, std::string> ParseQuery(std::string_view target);

}  // namespace svcpp::core::net
