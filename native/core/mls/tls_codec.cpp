#include "mls/tls_codec.hpp"

#include <string>

namespace svcpp::core::mls::tls {

void Writer::U16(uint16_t v) {
    U8(static_cast<uint8_t>(v >> 8));
    U8(static_cast<uint8_t>(v));
}

void Writer::U32(uint32_t v) {
    U16(static_cast<uint16_t>(v >> 16));
    U16(static_cast<uint16_t>(v));
}

void Writer::U64(uint64_t v) {
    U32(static_cast<uint32_t>(v >> 32));
    U32(static_cast<uint32_t>(v));
}

void Writer::Varint(uint64_t v) {
    if (v < 0x40) {
        U8(static_cast<uint8_t>(v));
    } else if (v < 0x4000) {
        U16(static_cast<uint16_t>(0x4000 | v));
    } else if (v <= kMaxVarint) {
        U32(static_cast<uint32_t>(0x80000000u | v));
    } else {
        throw Error("varint: length " + std::to_string(v) + " exceeds 2^30-1");
    }
}

void Writer::Opaque(ByteView data) {
    Varint(data.size());
    Raw(data);
}

ByteView Reader::Take(std::size_t size) {
    if (size > Remaining()) {
        throw DecodeError("truncated: need " + std::to_string(size) + " bytes at offset " + std::to_string(position_) +
                          ", " + std::to_string(Remaining()) + " left");
    }
    ByteView out = data_.subspan(position_, size);
    position_ += size;
    return out;
}

uint8_t Reader::U8() { return Take(1)[0]; }

uint16_t Reader::U16() {
    ByteView b = Take(2);
    return static_cast<uint16_t>((b[0] << 8) | b[1]);
}

uint32_t Reader::U32() {
    ByteView b = Take(4);
    return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | b[3];
}

uint64_t Reader::U64() {
    uint64_t high = U32();
    return (high << 32) | U32();
}

uint64_t Reader::Varint() {
    if (Empty()) throw DecodeError("truncated: varint at end of input");
    uint8_t first = data_[position_];
    uint8_t prefix = first >> 6;
    uint64_t value = 0;
    switch (prefix) {
        case 0: value = U8(); break;
        case 1: value = U16() & 0x3fff; break;
        case 2: value = U32() & 0x3fffffff; break;
        default: throw DecodeError("varint: 8-byte form is not allowed in MLS");
    }
    // RFC 9420 §2.1.2: a length must be encoded in the fewest bytes.
    bool minimal = (prefix == 0) || (prefix == 1 && value >= 0x40) || (prefix == 2 && value >= 0x4000);
    if (!minimal) throw DecodeError("varint: not minimally encoded");
    return value;
}

Bytes Reader::Opaque() {
    uint64_t size = Varint();
    if (size > Remaining()) {
        throw DecodeError("opaque: length " + std::to_string(size) + " exceeds the " + std::to_string(Remaining()) +
                          " bytes left");
    }
    return Raw(static_cast<std::size_t>(size));
}

Bytes Reader::Raw(std::size_t size) {
    ByteView b = Take(size);
    return Bytes(b.begin(), b.end());
}

Reader Reader::Sub() {
    uint64_t size = Varint();
    if (size > Remaining()) {
        throw DecodeError("vector: length " + std::to_string(size) + " exceeds the " + std::to_string(Remaining()) +
                          " bytes left");
    }
    return Reader(Take(static_cast<std::size_t>(size)));
}

void Reader::ExpectEnd() const {
    if (!Empty()) throw DecodeError(std::to_string(Remaining()) + " trailing bytes after the structure");
}

}  // namespace svcpp::core::mls::tls
