// The TLS presentation-language codec: varint boundaries (RFC 9420 §2.1.2 examples), vectors, optionals, and strict
// rejection of malformed input.
#include <gtest/gtest.h>

#include "mls/tls_codec.hpp"
#include "vectors.hpp"

using namespace svcpp::core::mls;
using test::Hex;
using test::ToHex;

TEST(TlsCodec, IntegersAreBigEndian) {
    tls::Writer w;
    w.U8(0x01);
    w.U16(0x0203);
    w.U32(0x04050607);
    w.U64(0x08090a0b0c0d0e0fULL);
    EXPECT_EQ(ToHex(w.Bytes()), "0102030405060708090a0b0c0d0e0f");
    tls::Reader r(w.Bytes());
    EXPECT_EQ(r.U8(), 0x01);
    EXPECT_EQ(r.U16(), 0x0203);
    EXPECT_EQ(r.U32(), 0x04050607u);
    EXPECT_EQ(r.U64(), 0x08090a0b0c0d0e0fULL);
    r.ExpectEnd();
}

TEST(TlsCodec, VarintUsesTheShortestFormAtEachBoundary) {
    struct Case {
        uint64_t value;
        const char *hex;
    };
    // RFC 9420 §2.1.2's examples plus each boundary.
    for (const Case &c :
         {Case{0, "00"}, Case{37, "25"}, Case{63, "3f"}, Case{64, "4040"}, Case{15293, "7bbd"}, Case{16383, "7fff"},
          Case{16384, "80004000"}, Case{494878333, "9d7f3e7d"}, Case{tls::kMaxVarint, "bfffffff"}}) {
        tls::Writer w;
        w.Varint(c.value);
        EXPECT_EQ(ToHex(w.Bytes()), c.hex) << c.value;
        tls::Reader r(w.Bytes());
        EXPECT_EQ(r.Varint(), c.value);
        r.ExpectEnd();
    }
}

TEST(TlsCodec, VarintAboveTheLimitIsRefusedWhenWriting) {
    tls::Writer w;
    EXPECT_THROW(w.Varint(tls::kMaxVarint + 1), Error);
    EXPECT_TRUE(w.Bytes().empty());
}

TEST(TlsCodec, VarintEightByteFormIsRejected) {
    Bytes input = Hex("c2197c5eff14e88c");  // QUIC's 8-byte example: invalid in MLS
    tls::Reader r(input);
    EXPECT_THROW(r.Varint(), DecodeError);
}

TEST(TlsCodec, VarintNotMinimalIsRejected) {
    for (const char *hex : {"4025", "80000025", "80003fff"}) {
        Bytes input = Hex(hex);
        tls::Reader r(input);
        EXPECT_THROW(r.Varint(), DecodeError) << hex;
    }
}

TEST(TlsCodec, OpaqueRoundTripsAndChecksItsLength) {
    tls::Writer w;
    w.Opaque(Hex("aabbcc"));
    w.Opaque({});
    EXPECT_EQ(ToHex(w.Bytes()), "03aabbcc00");
    tls::Reader r(w.Bytes());
    EXPECT_EQ(ToHex(r.Opaque()), "aabbcc");
    EXPECT_TRUE(r.Opaque().empty());
    r.ExpectEnd();

    Bytes tooLong = Hex("05aabbcc");  // claims 5 bytes, has 3
    tls::Reader bad(tooLong);
    EXPECT_THROW(bad.Opaque(), DecodeError);
}

TEST(TlsCodec, VectorOfStructsRoundTrips) {
    std::vector<uint16_t> items = {1, 2, 0xbeef};
    tls::Writer w;
    w.Vector(items, [](tls::Writer &out, uint16_t v) { out.U16(v); });
    EXPECT_EQ(ToHex(w.Bytes()), "0600010002beef");
    tls::Reader r(w.Bytes());
    auto decoded = r.Vector<uint16_t>([](tls::Reader &in) { return in.U16(); });
    EXPECT_EQ(decoded, items);
    r.ExpectEnd();
}

TEST(TlsCodec, VectorWhoseItemsOverrunItsBodyIsRejected) {
    Bytes input = Hex("03000100");  // a 3-byte body cannot hold two u16 items
    tls::Reader r(input);
    EXPECT_THROW(r.Vector<uint16_t>([](tls::Reader &in) { return in.U16(); }), DecodeError);
}

TEST(TlsCodec, OptionalRoundTripsAndRejectsABadPresenceByte) {
    tls::Writer w;
    w.Optional(std::optional<uint8_t>(7), [](tls::Writer &out, uint8_t v) { out.U8(v); });
    w.Optional(std::optional<uint8_t>(), [](tls::Writer &out, uint8_t v) { out.U8(v); });
    EXPECT_EQ(ToHex(w.Bytes()), "010700");
    tls::Reader r(w.Bytes());
    auto read = [](tls::Reader &in) { return in.U8(); };
    EXPECT_EQ(r.Optional<uint8_t>(read), std::optional<uint8_t>(7));
    EXPECT_EQ(r.Optional<uint8_t>(read), std::nullopt);

    Bytes bad = Hex("0207");
    tls::Reader badReader(bad);
    EXPECT_THROW(badReader.Optional<uint8_t>(read), DecodeError);
}

TEST(TlsCodec, TruncatedIntegersAndTrailingBytesAreErrors) {
    Bytes three = Hex("010203");
    tls::Reader r(three);
    EXPECT_THROW(r.U32(), DecodeError);
    EXPECT_EQ(r.Position(), 0u);  // a failed read consumes nothing
    EXPECT_EQ(r.U16(), 0x0102);
    EXPECT_THROW(r.ExpectEnd(), DecodeError);
    tls::Reader empty(ByteView{});
    EXPECT_THROW(empty.Varint(), DecodeError);
}
