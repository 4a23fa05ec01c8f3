// FrameReader: one gateway frame's text → its envelope {op, t, s} and its data `d`, in one pass over the text.
//
// The text is read by net::JsonReader (Boost.JSON's lexer, nlohmann DOM values) with the frame object's members routed
// as they come: `op`, `t` and `s` into the reader's own slots, and only `d` built as a DOM, because the area reducers
// read it. A dispatch whose type nobody handles (the `wantsData` answer, asked when `d` starts) has its `d` checked for
// well-formedness but not built. Why not the DOM of the whole frame, nor nlohmann's lexer: figures in
// docs/gateway-hot-path.md.
//
// Same reading as the DOM of the whole frame, so nothing the session did before changes: lone surrogate escapes read
// as U+FFFD (net/json_text.hpp); text that is not one JSON value, or not an object, is not a frame; of a key given
// twice the last one counts; `op` and `s` count only as integers, `t` only as a string.
//
// Threading: one reader per session, used on its I/O thread (it keeps its buffers from frame to frame).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace svcpp::core::gateway {

struct Frame {
    std::optional<int64_t> op;   // absent unless an integer
    std::optional<int64_t> seq;  // `s`: absent unless an integer
    bool hasType = false;        // `t` is a string
    std::string type;            // `t` when hasType
    nlohmann::json data;         // `d`: null when absent, and when not built (dataSkipped)
    bool dataSkipped = false;    // a dispatch whose type wantsData refused: `d` was checked, not built
};

class FrameReader {
  public:
    /** Asked once per dispatch (op 0) whose `t` precedes its `d`: false = its `d` is not needed. */
    using WantsData = std::function<bool(std::string_view type)>;

    explicit FrameReader(WantsData wantsData = nullptr);
    ~FrameReader();
    FrameReader(const FrameReader &) = delete;
    FrameReader &operator=(const FrameReader &) = delete;

    /**
     * Reads `text` into `frame` (reset first; its buffers are reused). False when the text is not a JSON object;
     * `frame` then holds nothing usable.
     */
    bool Read(std::string_view text, Frame &frame);

  private:
    struct Envelope;  // the JSON reader and the envelope's router, kept from frame to frame: in the .cpp only

    WantsData wantsData_;
    std::unique_ptr<Envelope> envelope_;
    std::string unescaped_;  // the text with lone surrogates replaced, when it has any (rare)
};

}  // namespace svcpp::core::gateway
