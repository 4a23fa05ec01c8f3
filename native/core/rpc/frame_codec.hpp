// The local RPC frame format (native/SEMANTICS.md "Local RPC"): u32 LE opcode | u32 LE length | `length` bytes of
// UTF-8 JSON. The decoder is fed whatever the socket delivered and hands out whole frames; a header that cannot
// start a frame (unknown opcode, a length above the cap) poisons the stream — nothing after it can be trusted to
// be aligned on a header — so the connection is dropped and opened afresh.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace svcpp::core::rpc {

enum class Opcode : uint32_t { Handshake = 0, Frame = 1, Close = 2, Ping = 3, Pong = 4 };

/** The largest body either side may declare (the local client closes a connection that sends more). */
inline constexpr std::size_t kMaxFrameBytes = 64 * 1024;
inline constexpr std::size_t kHeaderBytes = 8;

struct Frame {
    Opcode opcode;
    std::string body;
};

/** Header + body, ready to write. The body must not exceed kMaxFrameBytes (callers build small JSON). */
std::string EncodeFrame(Opcode opcode, std::string_view body);

class FrameDecoder {
  public:
    /** Appends received bytes. */
    void Feed(std::string_view bytes);
    /** The next whole frame, if the buffer holds one. Empty also once Failed(): the stream is poisoned. */
    std::optional<Frame> Next();
    /** Why the stream cannot be read any further ("unknown opcode 9", "frame too large: …"); empty while fine. */
    const std::string &Failure() const { return failure_; }
    bool Failed() const { return !failure_.empty(); }
    /** Bytes held that do not form a whole frame yet. */
    std::size_t Buffered() const { return buffer_.size() - offset_; }

  private:
    std::string buffer_;
    std::size_t offset_ = 0;
    std::string failure_;
};

}  // namespace svcpp::core::rpc
