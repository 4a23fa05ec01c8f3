// Voice media pipeline costs, printed side by side (asserts nothing):
//   1. Opus encode and decode, µs per 20 ms stereo frame at 64 kbps: raw libopus calls vs svcpp's wrappers
//   2. the receive path of a 25-participant call (24 remote senders): transport decrypt + frame transform + jitter
//      buffer + Opus decode + mix, CPU time per 20 ms of audio as a percentage of one core, for both transport modes
//   3. the latency the pipeline itself adds (framing, Opus look-ahead, jitter buffer), on a simulated clock
//   build/Release/svcpp_bench_voice_media [--smoke]      (--smoke: a few frames, ~1 s, for CI)
// Figures measured while other jobs load the machine are indicative only.
#include <opus.h>
#include <time.h>

#include <algorithm>
#include <cmath>
#include <numbers>  // std::numbers::pi: M_PI is POSIX's, not in strict C++ (MinGW)
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "voice/media/audio_format.hpp"
#include "voice/media/frame_transform.hpp"
#include "voice/media/jitter_buffer.hpp"
#include "voice/media/mixer.hpp"
#include "voice/media/opus_codec.hpp"
#include "voice/media/rtp_packetizer.hpp"
#include "voice/media/transport_cipher.hpp"

using namespace svcpp::core::voice;

namespace {

double ThreadCpuUs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

// Speech-like input (as the reference measurements used): a 110–170 Hz gliding fundamental with harmonics, syllable
// modulation and a little noise, different per sender (seed).
std::vector<int16_t> SpeechLike(int frames, unsigned seed) {
    std::vector<int16_t> pcm(std::size_t(frames) * kOpusFrameSamples);
    uint32_t noise = seed * 2654435761u + 1;
    for (std::size_t n = 0; n < pcm.size() / 2; ++n) {
        double t = double(n) / kSampleRate;
        double f0 = 140 + 30 * std::sin(2 * std::numbers::pi * 0.7 * t + seed);
        double v = 0;
        for (int h = 1; h <= 10; ++h) v += std::sin(2 * std::numbers::pi * f0 * h * t) / h;
        v *= 0.5 * (1 + std::sin(2 * std::numbers::pi * 4 * t + seed));
        noise = noise * 1664525u + 1013904223u;
        v += (double(noise >> 8) / double(1 << 24) - 0.5) * 0.05;
        int16_t s = int16_t(std::clamp(v * 0.25 * 32767, -32767.0, 32767.0));
        pcm[2 * n] = pcm[2 * n + 1] = s;
    }
    return pcm;
}

struct CodecFigures {
    double rawEncodeUs, wrapEncodeUs, rawDecodeUs, wrapDecodeUs, avgPacketBytes;
};

CodecFigures BenchCodec(int frames) {
    auto pcm = SpeechLike(frames, 1);
    std::vector<std::vector<uint8_t>> packets(frames, std::vector<uint8_t>(kMaxOpusPacketBytes));
    std::vector<int> sizes(frames);
    CodecFigures f{};

    // Raw libopus, configured as OpusFrameEncoder's defaults are (VOIP, 64 kbps, FEC at 10 % loss, complexity 10).
    int err = 0;
    OpusEncoder *enc = opus_encoder_create(kSampleRate, kChannels, OPUS_APPLICATION_VOIP, &err);
    opus_encoder_ctl(enc, OPUS_SET_BITRATE(64000));
    opus_encoder_ctl(enc, OPUS_SET_INBAND_FEC(1));
    opus_encoder_ctl(enc, OPUS_SET_PACKET_LOSS_PERC(10));
    opus_encoder_ctl(enc, OPUS_SET_COMPLEXITY(10));
    opus_encoder_ctl(enc, OPUS_SET_SIGNAL(OPUS_SIGNAL_VOICE));
    double t0 = ThreadCpuUs();
    long bytes = 0;
    for (int i = 0; i < frames; ++i) {
        sizes[i] = opus_encode(enc, pcm.data() + i * kOpusFrameSamples, int(kOpusFrameSamplesPerChannel),
                               packets[i].data(), int(kMaxOpusPacketBytes));
        bytes += sizes[i];
    }
    f.rawEncodeUs = (ThreadCpuUs() - t0) / frames;
    f.avgPacketBytes = double(bytes) / frames;
    opus_encoder_destroy(enc);

    auto wrapped = OpusFrameEncoder::Create();
    t0 = ThreadCpuUs();
    for (int i = 0; i < frames; ++i)
        sizes[i] = wrapped->Encode(std::span(pcm).subspan(i * kOpusFrameSamples, kOpusFrameSamples), packets[i]);
    f.wrapEncodeUs = (ThreadCpuUs() - t0) / frames;

    std::vector<int16_t> out(kOpusFrameSamples);
    OpusDecoder *dec = opus_decoder_create(kSampleRate, kChannels, &err);
    t0 = ThreadCpuUs();
    for (int i = 0; i < frames; ++i)
        if (opus_decode(dec, packets[i].data(), sizes[i], out.data(), int(kOpusFrameSamplesPerChannel), 0) < 0)
            return f;
    f.rawDecodeUs = (ThreadCpuUs() - t0) / frames;
    opus_decoder_destroy(dec);

    auto wrappedDec = OpusFrameDecoder::Create();
    t0 = ThreadCpuUs();
    for (int i = 0; i < frames; ++i) wrappedDec->Decode(std::span(packets[i]).first(sizes[i]), out);
    f.wrapDecodeUs = (ThreadCpuUs() - t0) / frames;
    return f;
}

struct Sender {
    std::unique_ptr<TransportCipher> cipher;  // the receiver's context for this sender's key
    std::vector<std::vector<uint8_t>> datagrams;
    std::vector<std::vector<uint8_t>> frames;  // the same, opened (for the per-stage passes)
    std::vector<RtpHeader> headers;
    JitterBuffer jitter;
    std::unique_ptr<OpusFrameDecoder> decoder;
    ParticipantMixSettings mix;
};

struct ReceiveFigures {
    double cpuPer20msUs, decryptUs, jitterUs, decodeUs, mixUs;
};

// Runs fn once per 20 ms frame index and returns the thread CPU time per frame in µs.
template <typename Fn>
double CpuPerFrame(int frames, Fn &&fn) {
    double t0 = ThreadCpuUs();
    for (int i = 0; i < frames; ++i) fn(i);
    return (ThreadCpuUs() - t0) / frames;
}

ReceiveFigures BenchReceive(TransportMode mode, int senders, int frames) {
    PassThroughFrameTransform transform;
    std::vector<Sender> all(senders);
    // Set-up (not timed): each sender encodes its own speech and packetizes it with its own key.
    for (int s = 0; s < senders; ++s) {
        std::vector<uint8_t> key(32, uint8_t(s + 1));
        auto send = TransportCipher::Create(mode, key);
        all[s].cipher = TransportCipher::Create(mode, key);
        all[s].decoder = OpusFrameDecoder::Create();
        auto encoder = OpusFrameEncoder::Create();
        auto pcm = SpeechLike(frames, unsigned(s + 2));
        RtpPacketizer packetizer(uint32_t(1000 + s), uint16_t(s * 1000), uint32_t(s) * 12345u);
        std::vector<uint8_t> opus(kMaxOpusPacketBytes), datagram(kMaxVoicePacketBytes);
        for (int i = 0; i < frames; ++i) {
            int n = encoder->Encode(std::span(pcm).subspan(i * kOpusFrameSamples, kOpusFrameSamples), opus);
            std::size_t size = packetizer.Packetize(std::span(opus).first(n), transform, *send, datagram);
            all[s].datagrams.emplace_back(datagram.begin(), datagram.begin() + long(size));
        }
    }

    // The whole path, as the network and audio threads will run it, timed as one.
    Mixer mixer;
    std::vector<uint8_t> plain(kMaxVoicePacketBytes), frame(kMaxVoicePacketBytes);
    std::vector<int16_t> pcm(kOpusFrameSamples), out(kOpusFrameSamples);
    ReceiveFigures r{};
    r.cpuPer20msUs = CpuPerFrame(frames, [&](int i) {
        int64_t nowUs = int64_t(i) * 20000;
        mixer.Begin();
        for (Sender &s : all) {
            auto opened = OpenRtpPacket(s.datagrams[i], *s.cipher, plain);
            auto size = transform.Decrypt(7, opened.packet->header.ssrc, opened.packet->payload, frame);
            s.jitter.Push(opened.packet->header.sequence, opened.packet->header.timestamp,
                          std::span(frame).first(*size), nowUs);
            JitterFrame jf = s.jitter.Pop(nowUs + 20000);
            switch (jf.kind) {
                case JitterFrameKind::Packet: s.decoder->Decode(jf.payload, pcm); break;
                case JitterFrameKind::Fec: s.decoder->DecodeFec(jf.payload, pcm); break;
                case JitterFrameKind::Missing: s.decoder->DecodeLost(pcm); break;
                case JitterFrameKind::Idle: continue;
            }
            mixer.Add(pcm, s.mix);
        }
        mixer.Finish(out);
    });

    // Each stage alone, on the same data, for the breakdown.
    r.decryptUs = CpuPerFrame(frames, [&](int i) {
        for (Sender &s : all) {
            auto opened = OpenRtpPacket(s.datagrams[i], *s.cipher, plain);
            auto size = transform.Decrypt(7, opened.packet->header.ssrc, opened.packet->payload, frame);
            s.frames.emplace_back(frame.begin(), frame.begin() + long(*size));  // (kept for the next passes)
            s.headers.push_back(opened.packet->header);
        }
    });
    for (Sender &s : all) {
        s.jitter.Reset();
        s.decoder = OpusFrameDecoder::Create();
    }
    std::vector<JitterFrame> played(all.size());
    r.jitterUs = CpuPerFrame(frames, [&](int i) {
        int64_t nowUs = int64_t(i) * 20000;
        for (std::size_t k = 0; k < all.size(); ++k) {
            Sender &s = all[k];
            s.jitter.Push(s.headers[i].sequence, s.headers[i].timestamp, s.frames[i], nowUs);
            played[k] = s.jitter.Pop(nowUs + 20000);
        }
    });
    r.decodeUs = CpuPerFrame(frames, [&](int i) {
        for (Sender &s : all) s.decoder->Decode(s.frames[i], pcm);
    });
    r.mixUs = CpuPerFrame(frames, [&](int) {
        mixer.Begin();
        for (Sender &s : all) mixer.Add(pcm, s.mix);
        mixer.Finish(out);
    });
    return r;
}

// Latency the pipeline itself adds, on a simulated clock (no devices, no network): capture framing (two 10 ms device
// frames per Opus frame), Opus's look-ahead, the jitter buffer's minimum delay. A 1 kHz burst starts at 500 ms; its
// onset is found again in the mixed output. Device and network latency come on top in a real call.
double PipelineLatencyMs() {
    const int totalFrames = 60;  // 1.2 s of 20 ms frames
    std::vector<int16_t> input(std::size_t(totalFrames) * kOpusFrameSamples, 0);
    const std::size_t onset = kSampleRate / 2;  // sample index (per channel) of the burst's start
    for (std::size_t n = onset; n < input.size() / 2; ++n)
        input[2 * n] = input[2 * n + 1] =
            int16_t(16000 * std::sin(2 * std::numbers::pi * 1000.0 * double(n - onset) / kSampleRate));

    auto encoder = OpusFrameEncoder::Create();
    auto decoder = OpusFrameDecoder::Create();
    auto send = TransportCipher::Create(TransportMode::AeadAes256GcmRtpsize, std::vector<uint8_t>(32, 1));
    auto receive = TransportCipher::Create(TransportMode::AeadAes256GcmRtpsize, std::vector<uint8_t>(32, 1));
    PassThroughFrameTransform transform;
    RtpPacketizer packetizer(1, 0, 0);
    JitterBuffer jitter;
    Mixer mixer;
    ParticipantMixSettings participant;
    std::vector<uint8_t> opus(kMaxOpusPacketBytes), datagram(kMaxVoicePacketBytes), plain(kMaxVoicePacketBytes);
    std::vector<int16_t> pcm(kOpusFrameSamples), out(kOpusFrameSamples), output;
    for (int i = 0; i < totalFrames; ++i) {
        // The frame covering [20i, 20i + 20) ms is complete, so encoded and sent, at 20i + 20 ms.
        int64_t nowUs = int64_t(i + 1) * 20000;
        int n = encoder->Encode(std::span(input).subspan(std::size_t(i) * kOpusFrameSamples, kOpusFrameSamples), opus);
        std::size_t size = packetizer.Packetize(std::span(opus).first(n), transform, *send, datagram);
        auto opened = OpenRtpPacket(std::span(datagram).first(size), *receive, plain);
        jitter.Push(opened.packet->header.sequence, opened.packet->header.timestamp, opened.packet->payload, nowUs);
        JitterFrame f = jitter.Pop(nowUs);
        mixer.Begin();
        if (f.kind == JitterFrameKind::Packet && decoder->Decode(f.payload, pcm) > 0) mixer.Add(pcm, participant);
        mixer.Finish(out);
        // The playout frame produced at nowUs starts sounding then: output sample 0 is at 20 ms.
        output.insert(output.end(), out.begin(), out.end());
    }
    for (std::size_t n = 0; n < output.size() / 2; ++n)
        if (std::abs(output[2 * n]) > 4000)
            return (double(n) + kOpusFrameSamplesPerChannel - double(onset)) * 1000.0 / kSampleRate;
    return -1;
}

}  // namespace

int main(int argc, char **argv) {
    bool smoke = argc > 1 && std::strcmp(argv[1], "--smoke") == 0;
    const int codecFrames = smoke ? 50 : 1000;
    const int receiveFrames = smoke ? 20 : 250;
    const int senders = 24;
    std::printf(
        "voice media pipeline%s (48 kHz stereo, 20 ms frames, Opus 64 kbps VOIP; indicative when the machine "
        "is shared)\n",
        smoke ? " [smoke]" : "");

    CodecFigures c = BenchCodec(codecFrames);
    std::printf("\n%-34s %14s %14s\n", "Opus, per 20 ms frame", "raw libopus", "svcpp wrapper");
    std::printf("%-34s %11.1f µs %11.1f µs\n", "encode", c.rawEncodeUs, c.wrapEncodeUs);
    std::printf("%-34s %11.1f µs %11.1f µs\n", "decode", c.rawDecodeUs, c.wrapDecodeUs);
    std::printf("%-34s %11.0f B\n", "average packet", c.avgPacketBytes);

    std::printf("\nreceive path, 25-participant call (%d remote senders), CPU per 20 ms of audio:\n", senders);
    std::printf("%-34s %10s %8s %9s %9s %9s %9s\n", "transport mode", "total", "% core", "decrypt", "jitter", "decode",
                "mix");
    for (TransportMode mode : {TransportMode::AeadAes256GcmRtpsize, TransportMode::AeadXChaCha20Poly1305Rtpsize}) {
        ReceiveFigures r = BenchReceive(mode, senders, receiveFrames);
        std::printf("%-34s %7.0f µs %7.1f%% %6.1f µs %6.1f µs %6.0f µs %6.1f µs\n",
                    std::string(TransportModeName(mode)).c_str(), r.cpuPer20msUs, r.cpuPer20msUs / 20000.0 * 100.0,
                    r.decryptUs, r.jitterUs, r.decodeUs, r.mixUs);
    }
    std::printf("(thread CPU time; the stage columns are each stage run alone over the same %d senders' packets)\n",
                senders);
    std::printf(
        "\nlatency added by the pipeline (framing + Opus look-ahead + minimum jitter delay; devices and network\n"
        "not included): %.1f ms\n",
        PipelineLatencyMs());
    return 0;
}
