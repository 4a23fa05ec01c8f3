// The tolerant JSON field readers: absent or wrong-typed fields read as defaults, never throw.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "net/json_fields.hpp"
#include "users/user_cache.hpp"

using namespace svcpp::core;

TEST(WireFields, ReadPresentFields) {
    auto o = nlohmann::json::parse(R"({"id":"1234","name":"n","n":7,"b":true,"user":{"id":"5"}})");
    EXPECT_EQ(wire::Snowflake(o, "id"), 1234u);
    EXPECT_EQ(wire::String(o, "name"), "n");
    EXPECT_EQ(wire::Int(o, "n", -1), 7);
    EXPECT_TRUE(wire::Bool(o, "b"));
    EXPECT_EQ(wire::Snowflake(wire::Member(o, "user"), "id"), 5u);
}

TEST(WireFields, WrongTypesAndAbsenceReadAsDefaults) {
    auto o = nlohmann::json::parse(R"({"id":1234,"name":5,"n":"7","b":"true","bad":"12x"})");
    EXPECT_EQ(wire::Snowflake(o, "id"), 0u);
    EXPECT_EQ(wire::Snowflake(o, "bad"), 0u);
    EXPECT_EQ(wire::String(o, "name"), "");
    EXPECT_FALSE(wire::OptionalString(o, "missing"));
    EXPECT_EQ(wire::Int(o, "n", -1), -1);
    EXPECT_FALSE(wire::Bool(o, "b"));
    EXPECT_TRUE(wire::Member(o, "missing").is_null());
    const nlohmann::json notAnObject = nlohmann::json::array({1, 2});
    EXPECT_EQ(wire::String(notAnObject, "x"), "");
    EXPECT_TRUE(wire::Member(nullptr, "x").is_null());
}

TEST(WireFields, ParseUserToleratesOddPayloads) {
    auto user =
        ParseUser(nlohmann::json::parse(R"({"id":"9","username":"u","is_provisional":"yes","primary_guild":7})"));
    EXPECT_EQ(user.id, 9u);
    EXPECT_EQ(user.username, "u");
    EXPECT_FALSE(user.provisional);
    EXPECT_FALSE(user.guildTag);
    EXPECT_EQ(ParseUser(nlohmann::json("not a user")).id, 0u);
}
