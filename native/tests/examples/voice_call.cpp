// A voice call through svcpp.hpp alone, as an engine plugin would make one: connect with the player's token, join a
// lobby by secret, pick a WAV file as the microphone (the file device, docs/voice.md "Devices"), join the lobby's
// call and play the file into it, then leave. The captured-audio callback (SDK Voice thread) counts the frames it
// sees — it must not block or call svcpp, so it only bumps an atomic.
//
// Usage: svcpp_example_voice_call <apiBase> <webBase> <caFile|-> <applicationId> <accessToken> <lobbySecret> <wavFile>
// <seconds> Prints "connected <lobby id>", "speaking" / "quiet" as this player's transmission starts and stops, then
// the call's end-to-end encryption as the game would show it — "encryption dave <version> epoch <epoch> code <privacy
// code> changes <encryption-state events seen>" — and "ended <captured frames>"; exits 0 once the call ended cleanly.
// (Run by test/e2e/cpp-voice-call.test.ts against a real platform, with a listener that checks what it heard.)
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "svcpp.hpp"

int main(int argc, char **argv) {
    if (argc != 9) {
        std::fprintf(stderr,
                     "usage: %s <apiBase> <webBase> <caFile|-> <applicationId> <accessToken> <lobbySecret> <wavFile> "
                     "<seconds>\n",
                     argv[0]);
        return 2;
    }
    if (!svcpp::CheckAbiVersion()) return 1;
    const std::string secret = argv[6];
    const std::string wav = argv[7];
    const int seconds = std::atoi(argv[8]);

    svcpp::ClientCreateOptions options;
    options.SetApiBase(argv[1]);
    options.SetWebBase(argv[2]);
    if (std::string(argv[3]) != "-") options.SetCaFile(argv[3]);
    auto client = std::make_shared<svcpp::Client>(options);
    std::weak_ptr<svcpp::Client> weak = client;
    client->AddLogCallback(
        [](std::string message, svcpp::LoggingSeverity severity) {
            std::fprintf(stderr, "[%s] %s\n", svcpp::EnumToString(severity), message.c_str());
        },
        svcpp::LoggingSeverity::Info);

    std::optional<svcpp::Call> call;
    std::atomic<uint64_t> capturedFrames{0};
    int encryptionChanges = 0;  // encryption-state events (delivered by RunCallbacks, on this thread)
    bool failed = false;
    bool connected = false;
    uint64_t lobbyId = 0;

    auto startCall = [&, weak](uint64_t lobby) {
        auto c = weak.lock();
        if (!c) return;
        lobbyId = lobby;
        call =
            c->StartCallWithAudioCallbacks(lobby, nullptr, [&capturedFrames](int16_t *, uint64_t, int32_t, uint64_t) {
                capturedFrames.fetch_add(1, std::memory_order_relaxed);
            });
        if (!call) {
            std::fprintf(stderr, "StartCall refused: %s\n", svcpp::GetLastErrorMessage().c_str());
            failed = true;
            return;
        }
        call->SetVADThreshold(false, -50.0f);  // a steady tone is voice enough
        call->SetStatusChangedCallback(
            [&, lobby](svcpp::Call::Status status, svcpp::Call::Error error, int32_t detail) {
                if (status == svcpp::Call::Status::Connected && !connected) {
                    connected = true;
                    std::printf("connected %llu\n", static_cast<unsigned long long>(lobby));
                    std::fflush(stdout);
                } else if (status == svcpp::Call::Status::Disconnected && error != svcpp::Call::Error::None) {
                    std::fprintf(stderr, "call failed: %s (%d)\n", svcpp::Call::ErrorToString(error).c_str(), detail);
                    failed = true;
                }
            });
        // svcpp addition: the call's end-to-end encryption (DAVE) state changes as the group forms and epochs pass.
        call->SetEncryptionStateChangedCallback(
            [&encryptionChanges](int32_t, uint64_t, bool, bool) { ++encryptionChanges; });
        uint64_t me = c->GetCurrentUserV2() ? c->GetCurrentUserV2()->Id() : 0;
        call->SetSpeakingStatusChangedCallback([me](uint64_t userId, bool speaking) {
            if (userId != me) return;
            std::printf("%s\n", speaking ? "speaking" : "quiet");
            std::fflush(stdout);
        });
    };

    client->SetStatusChangedCallback([&, weak](svcpp::Client::Status status, svcpp::Client::Error error, int32_t) {
        auto c = weak.lock();
        if (!c) return;
        if (status == svcpp::Client::Status::Ready) {
            c->SetInputDevice("file:" + wav, [&, weak](svcpp::ClientResult result) {
                auto c2 = weak.lock();
                if (!c2) return;
                if (!result.Successful()) {
                    std::fprintf(stderr, "SetInputDevice failed: %s\n", result.ToString().c_str());
                    failed = true;
                    return;
                }
                c2->SetOutputDevice("null", [](svcpp::ClientResult) {});
                c2->CreateOrJoinLobby(secret, [&](svcpp::ClientResult joined, uint64_t lobby) {
                    if (!joined.Successful()) {
                        std::fprintf(stderr, "CreateOrJoinLobby failed: %s\n", joined.ToString().c_str());
                        failed = true;
                        return;
                    }
                    startCall(lobby);
                });
            });
        } else if (status == svcpp::Client::Status::Disconnected && error != svcpp::Client::Error::None) {
            failed = true;
        }
    });
    client->SetApplicationId(std::strtoull(argv[4], nullptr, 10));
    client->UpdateToken(svcpp::AuthorizationTokenType::Bearer, argv[5], [weak, &failed](svcpp::ClientResult result) {
        auto c = weak.lock();
        if (!c) return;
        if (!result.Successful())
            failed = true;
        else
            c->Connect();
    });

    // The game loop: pump once per frame; play for `seconds` once connected.
    auto pumpUntil = [&](auto done, std::chrono::seconds limit) {
        const auto deadline = std::chrono::steady_clock::now() + limit;
        while (!done() && !failed && std::chrono::steady_clock::now() < deadline) {
            svcpp::RunCallbacks();
            std::this_thread::sleep_for(std::chrono::milliseconds(16));
        }
    };
    pumpUntil([&] { return connected; }, std::chrono::seconds(20));
    if (!connected || failed) return 1;
    const auto playUntil = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    pumpUntil([&] { return std::chrono::steady_clock::now() >= playUntil; }, std::chrono::seconds(seconds + 1));
    // What a game shows as "encrypted": read at the end of the play, once the listener and we share a group.
    svcpp::CallEncryptionState encryption = call->GetEncryptionState();
    std::printf("encryption dave %d epoch %llu code %s changes %d\n", encryption.ProtocolVersion(),
                static_cast<unsigned long long>(encryption.Epoch()), call->GetPrivacyCode().c_str(), encryptionChanges);
    bool ended = false;
    client->EndCall(lobbyId, [&ended] { ended = true; });
    pumpUntil([&] { return ended; }, std::chrono::seconds(10));
    std::printf("ended %llu\n", static_cast<unsigned long long>(capturedFrames.load()));
    client->Disconnect();
    return ended && !failed ? 0 : 1;
}
