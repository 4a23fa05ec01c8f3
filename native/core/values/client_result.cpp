#include "values/client_result.hpp"

namespace svcpp::core {

bool Successful(const ClientResult &r) { return r.type == ErrorType::None; }

std::string ToString(const ClientResult &r) {
    std::string s = core::ToString(r.type);
    if (r.type == ErrorType::HTTPError) s += " " + std::to_string(static_cast<int32_t>(r.status));
    if (r.errorCode != 0) s += " code=" + std::to_string(r.errorCode);
    if (r.retryable) s += " retryable";
    if (!r.error.empty()) s += ": " + r.error;
    return s;
}

}  // namespace svcpp::core
