// FrameReader: a gateway frame's envelope read while parsing, `d` the only DOM. Every rule of gateway/frame_reader.hpp,
// and the same reading as nlohmann's DOM of the whole frame (what the session used before) on frames of every shape.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gateway/frame_reader.hpp"
#include "net/json_text.hpp"

using namespace svcpp::core;
using nlohmann::json;

namespace {

gateway::Frame Read(const std::string &text, gateway::FrameReader::WantsData wants = nullptr, bool *ok = nullptr) {
    gateway::FrameReader reader(std::move(wants));
    gateway::Frame frame;
    const bool read = reader.Read(text, frame);
    if (ok) *ok = read;
    return frame;
}

bool Reads(const std::string &text) {
    bool ok = false;
    Read(text, nullptr, &ok);
    return ok;
}

}  // namespace

TEST(GatewayFrameReader, ReadsThePlatformsDispatch) {
    bool ok = false;
    const auto frame =
        Read(R"({"op":0,"t":"USER_UPDATE","d":{"id":"5","tags":[1,"x",null,true,2.5]},"s":42})", nullptr, &ok);
    ASSERT_TRUE(ok);
    EXPECT_EQ(frame.op, 0);
    EXPECT_EQ(frame.seq, 42);
    EXPECT_TRUE(frame.hasType);
    EXPECT_EQ(frame.type, "USER_UPDATE");
    EXPECT_EQ(frame.data, json::parse(R"({"id":"5","tags":[1,"x",null,true,2.5]})"));
    EXPECT_FALSE(frame.dataSkipped);
}

TEST(GatewayFrameReader, AnAbsentDataIsNull) {
    const auto frame = Read(R"({"op":11})");
    EXPECT_EQ(frame.op, 11);
    EXPECT_TRUE(frame.data.is_null());
    EXPECT_FALSE(frame.seq);
    EXPECT_FALSE(frame.hasType);
}

TEST(GatewayFrameReader, TextThatIsNotAJsonObjectIsNoFrame) {
    EXPECT_FALSE(Reads(""));
    EXPECT_FALSE(Reads("not json"));
    EXPECT_FALSE(Reads("[1,2]"));
    EXPECT_FALSE(Reads("42"));
    EXPECT_FALSE(Reads(R"("op")"));
    EXPECT_FALSE(Reads(R"({"op":0,"d":{)"));
    EXPECT_FALSE(Reads(R"({"op":0} {"op":1})")) << "one value only";
    EXPECT_FALSE(Reads(R"({"op":0}])"));
    EXPECT_TRUE(Reads(" {} "));
}

TEST(GatewayFrameReader, OpAndSequenceCountOnlyAsIntegers) {
    EXPECT_FALSE(Read(R"({"op":1.0})").op);
    EXPECT_FALSE(Read(R"({"op":"0"})").op);
    EXPECT_FALSE(Read(R"({"op":{"x":0}})").op);
    EXPECT_FALSE(Read(R"({"op":0,"s":"7"})").seq);
    EXPECT_FALSE(Read(R"({"op":0,"s":null})").seq);
    EXPECT_EQ(Read(R"({"op":0,"s":-3})").seq, -3);
    // Beyond INT64_MAX: still an integer, read as get<int64_t>() reads it.
    EXPECT_EQ(Read(R"({"op":0,"s":18446744073709551615})").seq, json::parse("18446744073709551615").get<int64_t>());
}

TEST(GatewayFrameReader, TheTypeCountsOnlyAsAString) {
    EXPECT_FALSE(Read(R"({"op":0,"t":null})").hasType);
    EXPECT_FALSE(Read(R"({"op":0,"t":["READY"]})").hasType);
}

TEST(GatewayFrameReader, OfAKeyGivenTwiceTheLastCounts) {
    const auto frame = Read(R"({"op":0,"t":"A","s":1,"d":{"k":1,"k":2},"op":1,"t":"B","s":2,"d":[3]})");
    EXPECT_EQ(frame.op, 1);
    EXPECT_EQ(frame.type, "B");
    EXPECT_EQ(frame.seq, 2);
    EXPECT_EQ(frame.data, json::parse("[3]"));
    EXPECT_FALSE(Read(R"({"op":0,"op":"x"})").op) << "a wrong-typed repeat unsets the first";
    EXPECT_FALSE(Read(R"({"t":"A","t":5,"op":0})").hasType);
    EXPECT_EQ(Read(R"({"op":0,"d":{"k":1,"k":{"deep":[1]}}})").data, json::parse(R"({"k":{"deep":[1]}})"));
}

TEST(GatewayFrameReader, UnknownKeysAreSkippedWhateverTheyHold) {
    const auto frame = Read(R"({"x":{"op":5,"d":[{"t":"Z"}]},"op":0,"y":[[],{}],"t":"T","d":7,"s":3})");
    EXPECT_EQ(frame.op, 0);
    EXPECT_EQ(frame.type, "T");
    EXPECT_EQ(frame.data, 7);
    EXPECT_EQ(frame.seq, 3);
}

TEST(GatewayFrameReader, LoneSurrogatesReadAsTheReplacementCharacter) {
    const auto frame = Read(R"({"op":0,"t":"T","d":{"name":"a\ud800b"},"s":1})");
    EXPECT_EQ(frame.data["name"],
              "a\xEF\xBF\xBD"
              "b");
}

TEST(GatewayFrameReader, AnUnwantedDispatchsDataIsCheckedButNotBuilt) {
    int asked = 0;
    auto wants = [&asked](std::string_view type) {
        ++asked;
        return type != "TYPING_START";
    };
    const auto skipped = Read(R"({"op":0,"t":"TYPING_START","d":{"user_id":"1","deep":[{"a":[1]}]},"s":9})", wants);
    EXPECT_TRUE(skipped.dataSkipped);
    EXPECT_TRUE(skipped.data.is_null());
    EXPECT_EQ(skipped.seq, 9) << "the envelope is still read";
    EXPECT_EQ(asked, 1);
    bool ok = true;
    Read(R"({"op":0,"t":"TYPING_START","d":{"user_id":},"s":9})", wants, &ok);
    EXPECT_FALSE(ok) << "a malformed d is still a malformed frame";
    const auto wanted = Read(R"({"op":0,"t":"USER_UPDATE","d":{"id":"1"},"s":10})", wants);
    EXPECT_FALSE(wanted.dataSkipped);
    EXPECT_EQ(wanted.data, json::parse(R"({"id":"1"})"));
}

TEST(GatewayFrameReader, OnlyADispatchWhoseTypeComesFirstCanBeSkipped) {
    auto wantsNothing = [](std::string_view) { return false; };
    EXPECT_EQ(Read(R"({"op":0,"d":{"a":1},"t":"X"})", wantsNothing).data, json::parse(R"({"a":1})"));
    EXPECT_EQ(Read(R"({"op":10,"t":"X","d":{"heartbeat_interval":1}})", wantsNothing).data,
              json::parse(R"({"heartbeat_interval":1})"));
}

TEST(GatewayFrameReader, AnOpOrTypeAfterASkippedDataIsReadAgainWhole) {
    auto wantsNothing = [](std::string_view) { return false; };
    const auto frame = Read(R"({"op":0,"t":"X","d":{"heartbeat_interval":45000},"op":10})", wantsNothing);
    EXPECT_EQ(frame.op, 10);
    EXPECT_FALSE(frame.dataSkipped);
    EXPECT_EQ(frame.data, json::parse(R"({"heartbeat_interval":45000})"));
}

TEST(GatewayFrameReader, AReaderReusedForManyFramesForgetsEachOne) {
    gateway::FrameReader reader;
    gateway::Frame frame;
    ASSERT_TRUE(reader.Read(R"({"op":0,"t":"LOBBY_MESSAGE_CREATE","d":{"id":"1"},"s":5})", frame));
    ASSERT_TRUE(reader.Read(R"({"op":11})", frame));
    EXPECT_EQ(frame.op, 11);
    EXPECT_FALSE(frame.hasType);
    EXPECT_TRUE(frame.type.empty());
    EXPECT_FALSE(frame.seq);
    EXPECT_TRUE(frame.data.is_null());
}

// The DOM of the whole frame is what the session read before: on every shape, the reader agrees with it.
TEST(GatewayFrameReader, AgreesWithTheDomOfTheWholeFrame) {
    const char *frames[] = {
        R"({"op":0,"t":"READY","d":{"user":{"id":"1"},"lobbies":[{"id":"2","members":[]}]},"s":1})",
        R"({"op":11,"d":null,"s":null,"t":null})",
        R"({"t":"MESSAGE_CREATE","s":4,"op":0,"d":{"content":"\u00e9\ud83d\ude00\\u","n":-1.5e3}})",
        R"({"op":9,"d":true})",
        R"({"op":10,"d":{"heartbeat_interval":41250.5}})",
        R"({"d":[],"op":0,"t":"EMPTY","s":0})",
        R"({"op":0,"t":"X","d":{"a":{"b":{"c":[[[]]]}}},"s":9223372036854775807})",
    };
    for (const char *text : frames) {
        SCOPED_TRACE(text);
        const json dom = net::ParseJson(text);
        bool ok = false;
        const auto frame = Read(text, nullptr, &ok);
        ASSERT_TRUE(ok);
        const json &op = dom["op"];
        EXPECT_EQ(frame.op, op.is_number_integer() ? std::optional<int64_t>(op.get<int64_t>()) : std::nullopt);
        const auto s = dom.find("s");
        EXPECT_EQ(frame.seq,
                  s != dom.end() && s->is_number_integer() ? std::optional<int64_t>(s->get<int64_t>()) : std::nullopt);
        const auto t = dom.find("t");
        EXPECT_EQ(frame.hasType, t != dom.end() && t->is_string());
        if (frame.hasType) EXPECT_EQ(frame.type, t->get<std::string>());
        EXPECT_EQ(frame.data, dom.value("d", json()));
    }
}
