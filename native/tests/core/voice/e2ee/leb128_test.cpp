#include <gtest/gtest.h>

#include <vector>

#include "voice/e2ee/leb128.hpp"

using namespace svcpp::core::voice::e2ee;

TEST(Leb128, RoundTripsAtEachByteBoundary) {
    for (uint64_t value : std::vector<uint64_t>{0, 1, 127, 128, 300, 16383, 16384, 0xffffffff, UINT64_MAX}) {
        std::vector<uint8_t> buffer(10);
        std::size_t size = WriteLeb128(value, buffer);
        ASSERT_EQ(size, Leb128Size(value)) << value;
        std::size_t position = 0;
        EXPECT_EQ(ReadLeb128(std::span<const uint8_t>(buffer.data(), size), position), value);
        EXPECT_EQ(position, size);
    }
    std::vector<uint8_t> buffer(2);
    EXPECT_EQ(WriteLeb128(300, buffer), 2u);
    EXPECT_EQ(buffer, (std::vector<uint8_t>{0xac, 0x02}));  // the textbook example
}

TEST(Leb128, TruncatedOverlongAndTooSmallAreRejected) {
    std::vector<uint8_t> truncated = {0x80, 0x80};
    std::size_t position = 0;
    EXPECT_EQ(ReadLeb128(truncated, position), std::nullopt);
    EXPECT_EQ(position, 0u);
    std::vector<uint8_t> overflow(9, 0xff);
    overflow.push_back(0x02);  // the 10th byte may only hold 1 bit
    EXPECT_EQ(ReadLeb128(overflow, position), std::nullopt);
    std::vector<uint8_t> small(1);
    EXPECT_EQ(WriteLeb128(128, small), 0u);
}
