// libFuzzer target: RTP and RTCP parsing of received datagrams (voice/media/rtp.cpp). Anything may arrive on the
// voice UDP socket; the parsers must refuse what is not RTP/RTCP and never read outside the packet. What they accept
// must be self-consistent: an RTP header never claims more bytes than the packet has.
#include <cstddef>
#include <cstdint>
#include <span>

#include "voice/media/rtp.hpp"

using namespace svcpp::core::voice;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::span<const uint8_t> packet(data, size);
    if (const auto header = ParseRtpHeader(packet)) {
        if (header->headerSize > size) __builtin_trap();
    }
    if (const auto report = ParseRtcp(packet)) {
        if (report->length > size || report->blockCount > report->blocks.size()) __builtin_trap();
    }
    (void)ClassifyPacket(packet);
    return 0;
}
