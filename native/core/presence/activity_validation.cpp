#include "presence/activity_validation.hpp"

#include <cstddef>
#include <cstdint>

#include "presence/presence_json.hpp"

namespace svcpp::core::presence {

namespace {

size_t CodePoints(const std::string &s) {
    size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;  // count every byte that starts a code point
    return n;
}

/** "<field> must be <min>–<max> characters" when an optional string is set and out of range. */
std::optional<std::string> Length(const char *field, const std::optional<std::string> &value, size_t min, size_t max) {
    if (!value) return std::nullopt;
    const size_t n = CodePoints(*value);
    if (n >= min && n <= max) return std::nullopt;
    return std::string(field) + " must be " + std::to_string(min) + "–" + std::to_string(max) + " characters (got " +
           std::to_string(n) + ")";
}

/** Length for a field whose name is built at run time (buttons[i].label). */
std::optional<std::string> NamedLength(const std::string &field, const std::string &value, size_t min, size_t max) {
    return Length(field.c_str(), value, min, max);
}

#define SVCPP_CHECK(expr) \
    if (auto error = (expr)) return error

}  // namespace

std::optional<std::string> ValidateActivity(const Activity &a) {
    // The platform accepts these four (PROTOCOL.md §10.2; SET_ACTIVITY accepts the same).
    if (a.type != ActivityTypes::Playing && a.type != ActivityTypes::Listening && a.type != ActivityTypes::Watching &&
        a.type != ActivityTypes::Competing)
        return std::string("type must be Playing, Listening, Watching or Competing (got ") + ToString(a.type) + ")";
    SVCPP_CHECK(Length("name", a.name.empty() ? std::nullopt : std::optional<std::string>(a.name), 1, 128));
    SVCPP_CHECK(Length("state", a.state, 2, 128));
    SVCPP_CHECK(Length("stateUrl", a.stateUrl, 2, 256));
    SVCPP_CHECK(Length("details", a.details, 2, 128));
    SVCPP_CHECK(Length("detailsUrl", a.detailsUrl, 2, 256));
    if (a.assets) {
        SVCPP_CHECK(Length("assets.largeImage", a.assets->largeImage, 1, 300));
        SVCPP_CHECK(Length("assets.largeText", a.assets->largeText, 2, 128));
        SVCPP_CHECK(Length("assets.largeUrl", a.assets->largeUrl, 1, 256));
        SVCPP_CHECK(Length("assets.smallImage", a.assets->smallImage, 1, 300));
        SVCPP_CHECK(Length("assets.smallText", a.assets->smallText, 2, 128));
        SVCPP_CHECK(Length("assets.smallUrl", a.assets->smallUrl, 1, 256));
        SVCPP_CHECK(Length("assets.inviteCoverImage", a.assets->inviteCoverImage, 1, 300));
    }
    if (a.timestamps && a.timestamps->start && a.timestamps->end &&
        ToMilliseconds(a.timestamps->end) < ToMilliseconds(a.timestamps->start))
        return std::string("timestamps.end must not be before timestamps.start");
    if (a.party) {
        SVCPP_CHECK(Length("party.id", a.party->id, 2, 128));
        if (a.party->currentSize < 1) return std::string("party.currentSize must be at least 1");
        if (a.party->maxSize < 0) return std::string("party.maxSize must not be negative");
        if (a.party->maxSize > 0 && a.party->maxSize < a.party->currentSize)
            return std::string("party.maxSize must not be below party.currentSize");
    }
    if (a.secrets) SVCPP_CHECK(Length("secrets.join", a.secrets->join, 2, 128));
    if (a.buttons.size() > 2) return "buttons: at most 2 (got " + std::to_string(a.buttons.size()) + ")";
    for (size_t i = 0; i < a.buttons.size(); ++i) {
        const std::string at = "buttons[" + std::to_string(i) + "].";
        SVCPP_CHECK(NamedLength(at + "label", a.buttons[i].label, 1, 32));
        SVCPP_CHECK(NamedLength(at + "url", a.buttons[i].url, 1, 512));
    }
    return std::nullopt;
}

#undef SVCPP_CHECK

}  // namespace svcpp::core::presence
