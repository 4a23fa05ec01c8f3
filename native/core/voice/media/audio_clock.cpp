#include <thread>

#include "voice/media/audio_backend.hpp"

namespace svcpp::core::voice {

void AudioClock::Start() { next_ = std::chrono::steady_clock::now() + period_; }

int AudioClock::WaitNextTick() {
    if (next_ == std::chrono::steady_clock::time_point{}) Start();
    auto now = std::chrono::steady_clock::now();
    int skipped = 0;
    // Late by up to maxCatchUpTicks: no skipping — sleep_until returns at once for a tick already due, and the
    // caller catches up. Later than that, skip to the current period.
    if (now >= next_ + maxCatchUpTicks_ * period_) {
        while (now >= next_ + period_) {
            next_ += period_;
            ++skipped;
        }
    }
    std::this_thread::sleep_until(next_);
    next_ += period_;
    return skipped;
}

}  // namespace svcpp::core::voice
