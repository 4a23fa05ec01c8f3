#include "voice/e2ee/frame_encryptor.hpp"

#include <algorithm>

#include "voice/e2ee/frame_format.hpp"
#include "voice/e2ee/leb128.hpp"

namespace svcpp::core::voice::e2ee {

void FrameEncryptor::SetKeyRatchet(std::unique_ptr<KeyRatchet> ratchet) {
    ratchet_ = std::move(ratchet);
    cryptor_.reset();
    generation_ = 0;
    nonce_ = 0;
}

AesGcmCryptor *FrameEncryptor::CryptorForNextNonce(uint32_t &nonce) noexcept {
    nonce = ++nonce_;  // wraps at 2^32, the generation byte with it: the unwrapped generation keeps counting
    uint32_t wireGeneration = nonce >> kGenerationShift;
    uint32_t generation = (generation_ & ~(kGenerationWrap - 1)) | wireGeneration;
    if (generation < generation_) generation += kGenerationWrap;
    if (cryptor_ && generation == generation_) return cryptor_.get();
    try {
        mls::Bytes key = ratchet_->Key(generation);
        cryptor_ = std::make_unique<AesGcmCryptor>(key);
        if (generation > 0) ratchet_->Erase(generation - 1);  // our own old keys are never needed again
        generation_ = generation;
        return cryptor_.get();
    } catch (...) {
        cryptor_.reset();
        return nullptr;
    }
}

std::optional<std::size_t> FrameEncryptor::Encrypt(std::span<const uint8_t> frame, std::span<uint8_t> out) noexcept {
    if (passthrough_ || IsOpusSilence(frame)) {
        if (out.size() < frame.size()) return std::nullopt;
        std::copy(frame.begin(), frame.end(), out.begin());
        return frame.size();
    }
    if (!ratchet_ || out.size() < frame.size() + kMaxOpusOverhead) return std::nullopt;

    uint32_t nonce = 0;
    AesGcmCryptor *cryptor = CryptorForNextNonce(nonce);
    if (!cryptor) return std::nullopt;

    auto iv = MakeIv(nonce);
    std::span<uint8_t, kTagSize> tag(out.data() + frame.size(), kTagSize);
    if (!cryptor->Encrypt(iv, {}, frame, out.first(frame.size()), tag)) return std::nullopt;

    std::size_t position = frame.size() + kTagSize;
    position += WriteLeb128(nonce, out.subspan(position));
    // Opus: no unencrypted ranges.
    std::size_t supplemental = position - frame.size() + 1 + kMarkerSize;
    out[position++] = static_cast<uint8_t>(supplemental);
    out[position++] = kMarkerByte;
    out[position++] = kMarkerByte;
    return position;
}

}  // namespace svcpp::core::voice::e2ee
