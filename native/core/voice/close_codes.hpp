// What a voice-gateway close code means for a call (platform/PROTOCOL.md §13 Voice, "close codes"; the published
// table of the voice gateway v8). The call answers each drop with one of three actions; only a terminal code (or
// too many failed attempts in a row) ends a call — a recoverable drop is Reconnecting, never Disconnected.
#pragma once

namespace svcpp::core::voice {

enum class VoiceCloseAction {
    Resume,     // new socket, op 7 Resume with seq_ack: the server replays what it buffered (drops, < 4000, 4015)
    Reconnect,  // new socket, fresh op 0 Identify: the server forgot this voice session
    Terminal,   // retrying cannot help (or is forbidden): the call ends with SignalingUnexpectedClose
};

constexpr VoiceCloseAction ClassifyVoiceClose(int code) {
    switch (code) {
        case 4001:  // unknown opcode
        case 4002:  // failed to decode payload
        case 4003:  // not authenticated
        case 4005:  // already authenticated
        case 4006:  // session no longer valid (also: the resume buffer no longer has what we missed)
        case 4009:  // session timeout
        case 4011:  // server not found
            return VoiceCloseAction::Reconnect;
        case 4004:  // authentication failed
        case 4012:  // unknown protocol
        case 4014:  // disconnected: kicked, channel or session gone
        case 4016:  // unknown encryption mode
        case 4017:  // end-to-end encryption required
        case 4020:  // bad request
        case 4021:  // rate limited
        case 4022:  // call terminated
            return VoiceCloseAction::Terminal;
        default:  // 0 (no close frame), 1000–3999 from a restarting server, 4015 voice server crashed, unknown codes
            return code >= 4000 && code != 4015 && code < 4100 ? VoiceCloseAction::Terminal : VoiceCloseAction::Resume;
    }
}

/** The code the call closes its socket with when it means to resume: anything but 1000/1001 (which end it). */
constexpr int kVoiceResumableClientClose = 4900;

}  // namespace svcpp::core::voice
