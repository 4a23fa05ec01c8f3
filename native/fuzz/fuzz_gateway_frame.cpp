// libFuzzer target: one gateway frame as the platform would send it (text of a WebSocket message).
//
// The session reads a frame with gateway::FrameReader (net::JsonReader: Boost.JSON's lexer, its envelope routed while
// parsing, only `d` as a DOM); this target checks that it reads every input exactly as nlohmann's own parser reads the
// whole frame (lone surrogate escapes read as U+FFFD, then the envelope checks {op: integer, t: string, s: integer,
// d: any}) — a mismatch traps, except a frame nlohmann accepts past one of JsonReader's two limits (nesting, an
// exponent past 32 bits: net/json_reader.hpp), which the reader must refuse —
// and then hands the dispatch data to every area reducer
// the client routes dispatches to (lobbies, messages, presence/activity invites) with caches that persist across
// frames of one input, so a sequence of frames can build and then tear down state. Reducers must tolerate any shape:
// a wrong-typed field reads as unset, never an exception or a crash.
//
// Input: frames separated by a 0x00 byte (a fuzzer-friendly way to feed a sequence).
#include <algorithm>
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
#include "net/json_reader.hpp"
#include "net/json_text.hpp"
#include "presence/presence_json.hpp"
#include "users/user_cache.hpp"

using namespace svcpp::core;

namespace {

/** Calls `visit(at)` for each byte of the text outside its strings; stops when it returns true, and says so. */
template <class Visit>
bool AnyOutsideStrings(std::string_view text, Visit visit) {
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (visit(i)) {
            return true;
        }
    }
    return false;
}

/** Nesting deeper than JsonReader reads, counted on the text (brackets outside strings). */
bool NestedPastTheLimit(std::string_view text) {
    std::size_t depth = 0;
    return AnyOutsideStrings(text, [&](std::size_t at) {
        if (text[at] == '[' || text[at] == '{') return ++depth > net::JsonReader::kMaxDepth;
        if ((text[at] == ']' || text[at] == '}') && depth > 0) --depth;
        return false;
    });
}

/** A number whose exponent, with the mantissa's digits added, does not fit the 32-bit integer JsonReader keeps. */
bool ExponentPastTheLimit(std::string_view text) {
    return AnyOutsideStrings(text, [&](std::size_t i) {
        if ((text[i] != 'e' && text[i] != 'E') || i == 0 || !(text[i - 1] >= '0' && text[i - 1] <= '9')) return false;
        std::size_t at = i + 1;
        if (at < text.size() && (text[at] == '+' || text[at] == '-')) ++at;
        uint64_t exponent = 0;
        for (; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at) {
            exponent = std::min<uint64_t>(exponent * 10 + uint64_t(text[at] - '0'), uint64_t(1) << 40);
        }
        return exponent + text.size() > 2147483647u;
    });
}

std::string Dumped(const nlohmann::json &value) {
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void OneFrame(std::string_view text, LobbyCache &lobbyCache, MessageCache &messageCache, UserCache &userCache) {
    std::string replaced;
    const nlohmann::json frame = nlohmann::json::parse(net::WithLoneSurrogatesReplaced(text, replaced), nullptr, false);
    const bool isFrame = !frame.is_discarded() && frame.is_object();
    static gateway::FrameReader reader;  // reused like the session's, so leftovers of an earlier frame would show
    static gateway::Frame read;
    if (reader.Read(text, read) != isFrame) {
        if (isFrame && (NestedPastTheLimit(text) || ExponentPastTheLimit(text))) return;  // refused by the limits
        __builtin_trap();
    }
    if (!isFrame) return;
    const auto op = frame.find("op");
    static const nlohmann::json kNull;
    const auto found = frame.find("d");
    const nlohmann::json &d = found != frame.end() ? *found : kNull;
    const auto t = frame.find("t");
    const auto s = frame.find("s");
    if (read.op != (op != frame.end() && op->is_number_integer() ? std::optional<int64_t>(op->get<int64_t>())
                                                                 : std::nullopt) ||
        read.seq !=
            (s != frame.end() && s->is_number_integer() ? std::optional<int64_t>(s->get<int64_t>()) : std::nullopt) ||
        read.hasType != (t != frame.end() && t->is_string()) ||
        (read.hasType && read.type != t->get_ref<const std::string &>()) || read.data != d ||
        Dumped(read.data) != Dumped(d) || read.dataSkipped) {  // dump: a double's every bit, -0.0
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
    const nlohmann::json again = net::ParseJson(Dumped(frame));
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
