#include "voice/media/opus_codec.hpp"

#include <algorithm>
#include <opus.h>

namespace svcpp::core::voice {

namespace {

bool ValidEncoderConfig(const OpusEncoderConfig &c) {
    return c.bitrate >= 6000 && c.bitrate <= 510000 && c.expectedLossPercent >= 0 && c.expectedLossPercent <= 100 &&
           c.complexity >= 0 && c.complexity <= 10;
}

void Silence(std::span<int16_t> pcm) { std::ranges::fill(pcm, int16_t{0}); }

}  // namespace

std::unique_ptr<OpusFrameEncoder> OpusFrameEncoder::Create(const OpusEncoderConfig &config) {
    if (!ValidEncoderConfig(config)) return nullptr;
    int error = OPUS_OK;
    int application = config.application == OpusApplication::Voip ? OPUS_APPLICATION_VOIP : OPUS_APPLICATION_AUDIO;
    ::OpusEncoder *encoder = opus_encoder_create(kSampleRate, kChannels, application, &error);
    if (error != OPUS_OK || !encoder) return nullptr;
    std::unique_ptr<OpusFrameEncoder> self(new OpusFrameEncoder(encoder, config));
    if (opus_encoder_ctl(encoder, OPUS_SET_BITRATE(config.bitrate)) != OPUS_OK ||
        opus_encoder_ctl(encoder, OPUS_SET_INBAND_FEC(config.inbandFec ? 1 : 0)) != OPUS_OK ||
        opus_encoder_ctl(encoder, OPUS_SET_PACKET_LOSS_PERC(config.expectedLossPercent)) != OPUS_OK ||
        opus_encoder_ctl(encoder, OPUS_SET_DTX(config.dtx ? 1 : 0)) != OPUS_OK ||
        opus_encoder_ctl(encoder, OPUS_SET_COMPLEXITY(config.complexity)) != OPUS_OK ||
        opus_encoder_ctl(encoder, OPUS_SET_SIGNAL(config.application == OpusApplication::Voip ? OPUS_SIGNAL_VOICE
                                                                                              : OPUS_AUTO)) != OPUS_OK)
        return nullptr;
    return self;
}

OpusFrameEncoder::~OpusFrameEncoder() { opus_encoder_destroy(encoder_); }

int OpusFrameEncoder::Encode(std::span<const int16_t> pcm, std::span<uint8_t> out) {
    if (pcm.size() != kOpusFrameSamples) return OPUS_BAD_ARG;
    if (out.empty()) return OPUS_BUFFER_TOO_SMALL;
    int32_t capacity = static_cast<int32_t>(std::min<std::size_t>(out.size(), kMaxOpusPacketBytes));
    return opus_encode(encoder_, pcm.data(), static_cast<int>(kOpusFrameSamplesPerChannel), out.data(), capacity);
}

bool OpusFrameEncoder::SetBitrate(int bitsPerSecond) {
    if (bitsPerSecond < 6000 || bitsPerSecond > 510000) return false;
    if (opus_encoder_ctl(encoder_, OPUS_SET_BITRATE(bitsPerSecond)) != OPUS_OK) return false;
    config_.bitrate = bitsPerSecond;
    return true;
}

bool OpusFrameEncoder::SetExpectedLossPercent(int percent) {
    if (percent < 0 || percent > 100) return false;
    if (opus_encoder_ctl(encoder_, OPUS_SET_PACKET_LOSS_PERC(percent)) != OPUS_OK) return false;
    config_.expectedLossPercent = percent;
    return true;
}

bool OpusFrameEncoder::SetInbandFec(bool on) {
    if (opus_encoder_ctl(encoder_, OPUS_SET_INBAND_FEC(on ? 1 : 0)) != OPUS_OK) return false;
    config_.inbandFec = on;
    return true;
}

bool OpusFrameEncoder::SetDtx(bool on) {
    if (opus_encoder_ctl(encoder_, OPUS_SET_DTX(on ? 1 : 0)) != OPUS_OK) return false;
    config_.dtx = on;
    return true;
}

std::unique_ptr<OpusFrameDecoder> OpusFrameDecoder::Create() {
    int error = OPUS_OK;
    ::OpusDecoder *decoder = opus_decoder_create(kSampleRate, kChannels, &error);
    if (error != OPUS_OK || !decoder) return nullptr;
    return std::unique_ptr<OpusFrameDecoder>(new OpusFrameDecoder(decoder));
}

OpusFrameDecoder::~OpusFrameDecoder() { opus_decoder_destroy(decoder_); }

namespace {

// Every decode produces exactly one 20 ms frame: a packet of another duration (2.5–120 ms are legal Opus) is refused
// rather than letting the playout clock drift.
int DecodeFrame(::OpusDecoder *decoder, const uint8_t *data, std::size_t size, std::span<int16_t> pcm, int fec) {
    if (pcm.size() < kOpusFrameSamples) return OPUS_BUFFER_TOO_SMALL;
    if (data && size > kMaxOpusPacketBytes) {
        Silence(pcm.first(kOpusFrameSamples));
        return OPUS_INVALID_PACKET;
    }
    if (data) {
        int frames = opus_packet_get_nb_samples(data, static_cast<int32_t>(size), kSampleRate);
        if (frames != static_cast<int>(kOpusFrameSamplesPerChannel)) {
            Silence(pcm.first(kOpusFrameSamples));
            return frames < 0 ? frames : OPUS_BAD_ARG;
        }
    }
    int decoded = opus_decode(decoder, data, static_cast<int32_t>(size), pcm.data(),
                              static_cast<int>(kOpusFrameSamplesPerChannel), fec);
    if (decoded < 0) Silence(pcm.first(kOpusFrameSamples));
    return decoded;
}

}  // namespace

int OpusFrameDecoder::Decode(std::span<const uint8_t> packet, std::span<int16_t> pcm) {
    if (packet.empty()) return DecodeLost(pcm);
    return DecodeFrame(decoder_, packet.data(), packet.size(), pcm, 0);
}

int OpusFrameDecoder::DecodeLost(std::span<int16_t> pcm) { return DecodeFrame(decoder_, nullptr, 0, pcm, 0); }

int OpusFrameDecoder::DecodeFec(std::span<const uint8_t> nextPacket, std::span<int16_t> pcm) {
    // With decode_fec = 1 libopus uses the LBRR data of the next packet when present and conceals otherwise.
    if (nextPacket.empty()) return DecodeLost(pcm);
    return DecodeFrame(decoder_, nextPacket.data(), nextPacket.size(), pcm, 1);
}

void OpusFrameDecoder::Reset() { opus_decoder_ctl(decoder_, OPUS_RESET_STATE); }

}  // namespace svcpp::core::voice
