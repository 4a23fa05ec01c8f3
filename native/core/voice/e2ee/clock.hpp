// The time source of the frame cryptor's expiries (key retention, passthrough windows), injectable so tests step it.
#pragma once
#include <chrono>

namespace svcpp::core::voice::e2ee {

using TimePoint = std::chrono::steady_clock::time_point;

class Clock {
  public:
    virtual ~Clock() = default;
    virtual TimePoint Now() const = 0;
};

class SteadyClock final : public Clock {
  public:
    TimePoint Now() const override { return std::chrono::steady_clock::now(); }
};

}  // namespace svcpp::core::voice::e2ee
