#include "rpc/ipc_stream.hpp"

#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/write.hpp>

namespace svcpp::core::rpc {

namespace {
namespace asio = boost::asio;

class UnixSocketStream final : public IpcStream {
  public:
    explicit UnixSocketStream(const net::ClientExecutor &io) : socket_(io) {}

    void AsyncConnect(const std::string &path, ConnectHandler handler) override {
        socket_.async_connect(asio::local::stream_protocol::endpoint(path), std::move(handler));
    }
    void AsyncReadSome(asio::mutable_buffer buffer, TransferHandler handler) override {
        socket_.async_read_some(buffer, std::move(handler));
    }
    void AsyncWrite(asio::const_buffer buffer, TransferHandler handler) override {
        asio::async_write(socket_, buffer, std::move(handler));
    }
    void Close() override {
        boost::system::error_code ignored;
        socket_.close(ignored);
    }

  private:
    asio::basic_stream_socket<asio::local::stream_protocol, net::ClientExecutor> socket_;
};
}  // namespace

std::unique_ptr<IpcStream> CreateIpcStream(const net::ClientExecutor &io) {
    return std::make_unique<UnixSocketStream>(io);
}

}  // namespace svcpp::core::rpc
