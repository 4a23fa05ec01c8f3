// JitterBuffer: one remote sender's (one SSRC's) packets, reordered and held for an adaptive delay, played out one
// 20 ms frame at a time.
//
// Threads: Push() on the network thread, Pop() on the audio thread — NOT concurrently on one instance: the caller
// serialises them (the engine moves packets to the audio thread through a lock-free queue and pushes there, or
// guards the pair). No allocation after construction: slots are preallocated.
//
// Ordering is by RTP sequence number (16-bit, with wrap-around); the RTP timestamp feeds the jitter estimate.
// The target delay adapts between the configured bounds (20–200 ms by default) from the RFC 3550 interarrival
// jitter: target = one frame + 4 × jitter, rounded up to whole frames.
//
// Audio is never thrown away to win back latency alone: a delay above the target (after a stall, frames arrive in a
// burst) is played off by skipping only the Opus silence frames a sender emits at the end of its speech, and the
// stream re-buffers at the target when the speaker pauses. Speech frames are skipped only while more than
// maxQueuedMs is queued (a stall that long is a lost cause for a conversation: latency stays bounded), and a burst
// beyond the capacity keeps the newest frames, not the oldest.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "voice/media/opus_codec.hpp"

namespace svcpp::core::voice {

struct JitterBufferConfig {
    int minDelayMs = 20;
    int maxDelayMs = 200;
    /**
     * Above this much queued audio, speech frames are skipped (one per tick, after 200 ms) to bound the latency a
     * stall leaves behind; below it nothing audible is skipped.
     */
    int maxQueuedMs = 500;
    /**
     * Frames held at most (rounded up to a power of two, at most 1024): 64 × 20 ms = 1.28 s, room for a burst well
     * past maxQueuedMs. A packet further ahead of playout than this makes room by discarding the oldest frames
     * (Overflow: the newest audio is the one worth keeping); while still buffering it is refused.
     */
    std::size_t capacity = 64;
    /** After this many consecutive frames with nothing buffered, the stream is idle and re-buffers on its next packet.
     */
    int idleAfterFrames = 10;
};

enum class JitterPushResult {
    Accepted,
    Duplicate,  // this sequence number is already buffered
    Late,       // its frame was already played out (or concealed)
    Overflow,   // too far ahead of playout for the buffer's capacity, while still buffering (refused)
    TooLarge,   // payload larger than kMaxOpusPacketBytes
};

/** What the decoder must do for the frame being played out now. */
enum class JitterFrameKind {
    Packet,   // decode `payload` (packet n)
    Fec,      // packet n is missing but n+1 is here: OpusFrameDecoder::DecodeFec(`payload` = packet n+1)
    Missing,  // packet n and n+1 are missing: OpusFrameDecoder::DecodeLost (PLC)
    Idle,     // still buffering, or the sender is silent: nothing to play for this sender
};

struct JitterFrame {
    JitterFrameKind kind = JitterFrameKind::Idle;
    std::span<const uint8_t> payload;  // valid until the next Push/Pop/Reset on this buffer
    uint16_t sequence = 0;             // the frame's sequence number (not meaningful when Idle)
    /**
     * Opus silence frames this Pop skipped, just before this frame, to bring the delay back to the target: they
     * reached playout and played as the silence they carry (only shorter), so a caller counting frames played out
     * counts them too.
     */
    uint16_t silenceSkipped = 0;
};

struct JitterBufferStats {
    uint64_t received = 0;
    uint64_t played = 0;
    uint64_t fecRecovered = 0;
    uint64_t concealed = 0;
    uint64_t late = 0;
    uint64_t duplicates = 0;
    uint64_t overflows = 0;       // packets refused, or old frames discarded, for the capacity
    uint64_t silenceSkipped = 0;  // Opus silence frames skipped to bring the delay back to the target (nothing lost)
    uint64_t dropped = 0;         // speech frames skipped while more than maxQueuedMs was queued (after 200 ms)
};

class JitterBuffer {
  public:
    explicit JitterBuffer(const JitterBufferConfig &config = {});

    /**
     * Stores one packet's Opus payload (already transport- and frame-decrypted). `arrivalUs` is the arrival time on a
     * monotonic clock in microseconds (drives the jitter estimate). Copies the payload; never allocates.
     */
    JitterPushResult Push(uint16_t sequence, uint32_t timestamp, std::span<const uint8_t> payload, int64_t arrivalUs);

    /** Called once per 20 ms of playout (`nowUs` on the same clock as Push). Says what to decode for this frame. */
    JitterFrame Pop(int64_t nowUs);

    /** The current adaptive target delay, within [minDelayMs, maxDelayMs]. */
    int TargetDelayMs() const { return targetDelayMs_; }
    /** RFC 3550 interarrival jitter estimate, in milliseconds. */
    double JitterMs() const { return jitterTs_ / (kSampleRate / 1000.0); }
    /** Frames currently buffered ahead of playout. */
    std::size_t BufferedFrames() const;
    const JitterBufferStats &Stats() const { return stats_; }
    /** Forgets everything (the sender left, its SSRC was reassigned). */
    void Reset();

  private:
    struct Slot {
        bool filled = false;
        uint16_t sequence = 0;
        uint32_t timestamp = 0;
        uint16_t size = 0;
        std::array<uint8_t, kMaxOpusPacketBytes> bytes{};
    };
    Slot &SlotFor(uint16_t sequence) { return slots_[sequence % slots_.size()]; }
    const Slot *Find(uint16_t sequence) const;
    void UpdateJitter(uint32_t timestamp, int64_t arrivalUs);
    void Retarget();

    JitterBufferConfig config_;
    std::vector<Slot> slots_;
    JitterBufferStats stats_;

    bool playing_ = false;             // playout started (else buffering)
    uint16_t nextSequence_ = 0;        // the frame Pop() plays next, when playing_
    int64_t firstArrivalUs_ = 0;       // when buffering started
    bool haveAny_ = false;             // any packet since the last Reset/idle
    int emptyFrames_ = 0;              // consecutive Pops with nothing buffered
    int overTargetFrames_ = 0;         // consecutive Pops with more buffered than the target allows
    uint16_t newestSequence_ = 0;      // highest sequence received (wrap-aware)
    uint16_t oldestSequence_ = 0;      // lowest sequence received while buffering
    bool havePlayed_ = false;          // lastPlayedSequence_ is meaningful
    uint16_t lastPlayedSequence_ = 0;  // the last frame played out (stays across idle periods: late packets stay late)

    bool haveTransit_ = false;
    int64_t lastTransitTs_ = 0;  // arrival (in timestamp units) − timestamp, of the previous packet
    double jitterTs_ = 0;        // RFC 3550 J, timestamp units
    int targetDelayMs_;
};

}  // namespace svcpp::core::voice
