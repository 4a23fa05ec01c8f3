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

/** Transient conditions only: the network, the server's availability, its load. */
bool Retryable(ConnectionFailureReason reason, int httpStatus) {
    switch (reason) {
        case ConnectionFailureReason::NameNotResolved:
        case ConnectionFailureReason::ConnectionRefused:
        case ConnectionFailureReason::TimedOut:
        case ConnectionFailureReason::NetworkError: return true;
        case ConnectionFailureReason::HttpError: return httpStatus == 429 || httpStatus >= 500;
        default: return false;
    }
}

ConnectionFailure Make(ConnectionFailureReason reason, std::string message, int32_t closeCode = 0, int httpStatus = 0) {
    ConnectionFailure failure;
    failure.reason = reason;
    failure.message = std::move(message);
    failure.retryable = Retryable(reason, httpStatus);
    failure.closeCode = closeCode;
    failure.httpStatus = static_cast<HttpStatusCode>(httpStatus);
    return failure;
}

}  // namespace

ConnectionFailure DiscoveryFailure(const net::HttpResponse &response, const std::string &message) {
    if (response.status == 0) return Make(ReasonOf(response.failure), "gateway discovery failed: " + message);
    if (response.status == 401) {
        return Make(ConnectionFailureReason::InvalidToken, "gateway discovery was refused (401): " + message, 0, response.status);
    }
    return Make(ConnectionFailureReason::HttpError, "gateway discovery failed: " + message, 0, response.status);
}

ConnectionFailure SessionFailure(ClientError error, int32_t closeCode, const AttemptFailure &attempt) {
    if (error == ClientError::UnexpectedClose) {
        if (closeCode == kAuthenticationFailed) {
            return Make(ConnectionFailureReason::InvalidToken, "the platform rejected the token (close code 4004)", closeCode);
        }
        return Make(ConnectionFailureReason::ClosedByServer, "the platform ended the session (close code " + std::to_string(closeCode) + ")",
                    closeCode);
    }
    const std::string what = attempt.description.empty() ? "the connection failed" : attempt.description;
    if (attempt.kind == net::NetFailure::None && attempt.closeCode != 0) {
        return Make(ConnectionFailureReason::NetworkError,
                    "the gateway closed the connection before READY (close code " + std::to_string(attempt.closeCode) + ")", attempt.closeCode);
    }
    return Make(ReasonOf(attempt.kind), what);
}

ConnectionFailure NoTokenFailure() {
    return Make(ConnectionFailureReason::InvalidToken, "no token: call UpdateToken before Connect");
}

}  // namespace svcpp::core::gateway
