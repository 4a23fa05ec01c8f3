// RpcProtocol: one connection to the local client as a state machine, without any I/O (native/SEMANTICS.md
// "Local RPC"). The transport (RpcService) tells it when a connection opened, hands it the bytes received and
// writes what it asks to send; the protocol answers whether the connection may go on.
//
//   Opened → HANDSHAKE {v: 1, client_id} sent → READY received → Ready: the wanted subscriptions are sent, then the
//   replayed commands (launch registrations, the chat flag), so a restarted local client learns them again.
//
// What the local client sends that cannot be trusted (a bad header, JSON that is not an object, a FRAME before
// READY, a HANDSHAKE, a CLOSE) ends the connection; the service reconnects with backoff. Commands are paired with
// their responses by nonce; a connection that ends fails the commands still waiting.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "rpc/frame_codec.hpp"

namespace svcpp::core::rpc {

/** How a command ended: `ok` with the response's `data`, or the error `code` and `message`. */
struct CommandOutcome {
    bool ok = false;
    nlohmann::json data;
    int32_t code = 0;
    std::string message;
};
using CommandDone = std::function<void(CommandOutcome)>;

/** Error codes of outcomes that did not come from the local client. */
inline constexpr int32_t kNotConnected = -1;    // no local client (or not READY yet): nothing was sent
inline constexpr int32_t kConnectionLost = -2;  // sent, but the connection ended before the answer

/** What the protocol reports to its owner (called synchronously from Received / Lost). */
struct ProtocolEvents {
    std::function<void()> ready;
    std::function<void()> authorizeRequest;
    std::function<void(std::string secret)> activityJoin;
    std::function<void(std::string line)> log;  // diagnostics (Verbose/Warning decided by the owner)
};

class RpcProtocol {
  public:
    enum class State { Idle, Handshaking, Ready };

    RpcProtocol(std::function<void(std::string bytes)> send, ProtocolEvents events);

    /** A connection opened: sends the HANDSHAKE for this application. */
    void Opened(uint64_t applicationId);
    /** Bytes from the connection. False when the connection must be dropped (DropReason says why). */
    bool Received(std::string_view bytes);
    /** The connection ended: pending commands fail with kConnectionLost; back to Idle. */
    void Lost();

    /** Subscribes (or unsubscribes) now when Ready, and again after every READY while wanted. */
    void SetSubscribed(const std::string &evt, bool wanted);
    /** A command sent now when Ready and after every READY; `key` names it so that the latest of a key wins. */
    void SetReplayed(const std::string &key, std::string cmd, nlohmann::json args);
    /** Sends a command; without a READY connection `done` runs at once with kNotConnected. */
    void Command(std::string cmd, nlohmann::json args, CommandDone done);

    State GetState() const { return state_; }
    const std::string &DropReason() const { return dropReason_; }
    const std::set<std::string> &WantedSubscriptions() const { return wanted_; }

  private:
    bool Drop(std::string reason);
    bool OnFrame(Frame frame);
    bool OnPayload(const nlohmann::json &payload);
    void OnEvent(const std::string &evt, const nlohmann::json &data);
    std::string Send(const std::string &cmd, const nlohmann::json &args, const std::string &evt = {});

    std::function<void(std::string)> send_;
    ProtocolEvents events_;
    State state_ = State::Idle;
    FrameDecoder decoder_;
    std::string dropReason_;
    uint64_t nextNonce_ = 1;
    std::map<std::string, CommandDone> pending_;
    std::set<std::string> wanted_;
    std::map<std::string, std::pair<std::string, nlohmann::json>> replayed_;
};

}  // namespace svcpp::core::rpc
