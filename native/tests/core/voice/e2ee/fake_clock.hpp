// A clock the tests step by hand, so expiries are checked without waiting (and without timing thresholds).
#pragma once
#include "voice/e2ee/clock.hpp"

namespace svcpp::core::voice::e2ee::test {

class FakeClock final : public Clock {
  public:
    TimePoint Now() const override { return now_; }
    void Advance(std::chrono::milliseconds step) { now_ += step; }

  private:
    TimePoint now_ = TimePoint{} + std::chrono::hours(1);
};

}  // namespace svcpp::core::voice::e2ee::test
