#include "rpc/rpc_protocol.hpp"

#include "net/json_text.hpp"

namespace svcpp::core::rpc {

namespace {
using nlohmann::json;

const std::string kDispatch = "DISPATCH";

std::string StringField(const json &object, const char *name) {
    auto it = object.find(name);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}
}  // namespace

RpcProtocol::RpcProtocol(std::function<void(std::string)> send, ProtocolEvents events)
    : send_(std::move(send)), events_(std::move(events)) {}

void RpcProtocol::Opened(uint64_t applicationId) {
    decoder_ = FrameDecoder();
    dropReason_.clear();
    state_ = State::Handshaking;
    // The client id travels as a string: ids do not fit a JSON number in every reader.
    send_(EncodeFrame(Opcode::Handshake, json{{"v", 1}, {"client_id", std::to_string(applicationId)}}.dump()));
}

bool RpcProtocol::Received(std::string_view bytes) {
    if (state_ == State::Idle) return false;
    decoder_.Feed(bytes);
    while (auto frame = decoder_.Next()) {
        if (!OnFrame(std::move(*frame))) return false;
    }
    if (decoder_.Failed()) return Drop("unreadable stream from the local client: " + decoder_.Failure());
    return true;
}

void RpcProtocol::Lost() {
    state_ = State::Idle;
    auto pending = std::exchange(pending_, {});
    for (auto &[nonce, done] : pending)
        done(CommandOutcome{false, nullptr, kConnectionLost, "the connection to the local client ended"});
}

bool RpcProtocol::Drop(std::string reason) {
    dropReason_ = std::move(reason);
    return false;
}

bool RpcProtocol::OnFrame(Frame frame) {
    switch (frame.opcode) {
        case Opcode::Ping: send_(EncodeFrame(Opcode::Pong, frame.body)); return true;
        case Opcode::Pong: return true;
        case Opcode::Handshake: return Drop("the local client sent a HANDSHAKE");
        case Opcode::Close: {
            const json body = net::ParseJson(frame.body);
            std::string detail = frame.body;
            if (body.is_object()) {
                auto code = body.find("code");
                detail = (code != body.end() && code->is_number_integer() ? std::to_string(code->get<int64_t>()) + " "
                                                                          : std::string()) +
                         StringField(body, "message");
            }
            return Drop("the local client closed the connection: " + detail);
        }
        case Opcode::Frame: {
            const json payload = net::ParseJson(frame.body);
            if (!payload.is_object()) return Drop("the local client sent a FRAME that is not a JSON object");
            return OnPayload(payload);
        }
    }
    return Drop("unknown opcode");
}

bool RpcProtocol::OnPayload(const json &payload) {
    const std::string cmd = StringField(payload, "cmd");
    const std::string evt = StringField(payload, "evt");
    static const json kNull;
    const auto found = payload.find("data");
    const json &data = found != payload.end() ? *found : kNull;  // a reference: the payload outlives this call, no copy
    if (state_ == State::Handshaking) {
        if (cmd != kDispatch || evt != "READY")
            return Drop("the local client answered the HANDSHAKE with " + (evt.empty() ? cmd : evt) +
                        " instead of READY");
        state_ = State::Ready;
        if (events_.ready) events_.ready();
        for (const auto &name : wanted_) Send("SUBSCRIBE", json::object(), name);
        for (const auto &[key, command] : replayed_) Send(command.first, command.second);
        return true;
    }
    const std::string nonce = StringField(payload, "nonce");
    if (cmd == kDispatch && nonce.empty()) {
        OnEvent(evt, data);
        return true;
    }
    auto it = pending_.find(nonce);
    if (it == pending_.end()) {
        // An answer to a command sent without waiting (subscriptions, replays): only a failure is worth a line.
        if (evt == "ERROR" && events_.log)
            events_.log("local client refused " + cmd + ": " + StringField(data, "message"));
        return true;
    }
    CommandDone done = std::move(it->second);
    pending_.erase(it);
    if (evt == "ERROR") {
        const int32_t code = data.is_object() && data.contains("code") && data["code"].is_number_integer()
                                 ? data["code"].get<int32_t>()
                                 : 0;
        done(CommandOutcome{false, nullptr, code, data.is_object() ? StringField(data, "message") : std::string()});
    } else {
        done(CommandOutcome{true, data, 0, {}});
    }
    return true;
}

void RpcProtocol::OnEvent(const std::string &evt, const json &data) {
    if (evt == "ACTIVITY_JOIN") {
        const std::string secret = data.is_object() ? StringField(data, "secret") : std::string();
        if (secret.empty()) {
            if (events_.log) events_.log("ignored an ACTIVITY_JOIN without a secret");
            return;
        }
        if (events_.activityJoin) events_.activityJoin(secret);
    } else if (evt == "AUTHORIZE_REQUEST") {
        if (events_.authorizeRequest) events_.authorizeRequest();
    } else if (events_.log) {
        events_.log("ignored local client event " + (evt.empty() ? std::string("(none)") : evt));
    }
}

std::string RpcProtocol::Send(const std::string &cmd, const json &args, const std::string &evt) {
    std::string nonce = std::to_string(nextNonce_++);  // not const: the return moves it
    json payload{{"cmd", cmd}, {"nonce", nonce}, {"args", args}};
    if (!evt.empty()) payload["evt"] = evt;
    send_(EncodeFrame(Opcode::Frame, payload.dump(-1, ' ', false, json::error_handler_t::replace)));
    return nonce;
}

void RpcProtocol::SetSubscribed(const std::string &evt, bool wanted) {
    const bool changed = wanted ? wanted_.insert(evt).second : wanted_.erase(evt) > 0;
    if (changed && state_ == State::Ready) Send(wanted ? "SUBSCRIBE" : "UNSUBSCRIBE", json::object(), evt);
}

void RpcProtocol::SetReplayed(const std::string &key, std::string cmd, json args) {
    if (state_ == State::Ready) Send(cmd, args);
    replayed_[key] = {std::move(cmd), std::move(args)};
}

void RpcProtocol::Command(std::string cmd, json args, CommandDone done) {
    if (state_ != State::Ready) {
        done(CommandOutcome{false, nullptr, kNotConnected, "no local platform client is running"});
        return;
    }
    pending_.emplace(Send(cmd, args), std::move(done));
}

}  // namespace svcpp::core::rpc
