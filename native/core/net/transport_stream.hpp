// TransportStream: the byte stream under every HTTP exchange and WebSocket of a client, plain TCP or TLS over TCP, as
// one type.
//
// Why: Beast's composed operations (the HTTP request write and response read, the WebSocket handshake, read, write
// and close) are templates over the stream they run on. Over beast::tcp_stream and beast::ssl_stream<tcp_stream>
// each was compiled twice, about a third of the library's own code (docs/binary-size.md). Over this type each is
// compiled once: async_read_some/async_write_some hand the caller's handler to a non-template function as an
// asio::any_completion_handler and its buffers as a small array, and only those functions (transport_stream.cpp)
// call into the real stream — the one place where the plain/TLS choice is made. The cost is one type-erased handler
// per read or write (an allocation and an indirect call), next to a system call and, for TLS, a record's crypto.
//
// A read or write may transfer less than the buffers given (as any stream's read_some/write_some): a sequence of
// more than kMaxBuffers non-empty buffers is cut there, and the composed operations above loop as they always do.
//
// Asio and Beast inside: only the translation units that already include Beast (net/*.cpp, the loopback listener)
// include this header.
#pragma once
#include <array>
#include <cstddef>
#include <variant>

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/role.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include "net/client_executor.hpp"

struct ssl_st;

namespace svcpp::core::net {

/** Up to Capacity non-empty buffers of a buffer sequence, held by value (a buffer sequence an operation can copy). */
template <class Buffer, std::size_t Capacity>
class BufferArray {
  public:
    template <class Sequence>
    explicit BufferArray(const Sequence &sequence) {
        const auto end = boost::asio::buffer_sequence_end(sequence);
        for (auto it = boost::asio::buffer_sequence_begin(sequence); it != end && count_ < Capacity; ++it) {
            const Buffer buffer(*it);
            if (buffer.size() != 0) items_[count_++] = buffer;
        }
    }
    const Buffer *begin() const noexcept { return items_.data(); }
    const Buffer *end() const noexcept { return items_.data() + count_; }

  private:
    std::array<Buffer, Capacity> items_{};
    std::size_t count_ = 0;
};

class TransportStream {
  public:
    static constexpr std::size_t kMaxBuffers = 16;
    using MutableBuffers = BufferArray<boost::asio::mutable_buffer, kMaxBuffers>;
    using ConstBuffers = BufferArray<boost::asio::const_buffer, kMaxBuffers>;
    using TransferHandler = boost::asio::any_completion_handler<void(boost::beast::error_code, std::size_t)>;
    using DoneHandler = boost::asio::any_completion_handler<void(boost::beast::error_code)>;
    using executor_type = boost::beast::tcp_stream::executor_type;

    /** Plain TCP. */
    explicit TransportStream(const ClientExecutor &io);
    /** Plain TCP over a connection accepted by a listener (auth/loopback_listener.cpp). */
    explicit TransportStream(boost::asio::ip::tcp::socket socket);
    /** TLS over TCP, verified by `tls` (net/tls_context.hpp); call PrepareTlsConnection on TlsHandle() before
     * Handshake. */
    TransportStream(const ClientExecutor &io, boost::asio::ssl::context &tls);
    TransportStream(TransportStream &&) noexcept;
    ~TransportStream();

    executor_type get_executor() noexcept;
    bool Tls() const noexcept { return stream_.index() == 1; }
    /** The TCP connection under the stream (connect, socket options, close). */
    boost::beast::tcp_stream &Tcp() noexcept;
    /** The TLS connection's OpenSSL handle (SNI, verification results); null for plain TCP. */
    ssl_st *TlsHandle() noexcept;
    /** The TLS client handshake; on plain TCP it completes with success (from the I/O loop, like any completion). */
    void AsyncHandshake(DoneHandler done);
    /** Closes the TCP connection; pending operations complete with operation_aborted. */
    void Close();

    template <class MutableBufferSequence, class ReadToken>
    auto async_read_some(const MutableBufferSequence &buffers, ReadToken &&token) {
        return boost::asio::async_initiate<ReadToken, void(boost::beast::error_code, std::size_t)>(
            [this](auto handler, const MutableBuffers &erased) {
                ReadSome(erased, TransferHandler(std::move(handler)));
            },
            token, MutableBuffers(buffers));
    }

    template <class ConstBufferSequence, class WriteToken>
    auto async_write_some(const ConstBufferSequence &buffers, WriteToken &&token) {
        return boost::asio::async_initiate<WriteToken, void(boost::beast::error_code, std::size_t)>(
            [this](auto handler, const ConstBuffers &erased) {
                WriteSome(erased, TransferHandler(std::move(handler)));
            },
            token, ConstBuffers(buffers));
    }

    /** The WebSocket closing handshake's last step (Beast finds it by argument-dependent lookup): TLS close_notify,
     * then TCP. */
    template <class TeardownHandler>
    friend void async_teardown(boost::beast::role_type role, TransportStream &stream, TeardownHandler &&handler) {
        stream.Teardown(role, DoneHandler(std::forward<TeardownHandler>(handler)));
    }

    /** What Beast calls to close the stream on a WebSocket timeout (argument-dependent lookup). */
    friend void beast_close_socket(TransportStream &stream) { stream.Close(); }

  private:
    void ReadSome(const MutableBuffers &buffers, TransferHandler handler);
    void WriteSome(const ConstBuffers &buffers, TransferHandler handler);
    void Teardown(boost::beast::role_type role, DoneHandler handler);

    std::variant<boost::beast::tcp_stream, boost::beast::ssl_stream<boost::beast::tcp_stream>> stream_;
};

}  // namespace svcpp::core::net
