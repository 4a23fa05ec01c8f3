// The threads the engine will run, exercised together (the ThreadSanitizer build runs these): the API thread changes
// settings while the audio thread processes frames; the audio thread seals packets while the network thread opens
// them. Each test also checks the outcome, so it is a functional test in the normal builds.
#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <thread>
#include <vector>

#include "voice/media/audio_processor.hpp"
#include "voice/media/levels.hpp"
#include "voice/media/mixer.hpp"
#include "voice/media/opus_codec.hpp"
#include "voice/media/rtp_packetizer.hpp"
#include "voice_test_signals.hpp"

using namespace svcpp::core::voice;

TEST(VoiceThreads, SettingsChangeWhileTheAudioThreadMixesAndGates) {
    Mixer mixer;
    InputVolume input;
    std::vector<ParticipantMixSettings> participants(5);
    PushToTalkGate ptt;
    VoiceActivityGate vad;
    NoAudioInputDetector noInput;
    // WebRTC's module where the build has it (audio_processor_test.cpp holds that Create answers one there); a build
    // without it (Windows, docs/platforms.md) mixes the frames unprocessed, as its engine does.
    auto apm = AudioProcessor::Create();
    std::atomic<bool> done{false};
    std::atomic<int> framesMixed{0};

    std::thread audio([&] {
        ToneGenerator tone(440, 0.3);
        std::vector<int16_t> capture(kDeviceFrameSamples), out(kDeviceFrameSamples);
        while (!done.load()) {
            tone.Fill(capture);
            input.Apply(capture);
            float level = LevelDbfs(capture);
            noInput.Process(level);
            if (apm) {
                apm->AnalyzeFarEnd(out);
                apm->ProcessCapture(capture);
            }
            vad.Process(LevelDbfs(capture), apm ? apm->VoiceDetected() : std::nullopt);
            ptt.Process();
            mixer.Begin(kDeviceFrameSamples);
            for (auto &p : participants) mixer.Add(capture, p);
            mixer.Finish(out);
            framesMixed.fetch_add(1);
        }
    });
    // The API thread waits for the audio thread's progress every 100 changes, so the two really overlap however the
    // scheduler runs them (no timing involved).
    auto awaitFrameAfter = [&](int frames) {
        while (framesMixed.load() <= frames) std::this_thread::yield();
    };
    std::thread api([&] {
        for (int i = 0; i < 2000; ++i) {
            if (i % 100 == 0) awaitFrameAfter(framesMixed.load());
            mixer.SetOutputVolume(float(i % 201));
            input.Set(float(i % 101));
            participants[i % 5].SetVolume(float((i * 7) % 201));
            participants[(i + 1) % 5].SetLocalMute(i % 2 == 0);
            ptt.SetActive(i % 3 == 0);
            ptt.SetReleaseDelayMs(uint32_t(i % 50));
            vad.SetThreshold(i % 2 == 0, -float(i % 100));
            noInput.SetThreshold(-float(i % 100));
            if (apm) {
                apm->SetEchoCancellation(i % 2 == 0);
                apm->SetNoiseSuppression(i % 3 == 0);
                apm->SetAutomaticGainControl(i % 5 == 0);
            }
        }
        // Final values the audio thread must see from now on.
        mixer.SetOutputVolume(0);
        done.store(true);
    });
    api.join();
    audio.join();
    EXPECT_GE(framesMixed.load(), 20);  // at least one frame per 100 changes
    EXPECT_EQ(mixer.OutputVolume(), 0.0f);
    std::vector<int16_t> tone(kDeviceFrameSamples, 1000), out(kDeviceFrameSamples);
    mixer.Begin(kDeviceFrameSamples);
    mixer.Add(tone);
    mixer.Finish(out);
    EXPECT_EQ(out[0], 0);
}

TEST(VoiceThreads, AudioThreadSealsWhileTheNetworkThreadOpens) {
    for (auto mode : {TransportMode::AeadAes256GcmRtpsize, TransportMode::AeadXChaCha20Poly1305Rtpsize}) {
        std::vector<uint8_t> key(32, 9);
        auto sendCipher = TransportCipher::Create(mode, key);
        auto receiveCipher = TransportCipher::Create(mode, key);
        constexpr int kPackets = 300;
        // A single-producer single-consumer hand-off, as the UDP socket would be.
        std::vector<std::vector<uint8_t>> wire(kPackets);
        std::atomic<int> published{0};
        std::thread sender([&] {
            auto encoder = OpusFrameEncoder::Create();
            PassThroughFrameTransform transform;
            RtpPacketizer packetizer(77, 100, 1000);
            ToneGenerator tone(300, 0.3);
            std::vector<int16_t> pcm(kOpusFrameSamples);
            std::vector<uint8_t> opus(kMaxOpusPacketBytes), datagram(kMaxVoicePacketBytes);
            for (int i = 0; i < kPackets; ++i) {
                tone.Fill(pcm);
                int n = encoder->Encode(pcm, opus);
                std::size_t size = packetizer.Packetize(std::span(opus).first(n), transform, *sendCipher, datagram);
                wire[i].assign(datagram.begin(), datagram.begin() + long(size));
                published.store(i + 1, std::memory_order_release);
            }
        });
        int opened = 0;
        std::thread receiver([&] {
            auto decoder = OpusFrameDecoder::Create();
            std::vector<uint8_t> plain(kMaxVoicePacketBytes);
            std::vector<int16_t> pcm(kOpusFrameSamples);
            for (int i = 0; i < kPackets; ++i) {
                while (published.load(std::memory_order_acquire) <= i) std::this_thread::yield();
                auto result = OpenRtpPacket(wire[i], *receiveCipher, plain);
                if (result.packet && result.packet->header.sequence == uint16_t(100 + i) &&
                    decoder->Decode(result.packet->payload, pcm) == 960)
                    ++opened;
            }
        });
        sender.join();
        receiver.join();
        EXPECT_EQ(opened, kPackets) << TransportModeName(mode);
    }
}
