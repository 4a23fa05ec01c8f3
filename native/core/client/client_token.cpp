// Client: its own token (UpdateToken, IsAuthenticated; the expiry schedule is client_connection.cpp's). Every token
// that passes through here is registered with the logger's redactor before anything can log it.
#include "client/client_net.hpp"

namespace svcpp::core {

namespace {
using ResultOperation = Operation<void(const ClientResult &)>;

ClientResult Validation(std::string message) { return FailureResult(ErrorType::ValidationError, std::move(message)); }
}  // namespace

std::string Client::CurrentToken() const {
    std::lock_guard lock(tokenMutex_);
    return token_;
}

bool Client::IsAuthenticated() const { return !CurrentToken().empty(); }

void Client::UpdateToken(AuthorizationTokenType tokenType, std::string token, ClientUpdateTokenCallback &&cb) {
    logger_.AddSecret(token);
    auto op = ResultOperation::Begin(operations_, std::move(cb));
    if (tokenType != AuthorizationTokenType::Bearer) return op->Fail(Validation("only Bearer tokens are accepted"));
    if (token.empty()) return op->Fail(Validation("the token is empty"));
    uint64_t generation = 0;
    {
        std::lock_guard lock(tokenMutex_);
        token_ = token;
        generation = ++tokenGeneration_;
    }
    logger_.Log(LoggingSeverity::Info, "token updated");
    OnIo([this, op, token, generation](Net &net) {
        if (net.session) net.session->SetToken(token);  // used by the next Identify or Resume
        op->Complete(ClientResult{});
        ScheduleTokenExpiry(generation, token);
    });
}

}  // namespace svcpp::core
