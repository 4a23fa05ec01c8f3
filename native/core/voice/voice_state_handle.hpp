// VoiceStateHandle: the live handle of Svcpp_VoiceStateHandle — one participant's voice state in one call.
// Defaults and IsValid() false once the participant left, the call ended or the client is gone.
#pragma once
#include <cstdint>
#include <memory>

namespace svcpp::core {

namespace voice {
class CallSession;
}

class VoiceStateHandle {
public:
    VoiceStateHandle() = default;
    VoiceStateHandle(std::weak_ptr<const voice::CallSession> session, uint64_t userId) : session_(std::move(session)), userId_(userId) {}

    bool IsValid() const;
    bool SelfMute() const;
    bool SelfDeaf() const;

private:
    std::weak_ptr<const voice::CallSession> session_;
    uint64_t userId_ = 0;
};

}  // namespace svcpp::core
