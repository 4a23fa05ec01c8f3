// The one PCM format of the voice media pipeline: 48 kHz, stereo, signed 16-bit, interleaved (L R L R ...).
// Devices and audio processing run on 10 ms frames; Opus and RTP on 20 ms frames (two device frames).
#pragma once
#include <cstddef>
#include <cstdint>

namespace svcpp::core::voice {

inline constexpr int kSampleRate = 48000;
inline constexpr int kChannels = 2;

/** 10 ms: the device clock, capture/playback and audio processing. */
inline constexpr std::size_t kDeviceFrameSamplesPerChannel = 480;
inline constexpr std::size_t kDeviceFrameSamples = kDeviceFrameSamplesPerChannel * kChannels;  // 960 int16

/** 20 ms: one Opus frame, one RTP packet. The RTP timestamp advances by this much per packet. */
inline constexpr std::size_t kOpusFrameSamplesPerChannel = 960;
inline constexpr std::size_t kOpusFrameSamples = kOpusFrameSamplesPerChannel * kChannels;  // 1920 int16
inline constexpr int kOpusFrameMs = 20;
inline constexpr int kDeviceFrameMs = 10;

}  // namespace svcpp::core::voice
