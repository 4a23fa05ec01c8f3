#include "net/json_maps.hpp"

#include <cstdio>
#include <ctime>

#include <nlohmann/json.hpp>

#include "net/json_fields.hpp"

namespace svcpp::core::wire {

Properties StringMap(const nlohmann::json &object, const char *key) {
    Properties map;
    const nlohmann::json &value = Member(object, key);
    if (!value.is_object()) return map;
    for (const auto &[k, v] : value.items())
        if (v.is_string()) map.emplace(k, v.get<std::string>());
    return map;
}

nlohmann::json MapJson(const Properties &map) {
    nlohmann::json object = nlohmann::json::object();
    for (const auto &[k, v] : map) object[k] = v;
    return object;
}

uint64_t TimestampMs(const nlohmann::json &object, const char *key) {
    const auto text = OptionalString(object, key);
    if (!text) return 0;
    std::tm tm{};
    int consumed = 0;
    if (std::sscanf(text->c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                    &tm.tm_sec, &consumed) != 6)
        return 0;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    const time_t seconds = timegm(&tm);
    if (seconds < 0) return 0;
    const char *rest = text->c_str() + consumed;
    // Fraction: the first three digits are milliseconds, further digits are ignored.
    int64_t millis = 0;
    if (*rest == '.') {
        ++rest;
        int digits = 0;
        for (; *rest >= '0' && *rest <= '9'; ++rest, ++digits)
            if (digits < 3) millis = millis * 10 + (*rest - '0');
        for (; digits < 3; ++digits) millis *= 10;
    }
    int64_t offsetSeconds = 0;
    if (*rest == '+' || *rest == '-') {
        int hours = 0, minutes = 0;
        if (std::sscanf(rest + 1, "%2d:%2d", &hours, &minutes) != 2) return 0;
        offsetSeconds = (hours * 3600 + minutes * 60) * (*rest == '+' ? 1 : -1);
    } else if (*rest != 'Z' && *rest != 'z' && *rest != '\0') {
        return 0;
    }
    const int64_t ms = (static_cast<int64_t>(seconds) - offsetSeconds) * 1000 + millis;
    return ms > 0 ? static_cast<uint64_t>(ms) : 0;
}

}  // namespace svcpp::core::wire
