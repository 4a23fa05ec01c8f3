#include "gateway/frame_reader.hpp"

#include <vector>

#include "net/json_text.hpp"

namespace svcpp::core::gateway {

namespace {

using nlohmann::json;

/**
 * The SAX handler of one frame. Three modes: the envelope (the frame object's own keys), building `d` (a DOM, the way
 * nlohmann's own DOM parser builds one: a stack of the open containers), and skipping a value nobody reads (an
 * unknown envelope key, a wrong-typed op/t/s, or an unwanted `d`), where only the nesting is counted.
 */
class EnvelopeHandler {
public:
    EnvelopeHandler(Frame &frame, const FrameReader::WantsData &wantsData, bool mayskip)
        : frame_(frame), wantsData_(wantsData), maySkip_(mayskip) {}

    /** A key that decided whether `d` was built came again after `d` was skipped: read the frame again, building. */
    bool MustReread() const { return reread_; }
    bool SawObject() const { return sawObject_; }

    bool null() { return Scalar(json(nullptr)); }
    bool boolean(bool v) { return Scalar(json(v)); }
    bool number_integer(json::number_integer_t v) {
        if (mode_ == Mode::Envelope && field_ == Field::Op) return frame_.op = v, true;
        if (mode_ == Mode::Envelope && field_ == Field::Seq) return frame_.seq = v, true;
        return Scalar(json(v));
    }
    bool number_unsigned(json::number_unsigned_t v) {
        // Beyond INT64_MAX an integer still counts as one (nlohmann's is_number_integer), read as int64_t the way
        // get<int64_t>() reads it.
        if (mode_ == Mode::Envelope && field_ == Field::Op) return frame_.op = static_cast<int64_t>(v), true;
        if (mode_ == Mode::Envelope && field_ == Field::Seq) return frame_.seq = static_cast<int64_t>(v), true;
        return Scalar(json(v));
    }
    bool number_float(json::number_float_t v, const json::string_t &) { return Scalar(json(v)); }
    bool string(json::string_t &v) {
        if (mode_ == Mode::Envelope && field_ == Field::Type) {
            frame_.hasType = true;
            frame_.type.assign(v);  // the reader's buffer: no allocation once it has grown to the longest type
            return true;
        }
        // Copied, not moved: `v` is the lexer's buffer, and taking it would make the lexer grow a new one for the next
        // string (more allocations than the copy saves).
        return Scalar(json(v));
    }
    bool binary(json::binary_t &) { return false; }  // never produced by JSON text

    bool start_object(std::size_t) { return StartContainer(json::value_t::object); }
    bool start_array(std::size_t) { return StartContainer(json::value_t::array); }
    bool end_object() { return EndContainer(); }
    bool end_array() { return EndContainer(); }

    bool key(json::string_t &k) {
        switch (mode_) {
            case Mode::Build:
                // A key given twice: the last value wins, as in nlohmann's DOM (the map's own operator[]: no key copy).
                member_ = &stack_.back()->get_ref<json::object_t &>()[k];
                return true;
            case Mode::Skip:
                return true;
            case Mode::Envelope:
                field_ = FieldOf(k);
                if (field_ == Field::Op || field_ == Field::Type) {
                    if (frame_.dataSkipped) reread_ = true;
                    // The last one counts: a wrong-typed repeat unsets what an earlier one set.
                    if (field_ == Field::Op) frame_.op.reset();
                    else frame_.hasType = false;
                } else if (field_ == Field::Seq) {
                    frame_.seq.reset();
                } else if (field_ == Field::Data) {
                    frame_.data = nullptr;
                    frame_.dataSkipped = maySkip_ && wantsData_ && frame_.op == 0 && frame_.hasType && !wantsData_(frame_.type);
                }
                return true;
            case Mode::Outside:
                return false;
        }
        return false;
    }

    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &) { return false; }

private:
    enum class Mode { Outside, Envelope, Build, Skip };
    enum class Field { Op, Type, Seq, Data, Other };

    static Field FieldOf(std::string_view k) {
        if (k == "op") return Field::Op;
        if (k == "t") return Field::Type;
        if (k == "s") return Field::Seq;
        if (k == "d") return Field::Data;
        return Field::Other;
    }

    /** A scalar value: into the DOM being built, or `d` itself; any other envelope field ignores it. */
    bool Scalar(json &&value) {
        switch (mode_) {
            case Mode::Build:
                Place(std::move(value));
                return true;
            case Mode::Skip:
                return true;
            case Mode::Envelope:
                if (field_ == Field::Data && !frame_.dataSkipped) frame_.data = std::move(value);
                return true;
            case Mode::Outside:
                return false;  // the text is a scalar, not a frame
        }
        return false;
    }

    json *Place(json &&value) {
        json &parent = *stack_.back();
        if (parent.is_array()) {
            parent.get_ref<json::array_t &>().push_back(std::move(value));
            return &parent.get_ref<json::array_t &>().back();
        }
        *member_ = std::move(value);
        return member_;
    }

    bool StartContainer(json::value_t type) {
        switch (mode_) {
            case Mode::Outside:
                if (type != json::value_t::object) return false;  // an array is not a frame
                sawObject_ = true;
                mode_ = Mode::Envelope;
                return true;
            case Mode::Build:
                stack_.push_back(Place(json(type)));
                return true;
            case Mode::Skip:
                ++skipDepth_;
                return true;
            case Mode::Envelope:
                if (field_ == Field::Data && !frame_.dataSkipped) {
                    frame_.data = json(type);
                    stack_.push_back(&frame_.data);
                    mode_ = Mode::Build;
                } else {
                    mode_ = Mode::Skip;
                    skipDepth_ = 1;
                }
                return true;
        }
        return false;
    }

    bool EndContainer() {
        switch (mode_) {
            case Mode::Build:
                stack_.pop_back();
                if (stack_.empty()) mode_ = Mode::Envelope;
                return true;
            case Mode::Skip:
                if (--skipDepth_ == 0) mode_ = Mode::Envelope;
                return true;
            case Mode::Envelope:
                mode_ = Mode::Outside;  // the frame object ended; anything after it is a parse error
                return true;
            case Mode::Outside:
                return false;
        }
        return false;
    }

    Frame &frame_;
    const FrameReader::WantsData &wantsData_;
    const bool maySkip_;
    Mode mode_ = Mode::Outside;
    Field field_ = Field::Other;
    std::vector<json *> stack_;  // the open containers of `d`, innermost last
    json *member_ = nullptr;     // in an object of `d`: the member whose value comes next
    int skipDepth_ = 0;
    bool sawObject_ = false;
    bool reread_ = false;
};

void Reset(Frame &frame) {
    frame.op.reset();
    frame.seq.reset();
    frame.hasType = false;
    frame.type.clear();  // keeps its capacity
    frame.data = nullptr;
    frame.dataSkipped = false;
}

bool ReadOnce(std::string_view text, Frame &frame, const FrameReader::WantsData &wantsData, bool maySkip, bool &reread) {
    Reset(frame);
    EnvelopeHandler handler(frame, wantsData, maySkip);
    const bool parsed = json::sax_parse(text, &handler, json::input_format_t::json, /*strict=*/true);
    reread = parsed && handler.MustReread();
    return parsed && handler.SawObject();
}

}  // namespace

bool FrameReader::Read(std::string_view text, Frame &frame) {
    const std::string_view readable = net::WithLoneSurrogatesReplaced(text, unescaped_);
    bool reread = false;
    if (!ReadOnce(readable, frame, wantsData_, true, reread)) return false;
    // Only a frame that repeats `op` or `t` after an unwanted `d` gets here (never the platform's): read it whole.
    if (reread) return ReadOnce(readable, frame, wantsData_, false, reread);
    return true;
}

}  // namespace svcpp::core::gateway
