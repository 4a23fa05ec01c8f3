#include "voice/e2ee/frame_decryptor.hpp"

#include <algorithm>
#include <vector>

#include "voice/e2ee/frame_format.hpp"
#include "voice/e2ee/limits.hpp"

namespace svcpp::core::voice::e2ee {

void FrameDecryptor::TransitionToKeyRatchet(std::unique_ptr<KeyRatchet> ratchet) {
    Retire();
    epochs_.push_back(std::make_unique<SenderKeyManager>(clock_, std::move(ratchet)));
}

void FrameDecryptor::Retire() {
    TimePoint retireAt = clock_.Now() + kKeyRetention;
    for (auto &keys : epochs_) keys->ExpireAt(retireAt);
}

void FrameDecryptor::SetPassthrough(bool enabled, std::chrono::milliseconds window) {
    if (enabled) {
        passthroughUntil_ = TimePoint::max();
    } else {
        passthroughUntil_ = std::min(passthroughUntil_, clock_.Now() + window);
    }
}

std::optional<std::size_t> FrameDecryptor::TryDecrypt(SenderKeyManager &keys, const ParsedFrame &parsed,
                                                      std::span<uint8_t> out, DecryptFailure &failure) {
    uint32_t generation = keys.UnwrapGeneration(parsed.nonce >> kGenerationShift);
    if (!keys.CanProcessNonce(generation, parsed.nonce)) {
        failure = DecryptFailure::Replayed;
        return std::nullopt;
    }
    AesGcmCryptor *cryptor = keys.CryptorFor(generation);
    if (!cryptor) {
        failure = DecryptFailure::KeyUnavailable;
        return std::nullopt;
    }
    auto iv = MakeIv(parsed.nonce);
    std::span<const uint8_t, kTagSize> tag(parsed.tag.data(), kTagSize);
    bool ok = false;
    if (parsed.unencryptedRanges.empty()) {
        ok = cryptor->Decrypt(iv, {}, parsed.body, tag, out.first(parsed.body.size()));
    } else {
        // Clear ranges are the additional data; the other bytes, in order, the ciphertext. (Video codecs only.)
        std::vector<uint8_t> aad, ciphertext, plaintext;
        std::size_t cursor = 0;
        for (const auto &range : parsed.unencryptedRanges) {
            ciphertext.insert(ciphertext.end(), parsed.body.begin() + cursor, parsed.body.begin() + range.offset);
            aad.insert(aad.end(), parsed.body.begin() + range.offset, parsed.body.begin() + range.offset + range.size);
            cursor = range.offset + range.size;
        }
        ciphertext.insert(ciphertext.end(), parsed.body.begin() + cursor, parsed.body.end());
        plaintext.resize(ciphertext.size());
        ok = cryptor->Decrypt(iv, aad, ciphertext, tag, plaintext);
        if (ok) {
            std::size_t from = 0;
            cursor = 0;
            for (const auto &range : parsed.unencryptedRanges) {
                std::size_t encrypted = range.offset - cursor;
                std::copy_n(plaintext.begin() + from, encrypted, out.begin() + cursor);
                from += encrypted;
                std::copy_n(parsed.body.begin() + range.offset, range.size, out.begin() + range.offset);
                cursor = range.offset + range.size;
            }
            std::copy(plaintext.begin() + from, plaintext.end(), out.begin() + cursor);
        }
    }
    if (!ok) {
        failure = DecryptFailure::Authentication;
        return std::nullopt;
    }
    keys.ReportSuccess(generation, parsed.nonce);
    return parsed.body.size();
}

FrameDecryptor::Result FrameDecryptor::Decrypt(std::span<const uint8_t> frame, std::span<uint8_t> out) {
    if (out.size() < frame.size()) return {std::nullopt, DecryptFailure::Malformed};
    if (IsOpusSilence(frame) || (!HasMarker(frame) && PassthroughAllowed())) {
        std::copy(frame.begin(), frame.end(), out.begin());
        return {frame.size(), std::nullopt};
    }
    if (!HasMarker(frame)) return {std::nullopt, DecryptFailure::Unencrypted};
    auto parsed = ParseFrame(frame);
    if (!parsed) return {std::nullopt, DecryptFailure::Malformed};

    std::erase_if(epochs_, [](const auto &keys) { return keys->Expired(); });
    if (epochs_.empty()) return {std::nullopt, DecryptFailure::NoKey};

    // Newest epoch first: after a transition nearly every frame uses it; the previous one serves the frames in flight.
    DecryptFailure failure = DecryptFailure::Authentication;
    for (auto it = epochs_.rbegin(); it != epochs_.rend(); ++it) {
        DecryptFailure attempt = DecryptFailure::Authentication;
        if (auto size = TryDecrypt(**it, *parsed, out, attempt)) return {size, std::nullopt};
        if (it == epochs_.rbegin()) failure = attempt;  // report what the current epoch said
    }
    return {std::nullopt, failure};
}

}  // namespace svcpp::core::voice::e2ee
