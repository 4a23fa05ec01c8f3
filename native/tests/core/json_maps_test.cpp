// wire::TimestampMs (ISO 8601 → Unix milliseconds, read in place) and the snowflake reader's edges.
#include <ctime>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "c_library_timegm.hpp"
#include "net/json_fields.hpp"
#include "net/json_maps.hpp"

using namespace svcpp::core;
using nlohmann::json;

namespace {

uint64_t Timestamp(const std::string &text) { return wire::TimestampMs(json{{"t", text}}, "t"); }

/** The reference: the C library's timegm of the same fields. */
uint64_t ByTimegm(int year, int month, int day, int hour, int minute, int second) {
    std::tm tm{};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    return static_cast<uint64_t>(svcpp::test::CLibraryTimegm(tm)) * 1000;
}

}  // namespace

TEST(WireTimestamp, ReadsTheShapesServersSend) {
    EXPECT_EQ(Timestamp("1970-01-01T00:00:01Z"), 1000u);
    EXPECT_EQ(Timestamp("2024-05-01T10:00:00.123Z"), 1714557600123u);
    EXPECT_EQ(Timestamp("2024-05-01T10:00:00.123456+00:00"), 1714557600123u);  // digits past the third are dropped
    EXPECT_EQ(Timestamp("2024-05-01T10:00:00.1Z"), 1714557600100u);
    EXPECT_EQ(Timestamp("2024-05-01T10:00:00"), 1714557600000u);  // no zone: UTC
    EXPECT_EQ(Timestamp("2024-05-01T12:30:00+02:30"), 1714557600000u);
    EXPECT_EQ(Timestamp("2024-05-01T07:00:00-03:00"), 1714557600000u);
    EXPECT_EQ(Timestamp("2024-02-29T00:00:00z"), ByTimegm(2024, 2, 29, 0, 0, 0));
}

TEST(WireTimestamp, AgreesWithTimegmOverFourCenturies) {
    std::mt19937 random(20261125);
    for (int i = 0; i < 20000; ++i) {
        const int year = 1970 + int(random() % 430), month = 1 + int(random() % 12), day = 1 + int(random() % 28);
        const int hour = int(random() % 24), minute = int(random() % 60), second = int(random() % 60);
        char text[32];
        std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02dZ", year, month, day, hour, minute, second);
        ASSERT_EQ(Timestamp(text), ByTimegm(year, month, day, hour, minute, second)) << text;
    }
    // A day past the month's end counts on into the next, as timegm does.
    EXPECT_EQ(Timestamp("2023-02-30T00:00:00Z"), ByTimegm(2023, 3, 2, 0, 0, 0));
}

TEST(WireTimestamp, MalformedOrAbsentReadsAsZero) {
    for (const char *bad :
         {"", "2024", "2024-05-01", "2024-05-01 10:00:00Z", "2024-5-01T10:00:00Z", "2024-05-01T10:00Z",
          "2024-13-01T10:00:00Z", "2024-05-00T10:00:00Z", "2024-05-01T24:00:00Z", "2024-05-01T10:60:00Z",
          "2024-05-01T10:00:00+0200", "2024-05-01T10:00:00+02", "2024-05-01T10:00:00Zjunk", "2024-05-01T10:00:00.123Q",
          "x024-05-01T10:00:00Z", "1969-12-31T23:59:59Z", "1970-01-01T00:00:00Z"}) {
        EXPECT_EQ(Timestamp(bad), 0u) << bad;
    }
    EXPECT_EQ(wire::TimestampMs(json{{"t", 5}}, "t"), 0u);
    EXPECT_EQ(wire::TimestampMs(json::object(), "t"), 0u);
    EXPECT_EQ(wire::TimestampMs(json::array(), "t"), 0u);
}

TEST(WireSnowflake, DigitsOnlyAndSaturatingPastSixtyFourBits) {
    const json o = {{"ok", "1234"},
                    {"max", "18446744073709551615"},
                    {"past", "18446744073709551616"},
                    {"sign", "-1"},
                    {"plus", "+1"},
                    {"space", " 1"},
                    {"tail", "1 "},
                    {"hex", "0x1"},
                    {"empty", ""}};
    EXPECT_EQ(wire::Snowflake(o, "ok"), 1234u);
    EXPECT_EQ(wire::Snowflake(o, "max"), UINT64_MAX);
    EXPECT_EQ(wire::Snowflake(o, "past"), UINT64_MAX);
    for (const char *bad : {"sign", "plus", "space", "tail", "hex", "empty"})
        EXPECT_EQ(wire::Snowflake(o, bad), 0u) << bad;
}
