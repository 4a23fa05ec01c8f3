#include "gateway/connection_failure.hpp"

#include "gateway/close_codes.hpp"

namespace svcpp::core::gateway {

namespace {

ConnectionFailureReason ReasonOf(net::NetFailure kind) {
    switch (kind) {
        case net::NetFailure::InvalidUrl: return ConnectionFailureReason::InvalidUrl;
        case net::NetFailure::NameNotResolved: return ConnectionFailureReason::NameNotResolved;
        case net::NetFailure::Refused: return ConnectionFailureReason::ConnectionRefused;
        case net::NetFailure::TimedOut: return ConnectionFailureReason::TimedOut;
        case net::NetFailure::TlsVerification: return ConnectionFailureReason::TlsVerificationFailed;
        case net::NetFailure::Tls: return ConnectionFailureReason::TlsFailed;
        case net::NetFailure::None:
        case net::NetFailure::Transfer:
        case net::NetFailure::ShutDown: break;
    }
    return ConnectionFailureReason::NetworkError;
}

ConnectionFailure Make(ConnectionFailureReason reason, std::string message, bool retryable, int32_t closeCode = 0,
                       int httpStatus = 0) {
    ConnectionFailure failure;
    failure.reason = reason;
    failure.message = std::move(message);
    failure.retryable = retryable;
    failure.closeCode = closeCode;
    failure.httpStatus = static_cast<HttpStatusCode>(httpStatus);
    return failure;
}

/** A transport failure: its reason, and retryable exactly when net::IsTransient says so. */
ConnectionFailure Transport(net::NetFailure kind, std::string message) {
    return Make(ReasonOf(kind), std::move(message), net::IsTransient(kind));
}

}  // namespace

ConnectionFailure DiscoveryFailure(const net::HttpResponse &response, const std::string &message) {
    if (response.status == 0) return Transport(response.failure, "gateway discovery failed: " + message);
    if (response.status == 401) {
        return Make(ConnectionFailureReason::InvalidToken, "gateway discovery was refused (401): " + message, false, 0,
                    response.status);
    }
    // The server's availability or load may change; any other answer will not.
    const bool transient = response.status == 429 || response.status >= 500;
    return Make(ConnectionFailureReason::HttpError, "gateway discovery failed: " + message, transient, 0,
                response.status);
}

ConnectionFailure SessionFailure(ClientError error, int32_t closeCode, const AttemptFailure &attempt) {
    if (error == ClientError::UnexpectedClose) {
        if (closeCode == kAuthenticationFailed) {
            return Make(ConnectionFailureReason::InvalidToken, "the platform rejected the token (close code 4004)",
                        false, closeCode);
        }
        return Make(ConnectionFailureReason::ClosedByServer,
                    "the platform ended the session (close code " + std::to_string(closeCode) + ")", false, closeCode);
    }
    const std::string what = attempt.description.empty() ? "the connection failed" : attempt.description;
    if (attempt.kind == net::NetFailure::None && attempt.closeCode != 0) {
        return Make(
            ConnectionFailureReason::NetworkError,
            "the gateway closed the connection before READY (close code " + std::to_string(attempt.closeCode) + ")",
            true, attempt.closeCode);
    }
    return Transport(attempt.kind, what);
}

ConnectionFailure NoTokenFailure() {
    return Make(ConnectionFailureReason::InvalidToken, "no token: call UpdateToken before Connect", false);
}

}  // namespace svcpp::core::gateway
