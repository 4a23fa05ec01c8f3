// Properties: the core's string -> string map (lobby and member metadata, message metadata). An ordered map so
// every output (C: Svcpp_Properties, JSON) is sorted by key bytes without a sort step: std::less<std::string>
// compares like unsigned char, i.e. byte order.
#pragma once
#include <map>
#include <string>

namespace svcpp::core {

using Properties = std::map<std::string, std::string>;

}  // namespace svcpp::core
