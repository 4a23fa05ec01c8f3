#include "net/json_fields.hpp"

#include <cstdlib>
#include <nlohmann/json.hpp>

namespace svcpp::core::wire {

namespace {
const nlohmann::json *Field(const nlohmann::json &object, const char *key) {
    if (!object.is_object()) return nullptr;
    auto it = object.find(key);
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
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return 0;
    return std::strtoull(text.c_str(), nullptr, 10);
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
