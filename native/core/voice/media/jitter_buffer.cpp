#include "voice/media/jitter_buffer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "voice/media/rtp.hpp"

namespace svcpp::core::voice {

namespace {

std::size_t PowerOfTwoCapacity(std::size_t wanted) {
    std::size_t n = 2;
    while (n < wanted && n < 1024) n <<= 1;
    return n;  // divides 65536, so sequence % capacity stays consistent across the 16-bit wrap
}

// A packet this far (or less) behind the last played frame is a late straggler; further back, it is a sender that
// restarted its sequence numbers, and is taken as new.
constexpr int kLateWindow = 256;
constexpr int kTicksPerMs = kSampleRate / 1000;
constexpr int kShrinkAfterFrames = 10;  // 200 ms above maxQueuedMs before speech frames are skipped

}  // namespace

JitterBuffer::JitterBuffer(const JitterBufferConfig &config) : config_(config), targetDelayMs_(config.minDelayMs) {
    config_.minDelayMs = std::clamp(config_.minDelayMs, kOpusFrameMs, 1000);
    config_.maxDelayMs = std::clamp(config_.maxDelayMs, config_.minDelayMs, 1000);
    config_.maxQueuedMs = std::clamp(config_.maxQueuedMs, config_.maxDelayMs, 20000);
    config_.capacity = PowerOfTwoCapacity(config_.capacity);
    config_.idleAfterFrames = std::max(1, config_.idleAfterFrames);
    targetDelayMs_ = config_.minDelayMs;
    slots_.resize(config_.capacity);
}

const JitterBuffer::Slot *JitterBuffer::Find(uint16_t sequence) const {
    const Slot &slot = slots_[sequence % slots_.size()];
    return slot.filled && slot.sequence == sequence ? &slot : nullptr;
}

std::size_t JitterBuffer::BufferedFrames() const {
    return static_cast<std::size_t>(std::ranges::count_if(slots_, [](const Slot &s) { return s.filled; }));
}

void JitterBuffer::Reset() {
    for (Slot &slot : slots_) slot.filled = false;
    playing_ = haveAny_ = havePlayed_ = haveTransit_ = false;
    emptyFrames_ = 0;
    overTargetFrames_ = 0;
    jitterTs_ = 0;
    targetDelayMs_ = config_.minDelayMs;
}

void JitterBuffer::UpdateJitter(uint32_t timestamp, int64_t arrivalUs) {
    // RFC 3550 §6.4.1 / A.8: J += (|D| − J) / 16, D the change in transit time between consecutive arrivals.
    int64_t transit = arrivalUs * kTicksPerMs / 1000 - static_cast<int64_t>(timestamp);
    if (haveTransit_) {
        int64_t d = transit - lastTransitTs_;
        // The timestamp wraps at 2^32: fold the difference back into the signed 32-bit range.
        d = static_cast<int32_t>(static_cast<uint32_t>(d));
        jitterTs_ += (std::fabs(static_cast<double>(d)) - jitterTs_) / 16.0;
    }
    lastTransitTs_ = transit;
    haveTransit_ = true;
}

void JitterBuffer::Retarget() {
    // One frame of scheduling slack plus four deviations of the arrival jitter covers nearly all arrivals; rounded up
    // to whole frames, since playout moves in frames.
    double wantedMs = kOpusFrameMs + 4.0 * JitterMs();
    int frames = static_cast<int>(std::ceil(wantedMs / kOpusFrameMs));
    targetDelayMs_ = std::clamp(frames * kOpusFrameMs, config_.minDelayMs, config_.maxDelayMs);
}

JitterPushResult JitterBuffer::Push(uint16_t sequence, uint32_t timestamp, std::span<const uint8_t> payload,
                                    int64_t arrivalUs) {
    if (payload.size() > kMaxOpusPacketBytes) return JitterPushResult::TooLarge;
    const int capacity = static_cast<int>(slots_.size());

    if (playing_) {
        int ahead = SequenceDelta(nextSequence_, sequence);
        if (ahead < 0) {
            ++stats_.late;
            return JitterPushResult::Late;
        }
        if (ahead >= capacity) {
            // A burst longer than the buffer (a long stall upstream): keep the newest audio. The oldest frames go,
            // so the packet lands at the far end of the window.
            const uint16_t keepFrom = static_cast<uint16_t>(sequence - (capacity - 1));
            for (Slot &old : slots_) {
                if (old.filled && SequenceNewer(old.sequence, keepFrom)) {  // older than keepFrom
                    old.filled = false;
                    ++stats_.overflows;
                }
            }
            nextSequence_ = keepFrom;
            lastPlayedSequence_ = static_cast<uint16_t>(keepFrom - 1);
            havePlayed_ = true;
        }
    } else {
        if (havePlayed_) {
            int behind = SequenceDelta(sequence, lastPlayedSequence_);
            if (behind >= 0 && behind < kLateWindow) {
                ++stats_.late;
                return JitterPushResult::Late;
            }
        }
        if (haveAny_) {
            uint16_t oldest = SequenceNewer(sequence, oldestSequence_) ? sequence : oldestSequence_;
            uint16_t newest = SequenceNewer(newestSequence_, sequence) ? sequence : newestSequence_;
            if (SequenceDelta(oldest, newest) >= capacity) {
                ++stats_.overflows;
                return JitterPushResult::Overflow;
            }
        }
    }

    Slot &slot = SlotFor(sequence);
    if (slot.filled && slot.sequence == sequence) {
        ++stats_.duplicates;
        return JitterPushResult::Duplicate;
    }
    slot.filled = true;
    slot.sequence = sequence;
    slot.timestamp = timestamp;
    slot.size = static_cast<uint16_t>(payload.size());
    if (!payload.empty()) std::memcpy(slot.bytes.data(), payload.data(), payload.size());

    if (!haveAny_) {
        haveAny_ = true;
        firstArrivalUs_ = arrivalUs;
        oldestSequence_ = newestSequence_ = sequence;
    } else {
        if (SequenceNewer(newestSequence_, sequence)) newestSequence_ = sequence;
        if (!playing_ && SequenceNewer(sequence, oldestSequence_)) oldestSequence_ = sequence;
    }
    UpdateJitter(timestamp, arrivalUs);
    Retarget();
    ++stats_.received;
    return JitterPushResult::Accepted;
}

JitterFrame JitterBuffer::Pop(int64_t nowUs) {
    if (!playing_) {
        if (!haveAny_ || nowUs - firstArrivalUs_ < int64_t{targetDelayMs_} * 1000) return {};
        playing_ = true;
        nextSequence_ = oldestSequence_;
        emptyFrames_ = 0;
    }

    int ahead = SequenceDelta(nextSequence_, newestSequence_);  // frames buffered beyond the one due now
    if (ahead < 0) {
        // Underrun: nothing buffered. Conceal without moving on, so a packet that is merely delayed still plays; a
        // sender that stopped (end of speech, DTX) makes the stream idle after a while.
        if (++emptyFrames_ > config_.idleAfterFrames) {
            playing_ = false;
            haveAny_ = false;
            for (Slot &slot : slots_) slot.filled = false;
            return {};
        }
        ++stats_.concealed;
        return {JitterFrameKind::Missing, {}, nextSequence_};
    }
    emptyFrames_ = 0;

    // More buffered than the target wants (a burst after a stall, or the jitter calmed down): silence frames due now
    // are skipped at once — they carry nothing — so the end of each spoken phrase gives the latency back.
    const int targetFrames = targetDelayMs_ / kOpusFrameMs;
    uint16_t silenceSkipped = 0;
    while (ahead > targetFrames + 1) {
        const Slot *due = Find(nextSequence_);
        if (!due || !IsOpusSilenceFrame(std::span<const uint8_t>(due->bytes.data(), due->size))) break;
        SlotFor(nextSequence_).filled = false;
        ++stats_.silenceSkipped;
        ++silenceSkipped;
        lastPlayedSequence_ = nextSequence_++;
        havePlayed_ = true;
        --ahead;
    }
    // Speech is skipped only past maxQueuedMs, and only once that has lasted kShrinkAfterFrames, one frame per tick:
    // latency stays bounded after a long stall, while any shorter one costs no audio.
    const int queuedCapFrames = config_.maxQueuedMs / kOpusFrameMs;
    overTargetFrames_ = ahead > queuedCapFrames ? overTargetFrames_ + 1 : 0;
    if (overTargetFrames_ >= kShrinkAfterFrames && Find(nextSequence_)) {
        SlotFor(nextSequence_).filled = false;
        ++stats_.dropped;
        lastPlayedSequence_ = nextSequence_++;
        havePlayed_ = true;
        --ahead;
    }

    uint16_t sequence = nextSequence_++;
    lastPlayedSequence_ = sequence;
    havePlayed_ = true;
    if (const Slot *slot = Find(sequence)) {
        SlotFor(sequence).filled = false;  // the bytes stay valid until the next Push/Pop overwrites the slot
        ++stats_.played;
        return {JitterFrameKind::Packet, std::span<const uint8_t>(slot->bytes.data(), slot->size), sequence,
                silenceSkipped};
    }
    if (const Slot *next = Find(static_cast<uint16_t>(sequence + 1))) {
        ++stats_.fecRecovered;
        return {JitterFrameKind::Fec, std::span<const uint8_t>(next->bytes.data(), next->size), sequence,
                silenceSkipped};
    }
    ++stats_.concealed;
    return {JitterFrameKind::Missing, {}, sequence, silenceSkipped};
}

}  // namespace svcpp::core::voice
