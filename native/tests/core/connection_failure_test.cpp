// What the host is told when connecting fails: reason, message and whether a retry may help.
#include <gtest/gtest.h>

#include "gateway/connection_failure.hpp"

namespace core = svcpp::core;
namespace net = svcpp::core::net;
using core::ConnectionFailureReason;
using core::gateway::AttemptFailure;
using core::gateway::DiscoveryFailure;
using core::gateway::NoTokenFailure;
using core::gateway::SessionFailure;

namespace {

net::HttpResponse TransportFailure(net::NetFailure kind) {
    net::HttpResponse response;
    response.failure = kind;
    response.networkError = "failed";
    return response;
}

}  // namespace

TEST(ConnectionFailure, DiscoveryTransportFailuresKeepTheirKind) {
    const auto refused = DiscoveryFailure(TransportFailure(net::NetFailure::Refused), "cannot connect");
    EXPECT_EQ(refused.reason, ConnectionFailureReason::ConnectionRefused);
    EXPECT_TRUE(refused.retryable);
    EXPECT_EQ(refused.message, "gateway discovery failed: cannot connect");
    EXPECT_EQ(DiscoveryFailure(TransportFailure(net::NetFailure::NameNotResolved), "").reason,
              ConnectionFailureReason::NameNotResolved);
    EXPECT_EQ(DiscoveryFailure(TransportFailure(net::NetFailure::TimedOut), "").reason,
              ConnectionFailureReason::TimedOut);
}

TEST(ConnectionFailure, CertificateUrlAndTokenFailuresAreNeverRetryable) {
    const auto tls =
        DiscoveryFailure(TransportFailure(net::NetFailure::TlsVerification), "unable to get local issuer certificate");
    EXPECT_EQ(tls.reason, ConnectionFailureReason::TlsVerificationFailed);
    EXPECT_FALSE(tls.retryable);
    EXPECT_FALSE(DiscoveryFailure(TransportFailure(net::NetFailure::InvalidUrl), "").retryable);
    EXPECT_FALSE(DiscoveryFailure(TransportFailure(net::NetFailure::Tls), "").retryable);
    const auto rejected = SessionFailure(core::ClientError::UnexpectedClose, 4004, {});
    EXPECT_EQ(rejected.reason, ConnectionFailureReason::InvalidToken);
    EXPECT_EQ(rejected.closeCode, 4004);
    EXPECT_FALSE(rejected.retryable);
    EXPECT_FALSE(NoTokenFailure().retryable);
    EXPECT_EQ(NoTokenFailure().reason, ConnectionFailureReason::InvalidToken);
}

TEST(ConnectionFailure, DiscoveryHttpErrorsAreRetryableOnlyWhenTransient) {
    net::HttpResponse unavailable;
    unavailable.status = 503;
    EXPECT_EQ(DiscoveryFailure(unavailable, "HTTP 503").reason, ConnectionFailureReason::HttpError);
    EXPECT_EQ(DiscoveryFailure(unavailable, "HTTP 503").httpStatus, core::HttpStatusCode::ServiceUnavailable);
    EXPECT_TRUE(DiscoveryFailure(unavailable, "").retryable);
    net::HttpResponse missing;
    missing.status = 404;
    EXPECT_FALSE(DiscoveryFailure(missing, "").retryable);
}

TEST(ConnectionFailure, SessionFailuresCarryTheLastAttempt) {
    const auto terminal = SessionFailure(core::ClientError::UnexpectedClose, 4013, {});
    EXPECT_EQ(terminal.reason, ConnectionFailureReason::ClosedByServer);
    EXPECT_FALSE(terminal.retryable);
    const auto timedOut = SessionFailure(core::ClientError::ConnectionFailed, 0,
                                         AttemptFailure{net::NetFailure::TimedOut, "no READY within 15000 ms"});
    EXPECT_EQ(timedOut.reason, ConnectionFailureReason::TimedOut);
    EXPECT_EQ(timedOut.message, "no READY within 15000 ms");
    EXPECT_TRUE(timedOut.retryable);
    const auto closed =
        SessionFailure(core::ClientError::ConnectionFailed, 0, AttemptFailure{net::NetFailure::None, "bye", 4000});
    EXPECT_EQ(closed.reason, ConnectionFailureReason::NetworkError);
    EXPECT_EQ(closed.closeCode, 4000);
}
