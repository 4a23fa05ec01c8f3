// Opus encoder and decoder wrappers for the voice pipeline (48 kHz stereo, 20 ms frames).
//
// Both are created once at call set-up (they allocate) and afterwards never allocate: Encode/Decode are safe on the
// real-time audio thread. One instance is used by one thread at a time (libopus state is not thread-safe).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <span>

#include "voice/media/audio_format.hpp"

// libopus's own types, declared here so this header does not need <opus.h> (Opus is a private dependency of the core).
struct OpusEncoder;
struct OpusDecoder;

namespace svcpp::core::voice {

/** The 3-byte Opus frame a sender emits (five times) when it stops talking: decodes to silence. */
inline constexpr std::array<uint8_t, 3> kOpusSilenceFrame{0xF8, 0xFF, 0xFE};
/**
 * True when `frame` is exactly the silence frame (DAVE passes it through unencrypted; the jitter buffer may skip it).
 * Inline: code that does not link the codec (the jitter buffer's fuzz target) asks it too.
 */
inline bool IsOpusSilenceFrame(std::span<const uint8_t> frame) { return std::ranges::equal(frame, kOpusSilenceFrame); }

/** Largest Opus packet we produce or accept for one 20 ms frame (RFC 6716 §3.4: 1275 bytes per frame + TOC). */
inline constexpr std::size_t kMaxOpusPacketBytes = 1276;

enum class OpusApplication {
    Voip,   // OPUS_APPLICATION_VOIP: speech-tuned, the default for calls
    Audio,  // OPUS_APPLICATION_AUDIO: music / game audio
};

struct OpusEncoderConfig {
    OpusApplication application = OpusApplication::Voip;
    int bitrate = 64000;           // bits per second, [6000, 510000]
    bool inbandFec = true;         // LBRR: frame n is also carried, coarsely, in packet n+1
    int expectedLossPercent = 10;  // [0, 100]; FEC only kicks in when > 0
    bool dtx = false;              // discontinuous transmission: tiny packets during silence
    int complexity = 10;           // [0, 10]
};

/** Encodes 20 ms stereo frames. Create() returns null for a configuration libopus refuses (out-of-range values). */
class OpusFrameEncoder {
  public:
    static std::unique_ptr<OpusFrameEncoder> Create(const OpusEncoderConfig &config = {});
    ~OpusFrameEncoder();
    OpusFrameEncoder(const OpusFrameEncoder &) = delete;
    OpusFrameEncoder &operator=(const OpusFrameEncoder &) = delete;

    /**
     * Encodes one frame of exactly kOpusFrameSamples interleaved samples into `out` (give it kMaxOpusPacketBytes).
     * Returns the packet size in bytes (with DTX, 1-2 byte packets mean "silence, need not be sent"), or a negative
     * libopus error code (wrong frame size, buffer too small). Real-time safe.
     */
    int Encode(std::span<const int16_t> pcm, std::span<uint8_t> out);

    /** Runtime adjustments (the network thread may learn the loss rate from RTCP). Out-of-range → false, unchanged. */
    bool SetBitrate(int bitsPerSecond);
    bool SetExpectedLossPercent(int percent);
    bool SetInbandFec(bool on);
    bool SetDtx(bool on);
    const OpusEncoderConfig &Config() const { return config_; }

  private:
    OpusFrameEncoder(::OpusEncoder *encoder, const OpusEncoderConfig &config) : encoder_(encoder), config_(config) {}
    ::OpusEncoder *encoder_;
    OpusEncoderConfig config_;
};

/**
 * Decodes one sender's packets to 20 ms stereo frames, with packet-loss concealment (PLC) for a missing frame and
 * forward error correction (FEC) that rebuilds frame n from the in-band copy inside packet n+1.
 * Each method writes kOpusFrameSamples samples into `pcm` and returns the samples per channel decoded (960), or a
 * negative libopus error code (corrupt packet, `pcm` too small); on error `pcm` holds silence.
 */
class OpusFrameDecoder {
  public:
    static std::unique_ptr<OpusFrameDecoder> Create();
    ~OpusFrameDecoder();
    OpusFrameDecoder(const OpusFrameDecoder &) = delete;
    OpusFrameDecoder &operator=(const OpusFrameDecoder &) = delete;

    /** Decodes a received packet (the silence frame decodes to silence). */
    int Decode(std::span<const uint8_t> packet, std::span<int16_t> pcm);
    /** Packet n was lost and n+1 is not here either: conceal (extrapolate from the decoder's state). */
    int DecodeLost(std::span<int16_t> pcm);
    /** Packet n was lost but n+1 is here: rebuild frame n from n+1's FEC data (falls back to PLC if it has none). */
    int DecodeFec(std::span<const uint8_t> nextPacket, std::span<int16_t> pcm);
    /** Forgets the decoder state (a new talk spurt after a long gap, an SSRC reused by another sender). */
    void Reset();

  private:
    explicit OpusFrameDecoder(::OpusDecoder *decoder) : decoder_(decoder) {}
    ::OpusDecoder *decoder_;
};

}  // namespace svcpp::core::voice
