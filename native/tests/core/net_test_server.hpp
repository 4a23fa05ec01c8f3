// An in-process HTTP(S) + WebSocket server for the network tests, on 127.0.0.1 and its own I/O thread.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "net_test_pki.hpp"

namespace svcpp::test {

struct ServerRequest {
    std::string method;
    std::string target;
    std::string body;
    std::map<std::string, std::string> headers;  // names lower-cased
    int connection = 0;                          // which accepted connection (1, 2, ...) carried it
    std::chrono::steady_clock::time_point receivedAt;
};

struct ServerReply {
    int status = 200;
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    bool closeAfter = false;  // close the connection after replying, without saying so (a keep-alive expiring)
    bool silent = false;      // never reply; the connection stays open until the client leaves
};

/**
 * Answers HTTP requests with the handler (run on the server's thread; default: 200, empty body). WebSocket
 * upgrades go to an echo service that obeys a few commands: "close:<code>" closes with that code, "drop"
 * drops the TCP connection, "mute" stops reading (so a close frame is never answered).
 */
class TestServer {
  public:
    using Handler = std::function<ServerReply(const ServerRequest &)>;

    explicit TestServer(Handler handler = {}, std::optional<ServerCertificate> tls = std::nullopt);
    ~TestServer();
    TestServer(const TestServer &) = delete;
    TestServer &operator=(const TestServer &) = delete;

    uint16_t Port() const;
    int Accepted() const;
    /** Connections that have ended on the server's side. */
    int Ended() const;
    std::vector<ServerRequest> Requests() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/** Polls pred until it holds or the limit passes; the result of the last poll. */
bool Eventually(const std::function<bool()> &pred, std::chrono::milliseconds limit = std::chrono::seconds(10));

}  // namespace svcpp::test
