#include "net/json_maps.hpp"

#include <chrono>
#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

#include "net/json_fields.hpp"

namespace svcpp::core::wire {

namespace {

/** `count` decimal digits at text[at] into `out`; false when any is missing or not a digit. */
bool Digits(std::string_view text, std::size_t at, std::size_t count, int &out) {
    if (at + count > text.size()) return false;
    int value = 0;
    for (std::size_t i = at; i < at + count; ++i) {
        if (text[i] < '0' || text[i] > '9') return false;
        value = value * 10 + (text[i] - '0');
    }
    out = value;
    return true;
}

bool At(std::string_view text, std::size_t at, char c) { return at < text.size() && text[at] == c; }

}  // namespace

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
    const nlohmann::json &value = Member(object, key);
    if (!value.is_string()) return 0;
    // Read in place, by hand: every message carries one or two timestamps, and a copy of the text, sscanf and timegm
    // cost more than the rest of its reading.
    const std::string_view text = value.get_ref<const std::string &>();
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!Digits(text, 0, 4, year) || !At(text, 4, '-') || !Digits(text, 5, 2, month) || !At(text, 7, '-') ||
        !Digits(text, 8, 2, day) || !At(text, 10, 'T') || !Digits(text, 11, 2, hour) || !At(text, 13, ':') ||
        !Digits(text, 14, 2, minute) || !At(text, 16, ':') || !Digits(text, 17, 2, second)) {
        return 0;
    }
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return 0;
    std::size_t at = 19;
    // Fraction: the first three digits are milliseconds, further digits are ignored.
    int64_t millis = 0;
    if (At(text, at, '.')) {
        ++at;
        int digits = 0;
        for (; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at, ++digits)
            if (digits < 3) millis = millis * 10 + (text[at] - '0');
        for (; digits < 3; ++digits) millis *= 10;
    }
    int64_t offsetSeconds = 0;
    if (At(text, at, '+') || At(text, at, '-')) {
        int hours = 0, minutes = 0;
        if (!Digits(text, at + 1, 2, hours) || !At(text, at + 3, ':') || !Digits(text, at + 4, 2, minutes)) return 0;
        offsetSeconds = (hours * 3600 + minutes * 60) * (text[at] == '+' ? 1 : -1);
        at += 6;
    } else if (At(text, at, 'Z') || At(text, at, 'z')) {
        ++at;
    }
    if (at != text.size()) return 0;
    // A day past its month's end counts on into the next, as timegm does (C++20's sys_days of such a date).
    const std::chrono::year_month_day date{std::chrono::year(year), std::chrono::month(unsigned(month)),
                                           std::chrono::day(unsigned(day))};
    const int64_t days = std::chrono::sys_days(date).time_since_epoch().count();
    const int64_t seconds = days * 86400 + hour * 3600 + minute * 60 + second;
    if (seconds < 0) return 0;
    const int64_t ms = (seconds - offsetSeconds) * 1000 + millis;
    return ms > 0 ? static_cast<uint64_t>(ms) : 0;
}

}  // namespace svcpp::core::wire
