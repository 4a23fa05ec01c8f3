#include "voice/call_media.hpp"

#include <algorithm>
#include <chrono>
#include <random>

#include "voice/call_controls.hpp"
#include "voice/media/rtp.hpp"
#include "voice/udp_transport.hpp"

namespace svcpp::core::voice {

namespace {

/** Five silence frames after the last voiced frame, as the protocol asks, so receivers' decoders fade out. */
constexpr int kTrailingSilenceFrames = 5;
/** A remote sender counts as speaking while its decoded audio is above this level ... */
constexpr float kSpeakingLevelDb = -60.0f;
/** ... and stops counting this long after the last such frame (so pauses between words do not flicker). */
constexpr int kSpeakingHangoverMs = 200;

int64_t NowUs() {
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

struct CallMedia::Sender {
    std::mutex mutex;  // guards `jitter` (network thread pushes, audio thread pops)
    JitterBuffer jitter;

    // audio thread only
    std::unique_ptr<OpusFrameDecoder> decoder = OpusFrameDecoder::Create();
    std::array<uint8_t, kMaxOpusPacketBytes> payload{};
    std::array<int16_t, kOpusFrameSamples> pcm{};
    std::size_t readPos = kOpusFrameSamples;  // samples of `pcm` already played; kOpusFrameSamples = none left
    std::array<int16_t, kDeviceFrameSamples> out{};
    uint64_t mixUser = 0;
    std::shared_ptr<ParticipantMixSettings> mix;
    bool speaking = false;
    int quietMs = 0;

    std::atomic<uint64_t> userId{0};  // 0 until the gateway told us whose SSRC this is
    std::atomic<uint64_t> played{0};  // frames played out (FramesPlayedFrom): decoded, or silence skipped
};

std::shared_ptr<CallMedia> CallMedia::Create(const std::string &mode, const std::array<uint8_t, 32> &key, uint32_t ssrc,
                                             std::shared_ptr<UdpTransport> transport,
                                             std::shared_ptr<CallControls> controls, CallMediaEvents events,
                                             std::shared_ptr<FrameTransform> transform) {
    std::shared_ptr<CallMedia> media(new CallMedia());
    media->transform_ = transform ? std::move(transform) : std::make_shared<PassThroughFrameTransform>();
    media->sendCipher_ = TransportCipher::Create(std::string_view(mode), key);
    media->receiveCipher_ = TransportCipher::Create(std::string_view(mode), key);
    media->encoder_ = OpusFrameEncoder::Create();
    if (!media->sendCipher_ || !media->receiveCipher_ || !media->encoder_) return nullptr;
    // Random first sequence and timestamp, as other clients do (RFC 3550 §5.1: makes known-plaintext attacks harder).
    std::random_device random;
    media->packetizer_ =
        std::make_unique<RtpPacketizer>(ssrc, static_cast<uint16_t>(random()), static_cast<uint32_t>(random()));
    media->ssrc_ = ssrc;
    media->transport_ = std::move(transport);
    media->controls_ = std::move(controls);
    media->events_ = std::move(events);
    return media;
}

// ---- network thread --------------------------------------------------------------------------------------

CallMedia::Sender *CallMedia::SenderFor(uint32_t ssrc) {
    std::lock_guard lock(sendersMutex_);
    auto &slot = senders_[ssrc];
    if (!slot) slot = std::make_unique<Sender>();
    return slot.get();
}

void CallMedia::OnDatagram(std::span<const uint8_t> datagram) {
    if (ClassifyPacket(datagram) != PacketKind::Rtp) return;  // RTCP, keepalives: nothing to play
    const OpenRtpResult opened = OpenRtpPacket(datagram, *receiveCipher_, opened_);
    if (!opened.packet) return;
    const RtpHeader &header = opened.packet->header;
    if (header.ssrc == ssrc_) return;
    Sender *sender = SenderFor(header.ssrc);
    uint64_t user = sender->userId.load(std::memory_order_relaxed);
    if (!user) {
        user = controls_->UserOfSsrc(header.ssrc);
        if (user) sender->userId.store(user, std::memory_order_relaxed);
    }
    const auto size = transform_->Decrypt(user, header.ssrc, opened.packet->payload, decrypted_);
    if (!size) return;
    std::lock_guard lock(sender->mutex);
    sender->jitter.Push(header.sequence, header.timestamp, std::span<const uint8_t>(decrypted_.data(), *size), NowUs());
}

uint64_t CallMedia::FramesPlayedFrom(uint64_t userId) const {
    std::lock_guard lock(sendersMutex_);
    uint64_t played = 0;
    for (const auto &[ssrc, sender] : senders_) {
        if (sender->userId.load(std::memory_order_relaxed) == userId)
            played += sender->played.load(std::memory_order_relaxed);
    }
    return played;
}

// ---- audio thread: send ----------------------------------------------------------------------------------

void CallMedia::SendFrame(std::span<const int16_t> frame, float levelDb, std::optional<bool> processorVoice) {
    if (previous_) {
        packetizer_->ContinueFrom(*previous_->packetizer_);
        previous_.reset();
    }
    std::copy_n(frame.begin(), std::min(frame.size(), captured_.size()), captured_.begin());
    if (const auto &captured = controls_->captured) {
        captured->fn(captured_.data(), kDeviceFrameSamplesPerChannel, kSampleRate, kChannels);
        levelDb = LevelDbfs(captured_);  // the game may have changed the samples
    }
    ptt_.SetActive(controls_->pttActive.load(std::memory_order_relaxed));
    ptt_.SetReleaseDelayMs(controls_->pttReleaseDelayMs.load(std::memory_order_relaxed));
    vad_.SetThreshold(controls_->vadAutomatic.load(std::memory_order_relaxed),
                      controls_->vadThresholdDb.load(std::memory_order_relaxed));
    // Both gates advance every frame, so the PTT release delay and the VAD hangover count real time.
    const bool pttOpen = ptt_.Process(kDeviceFrameMs);
    const bool vadOpen = vad_.Process(levelDb, processorVoice);
    const bool ptt = controls_->audioMode.load(std::memory_order_relaxed) == AudioModeType::MODE_PTT;
    const bool open = !controls_->EffectiveMute() && !controls_->EffectiveDeaf() && (ptt ? pttOpen : vadOpen);

    std::copy(captured_.begin(), captured_.end(), pending_.begin() + static_cast<std::ptrdiff_t>(pendingSamples_));
    pendingSamples_ += captured_.size();
    pendingOpen_ = pendingOpen_ || open;
    if (pendingSamples_ < pending_.size()) return;
    pendingSamples_ = 0;
    const bool voiced = std::exchange(pendingOpen_, false);

    if (voiced) {
        const int size = encoder_->Encode(pending_, opus_);
        if (size > 0) Transmit(std::span<const uint8_t>(opus_.data(), static_cast<std::size_t>(size)));
        if (!transmitting_) {
            transmitting_ = true;
            if (events_.selfSpeaking) events_.selfSpeaking(true);
        }
        silenceFramesLeft_ = kTrailingSilenceFrames;
    } else if (transmitting_) {
        Transmit(kOpusSilenceFrame);
        if (--silenceFramesLeft_ <= 0) {
            transmitting_ = false;
            if (events_.selfSpeaking) events_.selfSpeaking(false);
        }
    } else {
        packetizer_->SkipFrame();
    }
}

void CallMedia::Transmit(std::span<const uint8_t> opus) {
    const std::size_t size = packetizer_->Packetize(opus, *transform_, *sendCipher_, packet_);
    if (size == 0) return;
    if (transport_->Send(std::span<const uint8_t>(packet_.data(), size)))
        packetsSent_.fetch_add(1, std::memory_order_relaxed);
}

// ---- audio thread: receive -------------------------------------------------------------------------------

void CallMedia::MixReceived(Mixer &mixer, int64_t nowUs) {
    const bool deaf = controls_->EffectiveDeaf();
    std::lock_guard shape(sendersMutex_);  // the network thread only inserts (rarely); never held long
    for (auto &[ssrc, owned] : senders_) {
        Sender &s = *owned;
        if (s.readPos >= s.pcm.size()) {
            JitterFrame frame;
            std::size_t payloadSize = 0;
            {
                std::lock_guard lock(s.mutex);
                frame = s.jitter.Pop(nowUs);
                payloadSize = std::min(frame.payload.size(), s.payload.size());
                std::copy_n(frame.payload.begin(), payloadSize, s.payload.begin());
            }
            const std::span<const uint8_t> payload(s.payload.data(), payloadSize);
            // Silence frames the jitter buffer skipped to give latency back played out as silence: counted as played.
            if (frame.silenceSkipped) s.played.fetch_add(frame.silenceSkipped, std::memory_order_relaxed);
            int decoded = -1;
            switch (frame.kind) {
                case JitterFrameKind::Packet:
                    decoded = s.decoder->Decode(payload, s.pcm);
                    if (decoded > 0) s.played.fetch_add(1, std::memory_order_relaxed);
                    break;
                case JitterFrameKind::Fec: decoded = s.decoder->DecodeFec(payload, s.pcm); break;
                case JitterFrameKind::Missing: decoded = s.decoder->DecodeLost(s.pcm); break;
                case JitterFrameKind::Idle: break;
            }
            if (decoded > 0) {
                s.readPos = 0;
                packetsDecoded_.fetch_add(1, std::memory_order_relaxed);
            }
        }
        const uint64_t user = s.userId.load(std::memory_order_relaxed);
        bool active = false;
        if (s.readPos < s.pcm.size()) {
            std::copy_n(s.pcm.begin() + static_cast<std::ptrdiff_t>(s.readPos), s.out.size(), s.out.begin());
            s.readPos += s.out.size();
            active = LevelDbfs(s.out) > kSpeakingLevelDb;
            if (!deaf && user) {
                if (s.mixUser != user || !s.mix) {
                    s.mix = controls_->MixSettings(user);
                    s.mixUser = user;
                }
                bool shouldMute = false;
                if (const auto &received = controls_->received) {
                    received->fn(user, s.out.data(), kDeviceFrameSamplesPerChannel, kSampleRate, kChannels, shouldMute);
                }
                mixer.Add(s.out, *s.mix, shouldMute);
            }
        }
        // Speaking follows what this sender's stream carries, whatever the local mute or volume.
        if (active) {
            s.quietMs = 0;
            if (!s.speaking && user) {
                s.speaking = true;
                if (events_.remoteSpeaking) events_.remoteSpeaking(user, true);
            }
        } else if (s.speaking && (s.quietMs += kDeviceFrameMs) >= kSpeakingHangoverMs) {
            s.speaking = false;
            if (events_.remoteSpeaking) events_.remoteSpeaking(user, false);
        }
    }
}

}  // namespace svcpp::core::voice
