// The voice gateway client of one call: WebSocket v8 (platform/PROTOCOL.md §13 Voice) over the core's WebSocket.
//
//   Start() ─► open ws(s)://<endpoint>?v=8 ─► op 8 Hello ─► heartbeats + op 0 Identify ─► op 2 Ready ─► (the call
//   does IP discovery) SelectProtocol() ─► op 4 Session Description ─► SetSpeaking() …
//   drop / zombie / resumable close ─► `interrupted`, then (backoff) new socket + op 7 Resume {seq_ack} ─► op 9
//   Resumed (the server then replays what it buffered, in order) ─► `resumed`
//   "reconnect" close (4006, …) ─► `interrupted`, new socket + fresh Identify ─► Ready again
//   terminal close, or maxFailedAttempts in a row ─► `ended(code)`; nothing follows
//
// v8 details: every server message that may be replayed carries a top-level "seq" (binary messages — DAVE's — a
// leading u16 seq); we keep the last one and
// acknowledge it in each op 3 Heartbeat {t, seq_ack} and op 7 Resume (-1 before anything was received). A heartbeat
// still unacknowledged when the next is due means a zombie connection: drop it and resume.
//
// Threading: create, use and destroy on the client's I/O thread; events run there. An event may call Stop() or
// destroy the gateway; nothing further is emitted then.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "net/websocket.hpp"

namespace svcpp::core::net {
class ClientExecutor;  // net/client_executor.hpp: the executor of one client's I/O objects
}

namespace svcpp::core::voice {

struct VoiceGatewayConfig {
    std::string endpoint;   // "host:port" from VOICE_SERVER_UPDATE (no scheme); may carry a path
    bool secure = true;     // wss:// (the main gateway's scheme decides)
    uint64_t serverId = 0;  // the lobby id for lobby calls
    uint64_t userId = 0;
    std::string sessionId;  // from our VOICE_STATE_UPDATE
    std::string token;      // from VOICE_SERVER_UPDATE; never logged
    int32_t backoffInitialMs = 250;
    int32_t backoffMaxMs = 5000;
    /** Failed (re)connection attempts in a row (no Ready/Resumed in between) before the call gives up. */
    int32_t maxFailedAttempts = 5;
    /** Identify's max_dave_protocol_version: 1 with the DAVE session (the platform refuses 0 with close 4017). */
    int maxDaveProtocolVersion = 0;
};

struct VoiceReady {
    uint32_t ssrc = 0;
    std::string ip;
    uint16_t port = 0;
    std::vector<std::string> modes;  // server's order of preference
};

struct VoiceGatewayEvents {
    std::function<void(const VoiceReady &)> ready;  // op 2 (again after a reconnect with fresh Identify)
    /** op 4; daveProtocolVersion = its dave_protocol_version (0 when absent). */
    std::function<void(const std::string &mode, const std::array<uint8_t, 32> &secretKey, int daveProtocolVersion)>
        sessionDescription;
    /** DAVE opcodes 21–31 as JSON (op, d), for the DAVE session. */
    std::function<void(int op, const nlohmann::json &d)> daveJson;
    /** A binary server message (DAVE): its sequence number already taken (and acknowledged); opcode and payload. */
    std::function<void(uint8_t op, std::vector<uint8_t> payload)> daveBinary;
    std::function<void(uint64_t userId, uint32_t ssrc, uint32_t speaking)> speaking;  // op 5 from the server
    std::function<void(const std::vector<uint64_t> &userIds)> clientsConnect;         // op 11
    std::function<void(uint64_t userId)> clientDisconnect;                            // op 13
    std::function<void(int closeCode)> interrupted;  // a recoverable drop: trying again (code 0 = no close frame)
    std::function<void()> resumed;                   // op 9 after op 7
    /** The end: a terminal close code, or (code of the last attempt) too many failures; everOpened = a Ready was seen.
     */
    std::function<void(int closeCode, bool everReady)> ended;
};

using VoiceLogFn = std::function<void(int severity /*LoggingSeverity*/, std::string)>;

class VoiceGateway {
  public:
    VoiceGateway(const net::ClientExecutor &io, net::WebSocketFactory factory, VoiceGatewayConfig config,
                 VoiceGatewayEvents events, VoiceLogFn log);
    ~VoiceGateway();  // Stop() without events
    VoiceGateway(const VoiceGateway &) = delete;
    VoiceGateway &operator=(const VoiceGateway &) = delete;

    void Start();
    /** Closes with 1000 (ends the voice session on the server); no events follow. */
    void Stop();
    /** op 1 Select Protocol {protocol: "udp", data: {address, port, mode}}; false when not connected. */
    bool SelectProtocol(const std::string &address, uint16_t port, const std::string &mode);
    /** op 5 Speaking {speaking, delay: 0, ssrc}; false when not connected. */
    bool SetSpeaking(uint32_t flags, uint32_t ssrc);
    /** A DAVE client message: binary (u8 opcode | payload) or JSON {op, d}; false when not connected. */
    bool SendDaveBinary(const std::vector<uint8_t> &message);
    bool SendDaveJson(int op, const nlohmann::json &d);
    /** Test hook: drop the socket without a close frame (as a network cut would). */
    void DropForTest();

    int64_t LastSeq() const;
    uint32_t Ssrc() const;

  private:
    struct Impl;
    std::shared_ptr<Impl> impl_;
};

}  // namespace svcpp::core::voice
