// libFuzzer target: the DAVE frame decryptor (native/core/voice/e2ee). Every media frame a relay forwards reaches
// FrameDecryptor::Decrypt; it must refuse anything not encrypted with the sender's key — never write past `out`,
// never return more bytes than the frame holds — and a frame the encryptor made from the same input must decrypt to
// the input, once (a replay is refused), and fail with any one bit flipped.
//
// Input: byte 0 picks the passthrough state and the flipped bit, the rest is the frame (and the plaintext of the
// round trip).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "voice/e2ee/frame_decryptor.hpp"
#include "voice/e2ee/frame_encryptor.hpp"
#include "voice/e2ee/key_ratchet.hpp"

using namespace svcpp::core;
using namespace svcpp::core::voice::e2ee;

namespace {

class FixedClock final : public Clock {
  public:
    TimePoint Now() const override { return TimePoint{} + std::chrono::hours(1); }
};

const mls::Bytes kExporterSecret(32, 0x5A);
constexpr uint64_t kSender = 1234;

std::unique_ptr<KeyRatchet> SenderRatchet() {
    return std::make_unique<KeyRatchet>(SenderBaseSecret(kExporterSecret, kSender));
}

void Check(bool condition) {
    if (!condition) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    static FixedClock clock;
    const std::span<const uint8_t> frame(data + 1, size - 1);

    // Arbitrary bytes as a received frame.
    FrameDecryptor decryptor(clock);
    decryptor.TransitionToKeyRatchet(SenderRatchet());
    if (data[0] & 1) decryptor.SetPassthrough(true);
    std::vector<uint8_t> out(frame.size() + 16, 0xAA);
    FrameDecryptor::Result result = decryptor.Decrypt(frame, std::span<uint8_t>(out.data(), frame.size()));
    Check(result.size.has_value() != result.failure.has_value());
    if (result.size) Check(*result.size <= frame.size());
    for (size_t i = frame.size(); i < out.size(); ++i) Check(out[i] == 0xAA);

    // Round trip: the same bytes as an Opus frame we encrypt.
    if (frame.empty() || IsOpusSilence(frame)) return 0;
    FrameEncryptor encryptor;
    encryptor.SetKeyRatchet(SenderRatchet());
    std::vector<uint8_t> sealed(frame.size() + kMaxOpusOverhead);
    auto sealedSize = encryptor.Encrypt(frame, sealed);
    Check(sealedSize.has_value());
    sealed.resize(*sealedSize);
    FrameDecryptor receiver(clock);
    receiver.TransitionToKeyRatchet(SenderRatchet());
    std::vector<uint8_t> back(sealed.size());
    FrameDecryptor::Result opened = receiver.Decrypt(sealed, back);
    Check(opened.size && *opened.size == frame.size() && std::memcmp(back.data(), frame.data(), frame.size()) == 0);
    Check(!receiver.Decrypt(sealed, back).size);  // replayed

    FrameDecryptor fresh(clock);
    fresh.TransitionToKeyRatchet(SenderRatchet());
    std::vector<uint8_t> flipped = sealed;
    size_t bit = (static_cast<size_t>(data[0]) * 131 + size) % (flipped.size() * 8);
    flipped[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    Check(!fresh.Decrypt(flipped, back).size || IsOpusSilence(flipped));
    return 0;
}
