// A sample written the way the reference SDK's C++ samples are written, ported the way the porting guide
// (docs/porting-from-the-reference-sdk.md) says: the namespace and the header renamed, the reference's names
// kept (svcpp.hpp has them as deprecated aliases; CMake silences those warnings for this file only).
//
// Two players sign in with provisional accounts, each from an OIDC id token (GetProvisionalToken -> UpdateToken
// -> Connect), and pump with RunCallbacks. When both are Ready the host sends the guest a game friend request,
// the guest accepts it, and the host reads the friendship back through DiscordRelationshipType(), sees that
// SendDiscordFriendRequestById is refused to a provisional account, and ends the friendship with
// RemoveDiscordAndGameFriend, which the guest sees as a deleted relationship.
//
// Usage: svcpp_example_reference_style_friends <apiBase> <webBase> <caFile> <applicationId> <hostIdToken>
// <guestIdToken> Prints one line per step on stdout (logs go to stderr) and exits 0 when every step happened, 1
// otherwise or after 30 s. Run against a real platform by test/e2e/cpp-reference-style.test.ts.
#define SVCPP_IMPLEMENTATION  // the reference header needs this in one file; svcpp.hpp is header-only and ignores it
#include "svcpp.hpp"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

std::atomic<bool> running = true;
int exitCode = 1;

void signalHandler(int) { running.store(false); }

void finish(int code) {
    exitCode = code;
    running.store(false);
}

// The sample succeeds once the host's removal has completed and the guest has seen the relationship end, in
// whichever order the two arrive.
int stepsLeft = 2;
void stepDone() {
    if (--stepsLeft == 0) finish(0);
}

// The reference samples' sign-in, for one player: logging, the status callback, then GetProvisionalToken ->
// UpdateToken -> Connect. onReady runs once when the client reaches Ready.
std::shared_ptr<svcpp::Client> startPlayer(char **argv, std::string const &name, std::string const &idToken,
                                           std::function<void()> onReady) {
    // The reference samples construct Client() against the public service; this one points at a local platform
    // (CaFile is svcpp's: the platform's self-signed certificate).
    svcpp::ClientCreateOptions options;
    options.SetApiBase(argv[1]);
    options.SetWebBase(argv[2]);
    options.SetCaFile(argv[3]);
    auto client = std::make_shared<svcpp::Client>(options);
    // Callbacks capture the client weakly: a strong capture would be a cycle that keeps the client alive forever.
    std::weak_ptr<svcpp::Client> weakClient = client;
    uint64_t const applicationId = std::strtoull(argv[4], nullptr, 10);

    client->AddLogCallback(
        [name](auto message, auto severity) {
            std::cerr << "[" << name << "] [" << EnumToString(severity) << "] " << message << std::endl;
        },
        svcpp::LoggingSeverity::Info);

    client->SetStatusChangedCallback(
        [name, onReady](svcpp::Client::Status status, svcpp::Client::Error error, int32_t errorDetail) {
            std::cerr << "[" << name << "] Status changed: " << svcpp::Client::StatusToString(status) << std::endl;
            if (status == svcpp::Client::Status::Ready) {
                onReady();
            } else if (error != svcpp::Client::Error::None) {
                std::cerr << "[" << name << "] Connection Error: " << svcpp::Client::ErrorToString(error)
                          << " - Details: " << errorDetail << std::endl;
                finish(1);
            }
        });

    client->SetApplicationId(applicationId);
    client->GetProvisionalToken(
        applicationId, svcpp::AuthenticationExternalAuthType::OIDC, idToken,
        [weakClient, name](svcpp::ClientResult result, std::string accessToken, std::string /*refreshToken*/,
                           svcpp::AuthorizationTokenType tokenType, int32_t /*expiresIn*/, std::string /*scopes*/) {
            auto client = weakClient.lock();
            if (!client) return;
            if (!result.Successful()) {
                std::cerr << "[" << name << "] GetProvisionalToken failed: " << result.Error() << std::endl;
                return finish(1);
            }
            client->UpdateToken(tokenType, accessToken, [weakClient](svcpp::ClientResult result) {
                if (auto client = weakClient.lock(); client && result.Successful()) client->Connect();
            });
        });
    return client;
}

int main(int argc, char **argv) {
    if (argc != 7) {
        std::cerr << "usage: " << argv[0]
                  << " <apiBase> <webBase> <caFile> <applicationId> <hostIdToken> <guestIdToken>\n";
        return 2;
    }
    std::signal(SIGINT, signalHandler);

    // Declared before the clients, so it outlives them: a client's destructor runs pending callbacks.
    uint64_t hostId = 0, guestId = 0;
    int ready = 0;
    std::shared_ptr<svcpp::Client> host, guest;
    auto onReady = [&]() {
        if (++ready < 2) return;
        hostId = host->GetCurrentUserV2()->Id();
        guestId = guest->GetCurrentUserV2()->Id();
        std::cout << "ready host " << hostId << " guest " << guestId << std::endl;
        host->SendGameFriendRequestById(guestId, [](svcpp::ClientResult result) {
            std::cout << "game friend request sent: " << (result.Successful() ? "ok" : result.Error()) << std::endl;
            if (!result.Successful()) finish(1);
        });
    };
    host = startPlayer(argv, "host", argv[5], onReady);
    guest = startPlayer(argv, "guest", argv[6], onReady);

    // The guest accepts the host's request, and reports when the host ends the friendship.
    guest->SetRelationshipCreatedCallback([&](uint64_t userId, bool isDiscordRelationshipUpdate) {
        auto relationship = guest->GetRelationshipHandle(userId);
        if (isDiscordRelationshipUpdate || !relationship ||
            relationship->GameRelationshipType() != svcpp::RelationshipType::PendingIncoming)
            return;
        guest->AcceptGameFriendRequest(userId, [](svcpp::ClientResult result) {
            std::cout << "guest accepted: " << (result.Successful() ? "ok" : result.Error()) << std::endl;
            if (!result.Successful()) finish(1);
        });
    });
    guest->SetRelationshipDeletedCallback([&](uint64_t userId, bool isDiscordRelationshipUpdate) {
        std::cout << "guest: relationship with " << (userId == hostId ? "host" : "someone else") << " ended, "
                  << (isDiscordRelationshipUpdate ? "platform" : "game") << " axis" << std::endl;
        if (guest->GetRelationshipHandle(hostId)) return finish(1);
        stepDone();
    });

    // The host, once they are game friends: the reference's names for the platform axis.
    host->SetRelationshipCreatedCallback([&](uint64_t userId, bool isDiscordRelationshipUpdate) {
        auto relationship = host->GetRelationshipHandle(userId);
        if (isDiscordRelationshipUpdate || !relationship ||
            relationship->GameRelationshipType() != svcpp::RelationshipType::Friend)
            return;
        for (auto &r : host->GetRelationships()) {
            std::cout << "relationship " << (r.Id() == guestId ? "guest" : "someone else")
                      << " discord=" << EnumToString(r.DiscordRelationshipType())
                      << " game=" << EnumToString(r.GameRelationshipType()) << std::endl;
        }
        std::weak_ptr<svcpp::Client> weakHost = host;
        host->SendDiscordFriendRequestById(guestId, [weakHost, guestId](svcpp::ClientResult result) {
            std::cout << "discord friend request: " << EnumToString(result.Type()) << ": " << result.Error()
                      << std::endl;
            auto host = weakHost.lock();
            if (!host) return;
            host->RemoveDiscordAndGameFriend(guestId, [](svcpp::ClientResult result) {
                std::cout << "removed: " << (result.Successful() ? "ok" : result.Error()) << std::endl;
                if (!result.Successful()) return finish(1);
                stepDone();
            });
        });
    });

    // Keep the application running so the SDK can deliver events and callbacks.
    auto const deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (running && std::chrono::steady_clock::now() < deadline) {
        svcpp::RunCallbacks();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return exitCode;
}
