// libFuzzer target: one gateway frame as the platform would send it (text of a WebSocket message).
//
// The session reads a frame with gateway::FrameReader (its envelope while parsing, only `d` as a DOM); this target
// checks that it reads every input exactly as nlohmann's DOM of the whole frame does (net::ParseJson, lone surrogate
// escapes read as U+FFFD, then the envelope checks {op: integer, t: string, s: integer, d: any}) — a mismatch traps —
// and then hands the dispatch data to every area reducer
// the client routes dispatches to (lobbies, messages, presence/activity invites) with caches that persist across
// frames of one input, so a sequence of frames can build and then tear down state. Reducers must tolerate any shape:
// a wrong-typed field reads as unset, never an exception or a crash.
//
// Input: frames separated by a 0x00 byte (a fuzzer-friendly way to feed a sequence).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "gateway/frame_reader.hpp"
#include "invites/activity_invite_json.hpp"
#include "lobbies/lobby_cache.hpp"
#include "lobbies/lobby_dispatch.hpp"
#include "messages/message_cache.hpp"
#include "messages/message_dispatch.hpp"
#include "net/json_fields.hpp"
#include "net/json_text.hpp"
#include "presence/presence_json.hpp"
#include "users/user_cache.hpp"

using namespace svcpp::core;

namespace {

void OneFrame(std::string_view text, LobbyCache &lobbyCache, MessageCache &messageCache,
    UserCache &userCache) {
    const nlohmann::json frame = net::ParseJson(text);
    const bool isFrame = !frame.is_discarded() && frame.is_object();
    static gateway::FrameReader reader;  // reused like the session's, so leftovers of an earlier frame would show
    static gateway::Frame read;
    if (reader.Read(text, read) != isFrame) __builtin_trap();
    if (!isFrame) return;
    const auto op = frame.find("op");
    static const nlohmann::json kNull;
    const auto found = frame.find("d");
    const nlohmann::json &d = found != frame.end() ? *found : kNull;
    const auto t = frame.find("t");
    const auto s = frame.find("s");
    if (read.op != (op != frame.end() && op->is_number_integer() ? std::optional<int64_t>(op->get<int64_t>()) : std::nullopt) ||
        read.seq != (s != frame.end() && s->is_number_integer() ? std::optional<int64_t>(s->get<int64_t>()) : std::nullopt) ||
        read.hasType != (t != frame.end() && t->is_string()) || (read.hasType && read.type != t->get_ref<const std::string &>()) ||
        read.data != d || read.dataSkipped) {
        __builtin_trap();
    }
    if (op == frame.end() || !op->is_number_integer()) return;
    // Any op: the reducers must hold whatever d is, so they see every frame's data, under its event name or a
    // generic one.
    const std::string type = t != frame.end() && t->is_string() ? t->get<std::string>() : std::string("LOBBY_UPDATE");
    const uint64_t self = userCache.CurrentUserId();
    if (type == "READY") {
        userCache.SetCurrentUserId(wire::Snowflake(wire::Member(d, "user"), "id"));
        lobbies::ApplyReady(lobbyCache, userCache, wire::Member(d, "lobbies"));
    }
    lobbies::ApplyDispatch(lobbyCache, userCache, self, type, d);
    messages::ApplyDispatch(messageCache, userCache, self, type, d);
    messages::CacheMessage(messageCache, userCache, self, d);
    (void)invites::ParseActivityInvite(d);
    (void)invites::JoinSecretOf(d);
    (void)presence::GameActivityOf(wire::Member(d, "activities"), wire::Snowflake(d, "application_id"));
    (void)presence::ActivityFromWire(d);
    (void)presence::ParseStatus(wire::String(d, "status"));
    // A serialised copy must parse back (the client logs and forwards frames it received).
    const nlohmann::json again = net::ParseJson(frame.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    if (again.is_discarded()) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    LobbyCache lobbyCache;
    MessageCache messageCache;
    UserCache userCache("https://cdn.invalid");
    std::string_view rest(reinterpret_cast<const char *>(data), size);
    while (true) {
        const auto end = rest.find('\0');
        OneFrame(rest.substr(0, end), lobbyCache, messageCache, userCache);
        if (end == std::string_view::npos) break;
        rest.remove_prefix(end + 1);
    }
    return 0;
}
