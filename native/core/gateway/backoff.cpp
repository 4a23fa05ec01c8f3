#include "gateway/backoff.hpp"

#include <algorithm>

namespace svcpp::core::gateway {

Backoff::Backoff(int32_t initialMs, int32_t maxMs)
    : initialMs_(std::max<int32_t>(initialMs, 1)),
      maxMs_(std::max<int64_t>(maxMs, initialMs_)),
      currentMs_(initialMs_) {}

int32_t Backoff::Next(std::mt19937 &rng) {
    const int64_t base = currentMs_;
    currentMs_ = std::min(currentMs_ * 2, maxMs_);
    std::uniform_real_distribution<double> jitter(0.8, 1.2);
    return static_cast<int32_t>(static_cast<double>(base) * jitter(rng));
}

int32_t Backoff::InvalidSessionDelay(std::mt19937 &rng) const {
    std::uniform_int_distribution<int64_t> delay(initialMs_, std::min(5 * initialMs_, maxMs_));
    return static_cast<int32_t>(delay(rng));
}

}  // namespace svcpp::core::gateway
