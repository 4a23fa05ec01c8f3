// The local RPC frame format: u32 LE opcode | u32 LE length | JSON body, with a 64 KiB cap on the body.
#include <gtest/gtest.h>

#include "rpc/frame_codec.hpp"

using namespace svcpp::core::rpc;

namespace {
std::string Header(uint32_t opcode, uint32_t length) {
    std::string out;
    for (uint32_t v : {opcode, length})
        for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
    return out;
}
}  // namespace

TEST(RpcFrameCodec, EncodesLittleEndianOpcodeAndLengthBeforeTheBody) {
    const std::string frame = EncodeFrame(Opcode::Frame, R"({"a":1})");
    EXPECT_EQ(frame, Header(1, 7) + R"({"a":1})");
    EXPECT_EQ(EncodeFrame(Opcode::Handshake, ""), Header(0, 0));
    EXPECT_EQ(EncodeFrame(Opcode::Pong, std::string(300, 'x')).substr(0, 8),
              Header(4, 300));  // 300 = 0x012C, two bytes
}

TEST(RpcFrameCodec, DecodesFramesSplitAnywhereAndSeveralInOneChunk) {
    const std::string stream =
        EncodeFrame(Opcode::Frame, "first") + EncodeFrame(Opcode::Ping, "") + EncodeFrame(Opcode::Close, "third");
    for (std::size_t split = 0; split <= stream.size(); ++split) {
        FrameDecoder decoder;
        std::vector<Frame> frames;
        decoder.Feed(std::string_view(stream).substr(0, split));
        while (auto f = decoder.Next()) frames.push_back(*f);
        decoder.Feed(std::string_view(stream).substr(split));
        while (auto f = decoder.Next()) frames.push_back(*f);
        ASSERT_EQ(frames.size(), 3u) << "split at " << split;
        EXPECT_EQ(frames[0].opcode, Opcode::Frame);
        EXPECT_EQ(frames[0].body, "first");
        EXPECT_EQ(frames[1].opcode, Opcode::Ping);
        EXPECT_EQ(frames[1].body, "");
        EXPECT_EQ(frames[2].opcode, Opcode::Close);
        EXPECT_EQ(frames[2].body, "third");
        EXPECT_FALSE(decoder.Failed());
        EXPECT_EQ(decoder.Buffered(), 0u);
    }
}

TEST(RpcFrameCodec, WaitsForTheWholeBody) {
    FrameDecoder decoder;
    decoder.Feed(Header(1, 10) + "12345");
    EXPECT_FALSE(decoder.Next());
    EXPECT_FALSE(decoder.Failed());
    EXPECT_EQ(decoder.Buffered(), 13u);
    decoder.Feed("67890");
    auto frame = decoder.Next();
    ASSERT_TRUE(frame);
    EXPECT_EQ(frame->body, "1234567890");
}

TEST(RpcFrameCodec, AcceptsTheLargestBodyAndRefusesOneByteMoreFromTheHeaderAlone) {
    FrameDecoder ok;
    ok.Feed(EncodeFrame(Opcode::Frame, std::string(kMaxFrameBytes, 'x')));
    auto frame = ok.Next();
    ASSERT_TRUE(frame);
    EXPECT_EQ(frame->body.size(), kMaxFrameBytes);

    FrameDecoder tooLarge;
    tooLarge.Feed(Header(1, kMaxFrameBytes + 1));  // no body sent: the header is enough to refuse
    EXPECT_FALSE(tooLarge.Next());
    EXPECT_TRUE(tooLarge.Failed());
    EXPECT_EQ(tooLarge.Failure(), "frame too large: 65537 bytes (at most 65536)");
}

TEST(RpcFrameCodec, AnUnknownOpcodePoisonsTheStream) {
    FrameDecoder decoder;
    decoder.Feed(Header(5, 2) + "{}" + EncodeFrame(Opcode::Frame, "{}"));
    EXPECT_FALSE(decoder.Next());
    EXPECT_EQ(decoder.Failure(), "unknown opcode 5");
    // Nothing after a bad header is trusted, even a well-formed frame.
    decoder.Feed(EncodeFrame(Opcode::Frame, "{}"));
    EXPECT_FALSE(decoder.Next());
}

TEST(RpcFrameCodec, FramesAfterAGoodOneAreStillReadWhenTheBufferIsCompacted) {
    FrameDecoder decoder;
    for (int i = 0; i < 1000; ++i) {
        decoder.Feed(EncodeFrame(Opcode::Frame, std::to_string(i)));
        auto frame = decoder.Next();
        ASSERT_TRUE(frame);
        EXPECT_EQ(frame->body, std::to_string(i));
    }
    EXPECT_EQ(decoder.Buffered(), 0u);
}
