// What a gateway close code means for the session (platform/PROTOCOL.md §20.6, "Closes and sessions").
#pragma once

namespace svcpp::core::gateway {

enum class CloseAction {
    Resume,      // reconnect and resume the session (also drops without a close frame, code 0)
    NewSession,  // the server forgot the session: reconnect with a fresh Identify
    Terminal,    // retrying cannot help: stop with UnexpectedClose
};

/** The token was rejected (revoked, expired, banned): the host must get a new one. */
constexpr int kAuthenticationFailed = 4004;

constexpr CloseAction ClassifyClose(int code) {
    switch (code) {
        case 4007:  // invalid seq on resume
        case 4009:  // session timed out
            return CloseAction::NewSession;
        case 4004:  // authentication failed
        case 4010:  // invalid shard
        case 4011:  // sharding required
        case 4012:  // invalid API version
        case 4013:  // invalid intents
        case 4014:  // disallowed intents
            return CloseAction::Terminal;
        default:  // 4000–4003, 4005, 4008, 1000/1001 from a restarting server, unknown codes
            return CloseAction::Resume;
    }
}

/**
 * The code the session closes with when it wants to resume later: anything but 1000/1001, which would end the
 * session on the server (PROTOCOL.md §20.6, same paragraph). The platform's reference client uses the same value.
 */
constexpr int kResumableClientClose = 4900;

}  // namespace svcpp::core::gateway
