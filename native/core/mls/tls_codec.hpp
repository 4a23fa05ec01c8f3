// The TLS presentation language as MLS uses it (RFC 9420 §2.1): big-endian integers, and variable-length vectors whose
// length is a QUIC-style varint (§2.1.2: 1, 2 or 4 bytes, top two bits select the size; 8-byte form is invalid in MLS,
// and a length must use the shortest encoding). Decoding is strict: every length is checked against what remains,
// and any violation throws DecodeError — never reads past the end.
#pragma once
#include <cstdint>
#include <optional>

#include "mls/bytes.hpp"

namespace svcpp::core::mls::tls {

/** The largest length a MLS varint can carry (2^30 - 1). */
inline constexpr uint64_t kMaxVarint = (1u << 30) - 1;

class Writer {
  public:
    void U8(uint8_t v) { out_.push_back(v); }
    void U16(uint16_t v);
    void U32(uint32_t v);
    void U64(uint64_t v);
    /** A varint length (throws Error above kMaxVarint). */
    void Varint(uint64_t v);
    /** opaque data<V>: varint length then the bytes. */
    void Opaque(ByteView data);
    /** Raw bytes, no length (fixed-size fields, or a nested struct already encoded). */
    void Raw(ByteView data) { out_.insert(out_.end(), data.begin(), data.end()); }
    /** T items<V>: writes the items with `writeItem` into a scratch writer, then length-prefixes the result. */
    template <class Range, class WriteItem>
    void Vector(const Range &items, WriteItem writeItem) {
        Writer inner;
        for (const auto &item : items) writeItem(inner, item);
        Opaque(inner.Bytes());
    }
    /** optional<T>: a presence byte, then the value. */
    template <class T, class WriteItem>
    void Optional(const std::optional<T> &value, WriteItem writeItem) {
        U8(value ? 1 : 0);
        if (value) writeItem(*this, *value);
    }

    const mls::Bytes &Bytes() const & { return out_; }
    mls::Bytes Take() { return std::move(out_); }

  private:
    mls::Bytes out_;
};

class Reader {
  public:
    explicit Reader(ByteView data) : data_(data) {}

    uint8_t U8();
    uint16_t U16();
    uint32_t U32();
    uint64_t U64();
    uint64_t Varint();
    Bytes Opaque();
    /** Exactly `size` raw bytes. */
    Bytes Raw(std::size_t size);
    /** The body of a vector<V> as its own reader: the caller decodes items until it is empty. */
    Reader Sub();
    /** Decodes items with `readItem` until the vector's body is consumed. */
    template <class T, class ReadItem>
    std::vector<T> Vector(ReadItem readItem) {
        Reader body = Sub();
        std::vector<T> items;
        while (!body.Empty()) items.push_back(readItem(body));
        return items;
    }
    template <class T, class ReadItem>
    std::optional<T> Optional(ReadItem readItem) {
        uint8_t present = U8();
        if (present > 1) throw DecodeError("optional: presence byte is not 0 or 1");
        if (!present) return std::nullopt;
        return readItem(*this);
    }

    bool Empty() const { return position_ == data_.size(); }
    std::size_t Remaining() const { return data_.size() - position_; }
    std::size_t Position() const { return position_; }
    /** Throws unless everything was consumed (a message with trailing bytes is malformed). */
    void ExpectEnd() const;

  private:
    ByteView Take(std::size_t size);

    ByteView data_;
    std::size_t position_ = 0;
};

}  // namespace svcpp::core::mls::tls
