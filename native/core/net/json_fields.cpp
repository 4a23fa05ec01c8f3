#include "net/json_fields.hpp"

#include <charconv>
#include <limits>
#include <string_view>

#include <nlohmann/json.hpp>

namespace svcpp::core::wire {

namespace {
const nlohmann::json *Field(const nlohmann::json &object, const char *key) {
    if (!object.is_object()) return nullptr;
    auto it = object.find(std::string_view(key));  // the length once, not at every comparison of the search
    return it == object.end() ? nullptr : &*it;
}
}  // namespace

const nlohmann::json &Member(const nlohmann::json &object, const char *key) {
    static const nlohmann::json null;
    const auto *field = Field(object, key);
    return field ? *field : null;
}

uint64_t Snowflake(const nlohmann::json &object, const char *key) {
    const auto *field = Field(object, key);
    if (!field || !field->is_string()) return 0;
    // Read in place: every dispatch reads several ids, and a copy of each would be a heap string (18+ digits).
    const std::string &text = field->get_ref<const std::string &>();
    uint64_t id = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (end != text.data() + text.size() || text.empty() || text.front() == '-') return 0;  // digits only
    return error == std::errc::result_out_of_range ? std::numeric_limits<uint64_t>::max()
                                                   : id;  // as strtoull saturates
}

std::optional<std::string> OptionalString(const nlohmann::json &object, const char *key) {
    const auto *field = Field(object, key);
    if (!field || !field->is_string()) return std::nullopt;
    return field->get<std::string>();
}

std::string String(const nlohmann::json &object, const char *key) { return OptionalString(object, key).value_or(""); }

int32_t Int(const nlohmann::json &object, const char *key, int32_t fallback) {
    const auto *field = Field(object, key);
    return field && field->is_number_integer() ? field->get<int32_t>() : fallback;
}

bool Bool(const nlohmann::json &object, const char *key) {
    const auto *field = Field(object, key);
    return field && field->is_boolean() && field->get<bool>();
}

}  // namespace svcpp::core::wire
