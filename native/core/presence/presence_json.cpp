#include "presence/presence_json.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "net/json_fields.hpp"

namespace svcpp::core::presence {

namespace {
using nlohmann::json;

void PutOptional(json &out, const char *key, const std::optional<std::string> &value) {
    if (value) out[key] = *value;
}

uint64_t Unsigned(const json &object, const char *key) {
    const json &v = wire::Member(object, key);
    if (v.is_number_unsigned()) return v.get<uint64_t>();
    if (v.is_number_integer()) return static_cast<uint64_t>(std::max<int64_t>(0, v.get<int64_t>()));
    if (v.is_number_float()) return v.get<double>() > 0 ? static_cast<uint64_t>(v.get<double>()) : 0;
    return 0;
}

std::optional<uint64_t> OptionalSnowflake(const json &object, const char *key) {
    const uint64_t id = wire::Snowflake(object, key);
    return id ? std::optional<uint64_t>(id) : std::nullopt;
}

template <class E>
std::optional<E> OptionalEnum(const json &object, const char *key, bool (*valid)(int32_t)) {
    const json &v = wire::Member(object, key);
    if (!v.is_number_integer() || !valid(v.get<int32_t>())) return std::nullopt;
    return static_cast<E>(v.get<int32_t>());
}
}  // namespace

StatusType ParseStatus(const std::string &status) {
    if (status == "online") return StatusType::Online;
    if (status == "idle") return StatusType::Idle;
    if (status == "dnd") return StatusType::Dnd;
    if (status == "invisible") return StatusType::Invisible;
    if (status == "offline") return StatusType::Offline;
    return StatusType::Unknown;
}

const char *SettableStatusWire(StatusType status) {
    switch (status) {
        case StatusType::Online: return "online";
        case StatusType::Idle: return "idle";
        case StatusType::Dnd: return "dnd";
        case StatusType::Invisible: return "invisible";
        default: return nullptr;
    }
}

uint64_t ToMilliseconds(uint64_t timestamp) { return timestamp < kSecondsBelow ? timestamp * 1000 : timestamp; }

json ActivityToWire(const Activity &a) {
    json out = json::object();
    if (!a.name.empty()) out["name"] = a.name;
    out["type"] = static_cast<int32_t>(a.type);
    if (a.statusDisplayType) out["status_display_type"] = static_cast<int32_t>(*a.statusDisplayType);
    PutOptional(out, "state", a.state);
    PutOptional(out, "state_url", a.stateUrl);
    PutOptional(out, "details", a.details);
    PutOptional(out, "details_url", a.detailsUrl);
    if (a.parentApplicationId) out["parent_application_id"] = std::to_string(*a.parentApplicationId);
    if (a.assets) {
        json assets = json::object();
        PutOptional(assets, "large_image", a.assets->largeImage);
        PutOptional(assets, "large_text", a.assets->largeText);
        PutOptional(assets, "large_url", a.assets->largeUrl);
        PutOptional(assets, "small_image", a.assets->smallImage);
        PutOptional(assets, "small_text", a.assets->smallText);
        PutOptional(assets, "small_url", a.assets->smallUrl);
        PutOptional(assets, "invite_cover_image", a.assets->inviteCoverImage);
        out["assets"] = std::move(assets);
    }
    if (a.timestamps) {
        json timestamps = json::object();
        if (a.timestamps->start) timestamps["start"] = ToMilliseconds(a.timestamps->start);
        if (a.timestamps->end) timestamps["end"] = ToMilliseconds(a.timestamps->end);
        out["timestamps"] = std::move(timestamps);
    }
    if (a.party) {
        out["party"] = {{"id", a.party->id},
                        {"size", {a.party->currentSize, a.party->maxSize}},
                        {"privacy", static_cast<int32_t>(a.party->privacy)}};
    }
    if (a.secrets) out["secrets"] = {{"join", a.secrets->join}};
    if (!a.buttons.empty()) {
        json buttons = json::array();
        for (const auto &b : a.buttons) buttons.push_back({{"label", b.label}, {"url", b.url}});
        out["buttons"] = std::move(buttons);
    }
    if (static_cast<int32_t>(a.supportedPlatforms) != 0)
        out["supported_platforms"] = static_cast<int32_t>(a.supportedPlatforms);
    return out;
}

Activity ActivityFromWire(const json &o) {
    Activity a;
    a.name = wire::String(o, "name");
    a.type = OptionalEnum<ActivityTypes>(o, "type", IsActivityTypes).value_or(ActivityTypes::Playing);
    a.statusDisplayType = OptionalEnum<StatusDisplayTypes>(o, "status_display_type", IsStatusDisplayTypes);
    a.state = wire::OptionalString(o, "state");
    a.stateUrl = wire::OptionalString(o, "state_url");
    a.details = wire::OptionalString(o, "details");
    a.detailsUrl = wire::OptionalString(o, "details_url");
    a.applicationId = OptionalSnowflake(o, "application_id");
    a.parentApplicationId = OptionalSnowflake(o, "parent_application_id");
    if (const json &assets = wire::Member(o, "assets"); assets.is_object()) {
        ActivityAssets x;
        x.largeImage = wire::OptionalString(assets, "large_image");
        x.largeText = wire::OptionalString(assets, "large_text");
        x.largeUrl = wire::OptionalString(assets, "large_url");
        x.smallImage = wire::OptionalString(assets, "small_image");
        x.smallText = wire::OptionalString(assets, "small_text");
        x.smallUrl = wire::OptionalString(assets, "small_url");
        x.inviteCoverImage = wire::OptionalString(assets, "invite_cover_image");
        a.assets = std::move(x);
    }
    if (const json &timestamps = wire::Member(o, "timestamps"); timestamps.is_object()) {
        a.timestamps = ActivityTimestamps{ToMilliseconds(Unsigned(timestamps, "start")),
                                          ToMilliseconds(Unsigned(timestamps, "end"))};
    }
    if (const json &party = wire::Member(o, "party"); party.is_object()) {
        ActivityParty p;
        p.id = wire::String(party, "id");
        const json &size = wire::Member(party, "size");
        if (size.is_array() && size.size() == 2 && size[0].is_number_integer() && size[1].is_number_integer()) {
            p.currentSize = size[0].get<int32_t>();
            p.maxSize = size[1].get<int32_t>();
        }
        p.privacy = OptionalEnum<ActivityPartyPrivacy>(party, "privacy", IsActivityPartyPrivacy)
                        .value_or(ActivityPartyPrivacy::Private);
        a.party = std::move(p);
    }
    if (const json &secrets = wire::Member(o, "secrets"); secrets.is_object())
        a.secrets = ActivitySecrets{wire::String(secrets, "join")};
    // Buttons come back as sent, with their URLs (PROTOCOL.md §10.2); anything else in the list is skipped.
    if (const json &buttons = wire::Member(o, "buttons"); buttons.is_array()) {
        for (const auto &b : buttons)
            if (b.is_object()) a.buttons.push_back(ActivityButton{wire::String(b, "label"), wire::String(b, "url")});
    }
    a.supportedPlatforms = static_cast<ActivityGamePlatforms>(
        OptionalEnum<ActivityGamePlatforms>(o, "supported_platforms", IsActivityGamePlatforms)
            .value_or(ActivityGamePlatforms{}));
    return a;
}

std::optional<Activity> GameActivityOf(const json &activities, uint64_t applicationId) {
    if (!activities.is_array() || applicationId == 0) return std::nullopt;
    for (const auto &activity : activities) {
        if (activity.is_object() && wire::Snowflake(activity, "application_id") == applicationId)
            return ActivityFromWire(activity);
    }
    return std::nullopt;
}

}  // namespace svcpp::core::presence
