#include <thread>

#include "voice/media/audio_backend.hpp"

namespace svcpp::core::voice {

void AudioClock::Start() { next_ = std::chrono::steady_clock::now() + period_; }

int AudioClock::WaitNextTick() {
    if (next_ == std::chrono::steady_clock::time_point{}) Start();
    auto now = std::chrono::steady_clock::now();
    int skipped = 0;
    // Late by more than a whole period (the thread was descheduled): skip the missed ticks rather than run them back
    // to back, which would push a burst of frames into the devices.
    while (now >= next_ + period_) {
        next_ += period_;
        ++skipped;
    }
    std::this_thread::sleep_until(next_);
    next_ += period_;
    return skipped;
}

}  // namespace svcpp::core::voice
