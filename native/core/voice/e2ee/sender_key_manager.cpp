#include "voice/e2ee/sender_key_manager.hpp"

#include <algorithm>

#include "voice/e2ee/frame_format.hpp"
#include "voice/e2ee/limits.hpp"

namespace svcpp::core::voice::e2ee {
namespace {

uint64_t BigNonce(uint32_t generation, uint32_t nonce) {
    return (uint64_t{generation} << kGenerationShift) | (nonce & ((1u << kGenerationShift) - 1));
}

}  // namespace

SenderKeyManager::SenderKeyManager(const Clock &clock, std::unique_ptr<KeyRatchet> ratchet)
    : clock_(clock), ratchet_(std::move(ratchet)), created_(clock.Now()) {}

uint32_t SenderKeyManager::UnwrapGeneration(uint32_t wireGeneration) const {
    // Assume the frame is not older than the oldest generation kept; if it is, the gap check rejects it.
    uint32_t base = oldestGeneration_ & ~(kGenerationWrap - 1);
    uint32_t generation = base | wireGeneration;
    if (generation < oldestGeneration_) generation += kGenerationWrap;
    return generation;
}

void SenderKeyManager::DropExpired() {
    TimePoint now = clock_.Now();
    std::erase_if(cryptors_, [now](const auto &item) { return item.second.expiry < now; });
    // Forget the ratchet's keys below the oldest generation still in use (forward secrecy).
    while (oldestGeneration_ < newestGeneration_ && !cryptors_.contains(oldestGeneration_)) {
        ratchet_->Erase(oldestGeneration_);
        ++oldestGeneration_;
    }
}

AesGcmCryptor *SenderKeyManager::CryptorFor(uint32_t generation) {
    DropExpired();
    if (generation < oldestGeneration_) return nullptr;
    if (generation > newestGeneration_ + kMaxGenerationGap) return nullptr;
    // A ratchet t seconds old cannot legitimately have reached more than kMaxFramesPerSecond·t frames: refusing
    // beyond that stops a forged generation byte from making us derive keys far ahead.
    auto ageSeconds = std::chrono::duration_cast<std::chrono::seconds>(clock_.Now() - created_).count();
    uint64_t maxGeneration =
        (kMaxFramesPerSecond * static_cast<uint64_t>(std::max<int64_t>(ageSeconds, 0))) >> kGenerationShift;
    if (generation > maxGeneration) return nullptr;

    auto it = cryptors_.find(generation);
    if (it != cryptors_.end()) return it->second.cryptor.get();
    try {
        auto cryptor = std::make_unique<AesGcmCryptor>(ratchet_->Key(generation));
        // A generation older than the newest (a late frame) is only kept for the retention time.
        TimePoint expiry = generation < newestGeneration_ ? clock_.Now() + kKeyRetention : TimePoint::max();
        it = cryptors_.emplace(generation, Entry{std::move(cryptor), expiry}).first;
        return it->second.cryptor.get();
    } catch (...) {
        return nullptr;
    }
}

bool SenderKeyManager::CanProcessNonce(uint32_t generation, uint32_t nonce) const {
    if (!newestNonce_) return true;
    uint64_t big = BigNonce(generation, nonce);
    return big > *newestNonce_ ||
           std::find(missingNonces_.rbegin(), missingNonces_.rend(), big) != missingNonces_.rend();
}

void SenderKeyManager::ReportSuccess(uint32_t generation, uint32_t nonce) {
    uint64_t big = BigNonce(generation, nonce);
    if (!newestNonce_) {
        newestNonce_ = big;
    } else if (big > *newestNonce_) {
        uint64_t skipped = std::min<uint64_t>(big - *newestNonce_ - 1, kMaxMissingNonces);
        while (!missingNonces_.empty() && missingNonces_.size() + skipped > kMaxMissingNonces)
            missingNonces_.pop_front();
        for (uint64_t n = big - skipped; n < big; ++n) missingNonces_.push_back(n);
        newestNonce_ = big;
    } else if (auto it = std::find(missingNonces_.begin(), missingNonces_.end(), big); it != missingNonces_.end()) {
        missingNonces_.erase(it);
    }

    if (generation <= newestGeneration_ || !cryptors_.contains(generation)) return;
    newestGeneration_ = generation;
    TimePoint retireAt = clock_.Now() + kKeyRetention;
    for (auto &[g, entry] : cryptors_) {
        if (g < newestGeneration_) entry.expiry = std::min(entry.expiry, retireAt);
    }
}

}  // namespace svcpp::core::voice::e2ee
