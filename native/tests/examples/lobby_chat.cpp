// Lobby chat through svcpp.hpp alone, as an engine plugin would do it: sign in with a provisional token the game
// server issued, create (or join) the lobby of a secret, post a message with metadata, then read the lobby's
// history back over HTTP and print what came back. Callbacks are pumped once per "frame".
//
// Usage: svcpp_example_lobby_chat <apiBase> <webBase> <caFile|-> <applicationId> <accessToken> <secret> <message>
// Prints "lobby <id>", "sent <message id>" and "read <message id> <author id> <metadata kind> <content>" and exits 0
// when the message read back is the one sent; exits 1 on any failure. (Run by the vitest end-to-end suite against
// a real platform: test/e2e/cpp-lobby-chat.test.ts.)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "svcpp.hpp"

namespace {

/** The steps after Ready, chained through their callbacks. */
struct Chat {
    std::weak_ptr<svcpp::Client> client;
    std::string secret;
    std::string text;
    bool done = false;
    int exitCode = 1;

    void Fail(const char *step, const svcpp::ClientResult &result) {
        std::fprintf(stderr, "%s failed: %s\n", step, result.ToString().c_str());
        done = true;
    }

    void Start() {
        auto c = client.lock();
        if (!c) return;
        c->CreateOrJoinLobby(secret, [this](svcpp::ClientResult result, uint64_t lobbyId) {
            if (!result.Successful()) return Fail("CreateOrJoinLobby", result);
            std::printf("lobby %llu\n", static_cast<unsigned long long>(lobbyId));
            Send(lobbyId);
        });
    }

    void Send(uint64_t lobbyId) {
        auto c = client.lock();
        if (!c) return;
        c->SendLobbyMessageWithMetadata(lobbyId, text, {{"kind", "example"}},
                                        [this, lobbyId](svcpp::ClientResult result, uint64_t messageId) {
                                            if (!result.Successful())
                                                return Fail("SendLobbyMessageWithMetadata", result);
                                            std::printf("sent %llu\n", static_cast<unsigned long long>(messageId));
                                            ReadBack(lobbyId, messageId);
                                        });
    }

    void ReadBack(uint64_t lobbyId, uint64_t sentId) {
        auto c = client.lock();
        if (!c) return;
        c->GetLobbyMessagesWithLimit(
            lobbyId, 10, [this, sentId](svcpp::ClientResult result, std::vector<svcpp::MessageHandle> messages) {
                if (!result.Successful()) return Fail("GetLobbyMessagesWithLimit", result);
                if (messages.empty()) {
                    std::fprintf(stderr, "the lobby has no messages\n");
                    done = true;
                    return;
                }
                // Newest first: ours is the first one.
                svcpp::MessageHandle &m = messages.front();
                auto metadata = m.Metadata();
                auto kind = metadata.find("kind");
                std::printf("read %llu %llu %s %s\n", static_cast<unsigned long long>(m.Id()),
                            static_cast<unsigned long long>(m.AuthorId()),
                            kind == metadata.end() ? "-" : kind->second.c_str(), m.Content().c_str());
                exitCode = m.Id() == sentId && m.Content() == text ? 0 : 1;
                done = true;
            });
    }
};

}  // namespace

int main(int argc, char **argv) {
    if (argc != 8) {
        std::fprintf(stderr,
                     "usage: %s <apiBase> <webBase> <caFile|-> <applicationId> <accessToken> <secret> <message>\n",
                     argv[0]);
        return 2;
    }
    if (!svcpp::CheckAbiVersion()) return 1;

    svcpp::ClientCreateOptions options;
    options.SetApiBase(argv[1]);
    options.SetWebBase(argv[2]);
    if (std::string(argv[3]) != "-") options.SetCaFile(argv[3]);
    auto client = std::make_shared<svcpp::Client>(options);
    std::weak_ptr<svcpp::Client> weak = client;
    Chat chat{weak, argv[6], argv[7]};

    client->AddLogCallback(
        [](std::string message, svcpp::LoggingSeverity severity) {
            std::fprintf(stderr, "[%s] %s\n", svcpp::EnumToString(severity), message.c_str());
        },
        svcpp::LoggingSeverity::Info);

    client->SetStatusChangedCallback([&chat](svcpp::Client::Status status, svcpp::Client::Error error, int32_t detail) {
        if (status == svcpp::Client::Status::Ready) {
            chat.Start();
        } else if (status == svcpp::Client::Status::Disconnected && error != svcpp::Client::Error::None) {
            std::fprintf(stderr, "disconnected: %s (%d)\n", svcpp::Client::ErrorToString(error).c_str(), detail);
            chat.done = true;
        }
    });

    client->SetApplicationId(std::strtoull(argv[4], nullptr, 10));
    client->UpdateToken(svcpp::AuthorizationTokenType::Bearer, argv[5], [weak, &chat](svcpp::ClientResult result) {
        auto c = weak.lock();
        if (!c) return;
        if (!result.Successful()) return chat.Fail("UpdateToken", result);
        c->Connect();
    });

    // The game loop: pump once per frame until the chat is done (or 20 s).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!chat.done && std::chrono::steady_clock::now() < deadline) {
        svcpp::RunCallbacks();
        std::this_thread::sleep_for(std::chrono::milliseconds(16));
    }
    client->Disconnect();
    return chat.exitCode;
}
