// A provisional login through svcpp.hpp alone, as an engine plugin would do it: the game server has issued
// a provisional access token for the player; the game hands it to the SDK, connects, and waits for Ready
// while pumping callbacks once per "frame".
//
// Usage: svcpp_example_provisional_login <apiBase> <webBase> <caFile|-> <applicationId> <accessToken>
// Prints "ready <user id> <username>" and exits 0 on success; exits 1 on failure. (Run by the vitest
// end-to-end suite against a real platform: test/e2e/cpp-example.test.ts.)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "svcpp.hpp"

int main(int argc, char **argv) {
    if (argc != 6) {
        std::fprintf(stderr, "usage: %s <apiBase> <webBase> <caFile|-> <applicationId> <accessToken>\n", argv[0]);
        return 2;
    }
    if (!svcpp::CheckAbiVersion()) return 1;

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

    bool done = false;
    int exitCode = 1;
    client->SetStatusChangedCallback(
        [&, weak](svcpp::Client::Status status, svcpp::Client::Error error, int32_t detail) {
            auto c = weak.lock();
            if (!c) return;
            if (status == svcpp::Client::Status::Ready) {
                if (auto me = c->GetCurrentUserV2()) {
                    std::printf("ready %llu %s\n", static_cast<unsigned long long>(me->Id()), me->Username().c_str());
                    exitCode = me->IsProvisional() ? 0 : 1;
                }
                done = true;
            } else if (status == svcpp::Client::Status::Disconnected && error != svcpp::Client::Error::None) {
                std::fprintf(stderr, "disconnected: %s (%d)\n", svcpp::Client::ErrorToString(error).c_str(), detail);
                done = true;
            }
        });

    client->SetApplicationId(std::strtoull(argv[4], nullptr, 10));
    // The recommended order: token first, Connect from inside its callback.
    client->UpdateToken(svcpp::AuthorizationTokenType::Bearer, argv[5], [weak, &done](svcpp::ClientResult result) {
        auto c = weak.lock();
        if (!c) return;
        if (!result.Successful()) {
            std::fprintf(stderr, "UpdateToken failed: %s\n", result.ToString().c_str());
            done = true;
            return;
        }
        c->Connect();
    });

    // The game loop: pump once per frame until Ready (or 20 s).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!done && std::chrono::steady_clock::now() < deadline) {
        svcpp::RunCallbacks();
        std::this_thread::sleep_for(std::chrono::milliseconds(16));
    }
    client->Disconnect();
    return exitCode;
}
