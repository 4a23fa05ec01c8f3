#include "voice/e2ee/dave_frame_transform.hpp"

#include <algorithm>

namespace svcpp::core::voice::e2ee {

FrameDecryptor &DaveFrameTransform::DecryptorFor(uint64_t userId) {
    auto &slot = decryptors_[userId];
    if (!slot) {
        slot = std::make_unique<FrameDecryptor>(clock_);
        if (passthrough_) slot->SetPassthrough(true);
    }
    return *slot;
}

void DaveFrameTransform::SetEpochKeys(mls::ByteView exporterSecret, const std::vector<uint64_t> &memberUserIds) {
    AddReceiveKeys(exporterSecret, memberUserIds);
    SetSendKey(exporterSecret);
}

void DaveFrameTransform::AddReceiveKeys(mls::ByteView exporterSecret, const std::vector<uint64_t> &memberUserIds) {
    // Derive outside the lock: the exporter and the first ratchet steps are the costly part.
    std::vector<std::pair<uint64_t, std::unique_ptr<KeyRatchet>>> receive;
    for (uint64_t userId : memberUserIds) {
        if (userId != ownUserId_)
            receive.emplace_back(userId, std::make_unique<KeyRatchet>(SenderBaseSecret(exporterSecret, userId)));
    }
    std::lock_guard lock(receiveMutex_);
    for (auto &[userId, ratchet] : receive) DecryptorFor(userId).TransitionToKeyRatchet(std::move(ratchet));
    // Members who left keep only their retiring keys: a decryptor with nothing new expires with them.
    for (auto &[userId, decryptor] : decryptors_) {
        bool member = std::find(memberUserIds.begin(), memberUserIds.end(), userId) != memberUserIds.end();
        if (!member) decryptor->Retire();
    }
}

void DaveFrameTransform::SetSendKey(mls::ByteView exporterSecret) {
    auto ownRatchet = std::make_unique<KeyRatchet>(SenderBaseSecret(exporterSecret, ownUserId_));
    std::lock_guard lock(sendMutex_);
    encryptor_.SetKeyRatchet(std::move(ownRatchet));
}

void DaveFrameTransform::SetReceivePassthrough(bool enabled) {
    std::lock_guard lock(receiveMutex_);
    passthrough_ = enabled;
    for (auto &[userId, decryptor] : decryptors_) decryptor->SetPassthrough(enabled);
}

void DaveFrameTransform::SetPassthrough(bool enabled) {
    {
        std::lock_guard lock(receiveMutex_);
        passthrough_ = enabled;
        for (auto &[userId, decryptor] : decryptors_) decryptor->SetPassthrough(enabled);
    }
    std::lock_guard lock(sendMutex_);
    encryptor_.SetPassthrough(enabled);
}

std::optional<std::size_t> DaveFrameTransform::Encrypt(uint32_t, std::span<const uint8_t> frame,
                                                       std::span<uint8_t> out) {
    std::lock_guard lock(sendMutex_);
    auto size = encryptor_.Encrypt(frame, out);
    if (size && HasMarker(out.first(*size)))
        ++framesEncrypted_;  // not the silence frames and passthrough sent in clear
    return size;
}

std::optional<std::size_t> DaveFrameTransform::Decrypt(uint64_t userId, uint32_t, std::span<const uint8_t> frame,
                                                       std::span<uint8_t> out) {
    std::lock_guard lock(receiveMutex_);
    auto result = DecryptorFor(userId).Decrypt(frame, out);
    DecryptStats &sender = statsBySender_[userId];
    if (result.size) {
        bool decrypted = HasMarker(frame);
        ++(decrypted ? stats_.decrypted : stats_.passedThrough);
        ++(decrypted ? sender.decrypted : sender.passedThrough);
    } else if (result.failure) {
        ++stats_.dropped[*result.failure];
        ++sender.dropped[*result.failure];
    }
    return result.size;
}

DecryptStats DaveFrameTransform::Stats() const {
    std::lock_guard lock(receiveMutex_);
    return stats_;
}

DecryptStats DaveFrameTransform::StatsFor(uint64_t userId) const {
    std::lock_guard lock(receiveMutex_);
    auto it = statsBySender_.find(userId);
    return it == statsBySender_.end() ? DecryptStats{} : it->second;
}

uint64_t DaveFrameTransform::FramesEncrypted() const {
    std::lock_guard lock(sendMutex_);
    return framesEncrypted_;
}

}  // namespace svcpp::core::voice::e2ee
