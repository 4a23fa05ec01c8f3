// The engine plugin guide's example (docs/engine-plugin.md): the social layer of a game engine in C++17 over
// svcpp.hpp. The engine calls Start() once, Tick() every frame (all SDK callbacks run there, on the game thread) and
// Stop() at exit. This plugin signs the player in with a provisional token from the game's backend, shows rich
// presence, joins the party's lobby by its secret and greets it.
//   c++ -std=c++17 -I<sdk>/include engine-plugin.cpp -L<sdk>/lib -lsvcpp -Wl,-rpath,<sdk>/lib -o engine-plugin
//   ./engine-plugin <apiBase> <webBase> <caFile|-> <applicationId> <accessToken> <lobbySecret>
// Prints "ready <user id>", "lobby <id>", "message <id>" and exits 0 (1 on failure, after 30 s at most).
// (test/docs-examples.test.ts builds and runs it against the platform.)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "svcpp.hpp"

class SocialPlugin {
  public:
    struct Config {
        std::string apiBase, webBase, caFile, accessToken, lobbySecret;
        uint64_t applicationId = 0;
    };

    bool Start(Config const &config) {
        if (!svcpp::CheckAbiVersion()) return false;  // libsvcpp.so older than the headers we built with
        config_ = config;
        svcpp::ClientCreateOptions options;
        options.SetApiBase(config.apiBase);
        options.SetWebBase(config.webBase);
        if (!config.caFile.empty()) options.SetCaFile(config.caFile);
        client_ = std::make_shared<svcpp::Client>(options);
        client_->AddLogCallback(
            [](std::string message, svcpp::LoggingSeverity severity) {
                std::fprintf(stderr, "[svcpp %s] %s\n", svcpp::EnumToString(severity), message.c_str());
            },
            svcpp::LoggingSeverity::Warning);
        // Callbacks hold a weak pointer: the plugin may be stopped while a result is still queued.
        std::weak_ptr<svcpp::Client> weak = client_;
        client_->SetStatusChangedCallback(
            [this, weak](svcpp::Client::Status status, svcpp::Client::Error error, int32_t detail) {
                if (weak.expired()) return;
                if (status == svcpp::Client::Status::Ready) OnReady();
                if (status == svcpp::Client::Status::Disconnected && error != svcpp::Client::Error::None) {
                    Fail("disconnected: " + svcpp::Client::ErrorToString(error) + " " + std::to_string(detail));
                }
            });
        client_->SetApplicationId(config.applicationId);
        client_->UpdateToken(svcpp::AuthorizationTokenType::Bearer, config.accessToken,
                             [this, weak](svcpp::ClientResult result) {
                                 auto client = weak.lock();
                                 if (!client) return;
                                 if (!result.Successful()) return Fail("UpdateToken: " + result.ToString());
                                 client->Connect();
                             });
        return true;
    }

    /** Once per frame, on the game thread: delivers every pending SDK callback. */
    void Tick() { svcpp::RunCallbacks(); }

    void Stop() {
        if (client_) client_->Disconnect();
        client_.reset();
    }

    bool Finished() const { return finished_; }
    bool Succeeded() const { return succeeded_; }

  private:
    void OnReady() {
        auto me = client_->GetCurrentUserV2();
        if (!me) return Fail("no current user at Ready");
        std::printf("ready %llu\n", static_cast<unsigned long long>(me->Id()));

        svcpp::Activity activity;
        activity.SetType(svcpp::ActivityTypes::Playing);
        activity.SetState("In the lobby");
        client_->UpdateRichPresence(activity, [this](svcpp::ClientResult result) {
            if (!result.Successful()) Fail("UpdateRichPresence: " + result.ToString());
        });
        client_->CreateOrJoinLobby(config_.lobbySecret, [this](svcpp::ClientResult result, uint64_t lobbyId) {
            if (!result.Successful()) return Fail("CreateOrJoinLobby: " + result.ToString());
            std::printf("lobby %llu\n", static_cast<unsigned long long>(lobbyId));
            client_->SendLobbyMessage(lobbyId, "hello from the engine",
                                      [this](svcpp::ClientResult sent, uint64_t messageId) {
                                          if (!sent.Successful()) return Fail("SendLobbyMessage: " + sent.ToString());
                                          std::printf("message %llu\n", static_cast<unsigned long long>(messageId));
                                          succeeded_ = finished_ = true;
                                      });
        });
    }

    void Fail(std::string const &why) {
        std::fprintf(stderr, "%s\n", why.c_str());
        finished_ = true;
    }

    Config config_;
    std::shared_ptr<svcpp::Client> client_;
    bool finished_ = false;
    bool succeeded_ = false;
};

int main(int argc, char **argv) {
    if (argc != 7) {
        std::fprintf(stderr, "usage: %s <apiBase> <webBase> <caFile|-> <applicationId> <accessToken> <lobbySecret>\n",
                     argv[0]);
        return 2;
    }
    SocialPlugin::Config config;
    config.apiBase = argv[1];
    config.webBase = argv[2];
    if (std::string(argv[3]) != "-") config.caFile = argv[3];
    config.applicationId = std::strtoull(argv[4], nullptr, 10);
    config.accessToken = argv[5];
    config.lobbySecret = argv[6];

    SocialPlugin plugin;
    if (!plugin.Start(config)) return 1;
    // The engine's frame loop (60 frames per second), for at most 30 s.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!plugin.Finished() && std::chrono::steady_clock::now() < deadline) {
        plugin.Tick();
        std::this_thread::sleep_for(std::chrono::milliseconds(16));
    }
    const bool ok = plugin.Succeeded();
    plugin.Stop();
    return ok ? 0 : 1;
}
