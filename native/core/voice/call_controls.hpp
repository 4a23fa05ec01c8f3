// CallControls: the settings of one call that its API (any thread), its session (I/O thread), the network thread and
// the audio thread share. Scalars are atomics; the per-user maps sit behind a mutex that the audio and network
// threads take only when they meet a sender for the first time (its settings are then held by shared_ptr).
#pragma once
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "generated/callbacks.hpp"
#include "generated/enums.hpp"
#include "voice/media/volume.hpp"

namespace svcpp::core::voice {

/** Client-wide overrides (SetSelfMuteAll / SetSelfDeafAll). */
struct ClientVoiceControls {
    std::atomic<bool> muteAll{false};
    std::atomic<bool> deafAll{false};
};

struct CallControls {
    explicit CallControls(std::shared_ptr<const ClientVoiceControls> client) : client(std::move(client)) {}

    std::shared_ptr<const ClientVoiceControls> client;
    std::atomic<bool> selfMute{false};
    std::atomic<bool> selfDeaf{false};
    std::atomic<AudioModeType> audioMode{AudioModeType::MODE_UNINIT};
    std::atomic<bool> pttActive{false};
    std::atomic<uint32_t> pttReleaseDelayMs{0};
    std::atomic<bool> vadAutomatic{true};
    std::atomic<float> vadThresholdDb{-60.0f};

    // Set once by StartCallWithAudioCallbacks, before any thread reads them; released with the call.
    SharedClientUserAudioReceivedCallback received;
    SharedClientUserAudioCapturedCallback captured;

    bool EffectiveMute() const { return selfMute.load() || client->muteAll.load(); }
    bool EffectiveDeaf() const { return selfDeaf.load() || client->deafAll.load(); }

    /** The local playback settings of a user, made on first use (so a volume can be set before they speak). */
    std::shared_ptr<ParticipantMixSettings> MixSettings(uint64_t userId) {
        std::lock_guard lock(mutex_);
        auto &slot = mix_[userId];
        if (!slot) slot = std::make_shared<ParticipantMixSettings>();
        return slot;
    }
    /** The settings when they exist (getters must not create entries). */
    std::shared_ptr<const ParticipantMixSettings> FindMixSettings(uint64_t userId) const {
        std::lock_guard lock(mutex_);
        auto it = mix_.find(userId);
        return it == mix_.end() ? nullptr : it->second;
    }

    /** SSRC → user, from the voice gateway's Speaking messages (op 5). */
    void MapSsrc(uint32_t ssrc, uint64_t userId) {
        std::lock_guard lock(mutex_);
        ssrcUsers_[ssrc] = userId;
    }
    uint64_t UserOfSsrc(uint32_t ssrc) const {
        std::lock_guard lock(mutex_);
        auto it = ssrcUsers_.find(ssrc);
        return it == ssrcUsers_.end() ? 0 : it->second;
    }

  private:
    mutable std::mutex mutex_;
    std::map<uint64_t, std::shared_ptr<ParticipantMixSettings>> mix_;
    std::map<uint32_t, uint64_t> ssrcUsers_;
};

}  // namespace svcpp::core::voice
