#include "rpc/rpc_service.hpp"

#include <array>
#include <deque>
#include <random>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "gateway/backoff.hpp"
#include "net/client_executor.hpp"
#include "rpc/ipc_stream.hpp"

namespace svcpp::core::rpc {

namespace asio = boost::asio;

struct RpcService::Impl {
    Impl(const net::ClientExecutor &io, ServiceOptions opts, ServiceEvents evts, LogFn logFn)
        : io(io),
          options(std::move(opts)),
          events(std::move(evts)),
          log(std::move(logFn)),
          retryTimer(io),
          backoff(options.initialRetryMs, options.maxRetryMs),
          rng(std::random_device{}()) {}

    net::ClientExecutor io;
    ServiceOptions options;
    ServiceEvents events;
    LogFn log;
    asio::steady_timer retryTimer;
    gateway::Backoff backoff;
    std::mt19937 rng;
    std::unique_ptr<RpcProtocol> protocol;
    std::unique_ptr<IpcStream> socket;  // a Unix socket, or a named pipe on Windows (rpc/ipc_stream.hpp)
    std::array<char, 16 * 1024> readBuffer{};
    std::deque<std::string> writes;  // front = being written
    uint64_t applicationId = 0;
    // Bumped whenever the connection attempt changes (new application, drop, shutdown): stale handlers stop.
    uint64_t epoch = 0;
    bool shutDown = false;
    bool announcedAbsence = false;
};

std::shared_ptr<RpcService> RpcService::Create(const net::ClientExecutor &io, ServiceOptions options,
                                               ServiceEvents events, LogFn log) {
    std::shared_ptr<RpcService> service(new RpcService());
    service->impl_ = std::make_unique<Impl>(io, std::move(options), std::move(events), std::move(log));
    std::weak_ptr<RpcService> weak = service;
    ProtocolEvents protocolEvents;
    protocolEvents.ready = [weak] {
        if (auto self = weak.lock()) {
            self->connected_.store(true);
            self->impl_->backoff.Reset();
            self->impl_->announcedAbsence = false;
            self->impl_->log(LoggingSeverity::Info, "local client: connected (READY)");
        }
    };
    protocolEvents.authorizeRequest = [weak] {
        if (auto self = weak.lock(); self && self->impl_->events.authorizeRequest)
            self->impl_->events.authorizeRequest();
    };
    protocolEvents.activityJoin = [weak](std::string secret) {
        if (auto self = weak.lock(); self && self->impl_->events.activityJoin)
            self->impl_->events.activityJoin(self->impl_->applicationId, std::move(secret));
    };
    protocolEvents.log = [weak](std::string line) {
        if (auto self = weak.lock()) self->impl_->log(LoggingSeverity::Verbose, "local client: " + std::move(line));
    };
    service->impl_->protocol = std::make_unique<RpcProtocol>(
        [weak](std::string bytes) {
            if (auto self = weak.lock()) self->Write(std::move(bytes));
        },
        std::move(protocolEvents));
    return service;
}

RpcService::~RpcService() = default;

void RpcService::Start(uint64_t applicationId) {
    asio::post(impl_->io, [weak = weak_from_this(), applicationId] {
        auto self = weak.lock();
        if (!self || self->impl_->shutDown || self->impl_->applicationId == applicationId) return;
        self->impl_->applicationId = applicationId;
        self->CloseConnection();
        self->impl_->backoff.Reset();
        if (applicationId != 0) self->TryConnect(0);
    });
}

void RpcService::SetSubscribed(std::string evt, bool wanted) {
    asio::post(impl_->io, [weak = weak_from_this(), evt = std::move(evt), wanted] {
        if (auto self = weak.lock()) self->impl_->protocol->SetSubscribed(evt, wanted);
    });
}

void RpcService::SetReplayed(std::string key, std::string cmd, nlohmann::json args) {
    asio::post(impl_->io,
               [weak = weak_from_this(), key = std::move(key), cmd = std::move(cmd), args = std::move(args)]() mutable {
                   if (auto self = weak.lock())
                       self->impl_->protocol->SetReplayed(key, std::move(cmd), std::move(args));
               });
}

void RpcService::Command(std::string cmd, nlohmann::json args, CommandDone done) {
    asio::post(impl_->io, [weak = weak_from_this(), cmd = std::move(cmd), args = std::move(args),
                           done = std::move(done)]() mutable {
        auto self = weak.lock();
        if (!self || self->impl_->shutDown)
            return done(CommandOutcome{false, nullptr, kNotConnected, "the client is shutting down"});
        self->impl_->protocol->Command(std::move(cmd), std::move(args), std::move(done));
    });
}

void RpcService::Shutdown() {
    impl_->shutDown = true;
    CloseConnection();
    impl_->retryTimer.cancel();
}

// ---- I/O thread ----

void RpcService::CloseConnection() {
    ++impl_->epoch;
    connected_.store(false);
    impl_->writes.clear();
    if (impl_->socket) {
        impl_->socket->Close();
        impl_->socket.reset();
    }
    if (impl_->protocol->GetState() != RpcProtocol::State::Idle) impl_->protocol->Lost();
}

void RpcService::ScheduleRetry() {
    if (impl_->shutDown || impl_->applicationId == 0) return;
    const int32_t delay = impl_->backoff.Next(impl_->rng);
    const uint64_t epoch = impl_->epoch;
    impl_->retryTimer.expires_after(std::chrono::milliseconds(delay));
    impl_->retryTimer.async_wait([weak = weak_from_this(), epoch](const boost::system::error_code &ec) {
        auto self = weak.lock();
        if (ec || !self || self->impl_->epoch != epoch || self->impl_->shutDown) return;
        self->TryConnect(0);
    });
}

void RpcService::TryConnect(std::size_t index) {
    const auto candidates = CandidatePaths(impl_->options.explicitPath, impl_->options.env);
    if (index >= candidates.size()) {
        if (!impl_->announcedAbsence) {
            impl_->announcedAbsence = true;
            impl_->log(LoggingSeverity::Verbose, "local client: none found (" + candidates.front() +
                                                     (candidates.size() > 1 ? " …" : "") +
                                                     "); looking again with backoff");
        }
        return ScheduleRetry();
    }
    const uint64_t epoch = ++impl_->epoch;
    impl_->socket = CreateIpcStream(impl_->io);
    impl_->socket->AsyncConnect(
        candidates[index], [weak = weak_from_this(), epoch, index](const boost::system::error_code &ec) {
            auto self = weak.lock();
            if (!self || self->impl_->epoch != epoch || self->impl_->shutDown) return;
            if (ec) {
                self->impl_->socket.reset();
                return self->TryConnect(index + 1);
            }
            self->impl_->log(LoggingSeverity::Verbose, "local client: socket open, handshaking");
            self->impl_->protocol->Opened(self->impl_->applicationId);
            self->Read(epoch);
        });
}

void RpcService::Read(uint64_t epoch) {
    impl_->socket->AsyncReadSome(
        asio::buffer(impl_->readBuffer),
        [weak = weak_from_this(), epoch](const boost::system::error_code &ec, std::size_t n) {
            auto self = weak.lock();
            if (!self || self->impl_->epoch != epoch || self->impl_->shutDown) return;
            if (ec) return self->Dropped("the connection ended (" + ec.message() + ")");
            if (!self->impl_->protocol->Received(std::string_view(self->impl_->readBuffer.data(), n)))
                return self->Dropped(self->impl_->protocol->DropReason());
            if (self->impl_->epoch == epoch) self->Read(epoch);
        });
}

void RpcService::Write(std::string bytes) {
    if (!impl_->socket) return;
    impl_->writes.push_back(std::move(bytes));
    if (impl_->writes.size() == 1) WriteFront(impl_->epoch);
}

void RpcService::WriteFront(uint64_t epoch) {
    impl_->socket->AsyncWrite(asio::buffer(impl_->writes.front()),
                              [weak = weak_from_this(), epoch](const boost::system::error_code &ec, std::size_t) {
                                  auto self = weak.lock();
                                  if (!self || self->impl_->epoch != epoch || self->impl_->shutDown) return;
                                  if (ec) return self->Dropped("writing failed (" + ec.message() + ")");
                                  self->impl_->writes.pop_front();
                                  if (!self->impl_->writes.empty()) self->WriteFront(epoch);
                              });
}

void RpcService::Dropped(const std::string &reason) {
    const bool wasReady = connected_.load();
    impl_->log(wasReady ? LoggingSeverity::Info : LoggingSeverity::Verbose, "local client: disconnected: " + reason);
    CloseConnection();
    ScheduleRetry();
}

}  // namespace svcpp::core::rpc
