#include "values/client_result.hpp"

namespace svcpp::core {

bool Successful(const ClientResult &r) { return r.type == ErrorType::None; }

std::string ToString(const ClientResult &r) {
    // Appended piece by piece: GCC 12 reports a false -Wrestrict for `s += " " + std::to_string(...)`.
    std::string s = core::ToString(r.type);
    if (r.type == ErrorType::HTTPError) s.append(" ").append(std::to_string(static_cast<int32_t>(r.status)));
    if (r.errorCode != 0) s.append(" code=").append(std::to_string(r.errorCode));
    if (r.retryable) s.append(" retryable");
    if (!r.error.empty()) s.append(": ").append(r.error);
    return s;
}

}  // namespace svcpp::core
