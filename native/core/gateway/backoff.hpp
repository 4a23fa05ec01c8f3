// Reconnect delays of the gateway session: exponential with jitter, so that clients dropped together by a
// restarting server do not come back in lockstep.
#pragma once
#include <cstdint>
#include <random>

namespace svcpp::core::gateway {

class Backoff {
  public:
    Backoff(int32_t initialMs, int32_t maxMs);

    /** initial · 2^n capped at max (n = delays handed out since Reset), then ±20 % jitter. */
    int32_t Next(std::mt19937 &rng);
    /** After op 9 `false`: uniform in [initial, min(5 · initial, max)] — the public docs' "1 to 5 s" at the default 1
     * s. */
    int32_t InvalidSessionDelay(std::mt19937 &rng) const;
    /** A connection succeeded (READY/RESUMED): the next delay starts from initial again. */
    void Reset() { currentMs_ = initialMs_; }

  private:
    int64_t initialMs_;
    int64_t maxMs_;
    int64_t currentMs_;
};

}  // namespace svcpp::core::gateway
