#include "net/json_text.hpp"

#include <optional>

#include "net/json_reader.hpp"
#include "per_thread/per_thread.hpp"

namespace svcpp::core::net {

namespace {

constexpr std::string_view kReplacement = "\\ufffd";

int HexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/** The code unit of a "\uXXXX" escape starting at text[at], or nullopt when there is none there. */
std::optional<unsigned> EscapeAt(std::string_view text, size_t at) {
    if (at + 6 > text.size() || text[at] != '\\' || text[at + 1] != 'u') return std::nullopt;
    unsigned unit = 0;
    for (size_t i = at + 2; i < at + 6; ++i) {
        const int digit = HexDigit(text[i]);
        if (digit < 0) return std::nullopt;
        unit = unit * 16 + static_cast<unsigned>(digit);
    }
    return unit;
}

bool IsHigh(unsigned unit) { return unit >= 0xD800 && unit <= 0xDBFF; }
bool IsLow(unsigned unit) { return unit >= 0xDC00 && unit <= 0xDFFF; }

/** Quick pre-check: does the text hold a "\ud8.." – "\udf.." escape at all? Most frames do not. */
bool MayHoldSurrogateEscape(std::string_view text) {
    for (size_t at = text.find("\\u"); at != std::string_view::npos; at = text.find("\\u", at + 2)) {
        if (at + 3 < text.size() && (text[at + 2] == 'd' || text[at + 2] == 'D')) return true;
    }
    return false;
}

// Writes the text, lone surrogate escapes replaced, into `out` (cleared first, its buffer kept).
// Backslashes only occur inside strings in valid JSON, so walking escape by escape (every "\x" pair consumed
// whole, so "\\u" is an escaped backslash followed by a plain 'u') finds exactly the \u escapes of the strings.
void ReplaceInto(std::string_view text, std::string &out) {
    out.clear();  // keeps the buffer
    out.reserve(text.size());
    size_t at = 0;
    while (at < text.size()) {
        if (text[at] != '\\' || at + 1 >= text.size()) {
            out.push_back(text[at++]);
            continue;
        }
        const auto unit = EscapeAt(text, at);
        if (!unit) {  // another escape (\n, \", \\ …): copy the pair
            out.append(text.substr(at, 2));
            at += 2;
            continue;
        }
        if (IsHigh(*unit)) {
            const auto next = EscapeAt(text, at + 6);
            if (next && IsLow(*next)) {  // a proper pair
                out.append(text.substr(at, 12));
                at += 12;
                continue;
            }
            out.append(kReplacement);
        } else if (IsLow(*unit)) {
            out.append(kReplacement);
        } else {
            out.append(text.substr(at, 6));
        }
        at += 6;
    }
}

}  // namespace

std::string ReplaceLoneSurrogateEscapes(std::string_view text) {
    std::string out;
    if (!MayHoldSurrogateEscape(text)) return out.assign(text);
    ReplaceInto(text, out);
    return out;
}

std::string_view WithLoneSurrogatesReplaced(std::string_view text, std::string &storage) {
    if (!MayHoldSurrogateEscape(text)) return text;
    ReplaceInto(text, storage);
    return storage;
}

nlohmann::json ParseJson(std::string_view text) {
    JsonReader &reader = threads::PerThread<JsonReader>();  // its parser's buffers kept from call to call
    std::string storage;
    nlohmann::json value;
    if (!reader.Read(WithLoneSurrogatesReplaced(text, storage), value))
        return nlohmann::json(nlohmann::json::value_t::discarded);
    return value;
}

}  // namespace svcpp::core::net
