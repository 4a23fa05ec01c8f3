// JsonReader: JSON text → nlohmann DOM values, lexed by Boost.JSON's parser.
//
// The core keeps nlohmann::json as the value every reducer and wire reader takes; what it does not keep is nlohmann's
// own lexer, which is most of the cost of reading a frame (several times slower than Boost.JSON's; figures in
// docs/gateway-hot-path.md). The reader builds exactly the DOM nlohmann's parser would: objects with the last of a
// repeated key, a non-negative integer literal unsigned and a negative one (or -0) signed, a number with a fraction or
// an exponent — or past the 64-bit range — read from its text by strtod as nlohmann reads it, a non-finite one
// refused, strict JSON (no comments, no trailing commas, UTF-8 checked), a leading byte-order mark skipped.
//
// Two limits of its own, both allowed by RFC 8259 §9 and far past anything a server sends: nesting deeper than
// kMaxDepth levels, and a number whose exponent does not fit a 32-bit integer, are refused (nlohmann reads the
// latter as 0 or refuses it as an overflow).
//
// A value is built over whatever its target already holds when that has the same type (an object of at most 32
// members, any array): nodes found again are kept, the rest removed, so the result is the fresh value and a stream of
// same-shaped documents (a lobby's messages, read into the frame reader's `d`) allocates nothing.
//
// Lone surrogate escapes are the caller's to replace first (net/json_text.hpp): the parser refuses them.
//
// Threading: one reader per thread at a time; it keeps its buffers from document to document.
#pragma once
#include <cstddef>
#include <memory>
#include <string_view>

#include <nlohmann/json.hpp>

namespace svcpp::core::net {

/** Where each member of a document's top-level object goes (JsonReader::ReadMembers). */
class MemberRouter {
  public:
    virtual ~MemberRouter() = default;
    /**
     * The value to build the member named `key` into — replaced (built over when it has the new value's type), so of a
     * key given twice the last counts — or nullptr: the member's value is checked for well-formedness and not built.
     */
    virtual nlohmann::json *Route(std::string_view key) = 0;
};

class JsonReader {
  public:
    static constexpr std::size_t kMaxDepth = 256;

    JsonReader();
    ~JsonReader();
    JsonReader(const JsonReader &) = delete;
    JsonReader &operator=(const JsonReader &) = delete;

    /**
     * The whole document into `out` (built over what it holds). False when the text is not one JSON value; `out` then
     * holds nothing usable.
     */
    bool Read(std::string_view text, nlohmann::json &out);

    /**
     * A document that must be one JSON object, each of its members built where `router` says. False when the text is
     * not one JSON object (the members routed so far may have been written).
     */
    bool ReadMembers(std::string_view text, MemberRouter &router);

  private:
    struct Parser;  // Boost.JSON's parser, kept from document to document: in the .cpp only
    std::unique_ptr<Parser> parser_;
};

}  // namespace svcpp::core::net
