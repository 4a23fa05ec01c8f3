#include "net/json_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

// Boost.JSON is header-only when its implementation files are included in exactly one translation unit: this one
// includes those its parser needs (its error codes, its stack, the memory resources the stack allocates through) and
// instantiates the parser, once, for the handler below. Nothing else of the library is used.
#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/memory_resource.hpp>
#include <boost/json/detail/impl/default_resource.ipp>
#include <boost/json/detail/impl/shared_resource.ipp>
#include <boost/json/detail/impl/stack.ipp>
#include <boost/json/impl/error.ipp>

namespace svcpp::core::net {

namespace {

using boost::json::error_code;
using nlohmann::json;
using std::string_view;

/**
 * The handler Boost.JSON's parser calls. Modes: outside any value; the members of the top-level object when a router
 * places them; building a value (a stack of the open containers, the way nlohmann's own DOM parser builds one);
 * skipping a value the router did not want, where only the nesting is counted; done.
 *
 * A value built where one of the same type already is — the previous frame's `d`, which the frame reader hands back
 * every time — is built over it: an object's members found again keep their nodes (a string its buffer, a container its
 * own members), an array's elements are overwritten in order, and what the new text does not have is removed at the
 * container's end. The result is the value a fresh build makes; what it saves is the destruction of the old value and
 * the allocation of the new one, when consecutive frames have the same shape (a lobby's messages do).
 */
class DomBuilder {
  public:
    // No limit of the parser's own: the caller's message size bounds a document.
    static constexpr std::size_t max_object_size = std::numeric_limits<std::size_t>::max();
    static constexpr std::size_t max_array_size = std::numeric_limits<std::size_t>::max();
    static constexpr std::size_t max_key_size = std::numeric_limits<std::size_t>::max();
    static constexpr std::size_t max_string_size = std::numeric_limits<std::size_t>::max();

    /** The next document goes whole into `document` (router null), or member by member where `router` says. */
    void Begin(json *document, MemberRouter *router) {
        document_ = document;
        router_ = router;
        mode_ = Mode::Outside;
        stack_.clear();
        seen_.clear();
        member_ = nullptr;
        slot_ = nullptr;
        skipDepth_ = 0;
        text_.clear();
        number_.clear();
    }

    bool on_document_begin(error_code &) { return true; }
    bool on_document_end(error_code &) { return true; }
    bool on_object_begin(error_code &ec) { return Ok(StartContainer(json::value_t::object), ec); }
    bool on_object_end(std::size_t, error_code &ec) { return Ok(EndContainer(), ec); }
    bool on_array_begin(error_code &ec) { return Ok(StartContainer(json::value_t::array), ec); }
    bool on_array_end(std::size_t, error_code &ec) { return Ok(EndContainer(), ec); }

    // A string or key comes in parts only when it holds escapes or spans the parser's buffer: the parts are gathered.
    bool on_key_part(string_view part, std::size_t, error_code &) { return text_.append(part), true; }
    bool on_key(string_view last, std::size_t, error_code &ec) { return Ok(Key(Gathered(text_, last)), ec); }
    bool on_string_part(string_view part, std::size_t, error_code &) { return text_.append(part), true; }
    bool on_string(string_view last, std::size_t, error_code &ec) { return Ok(String(Gathered(text_, last)), ec); }

    bool on_number_part(string_view part, error_code &) { return number_.append(part), true; }
    bool on_int64(int64_t value, string_view last, error_code &ec) {
        // nlohmann: a literal without a sign is unsigned, one with a sign (-0 too) signed.
        if (value < 0 || Gathered(number_, last).front() == '-') return Ok(Scalar(json(value)), ec);
        return Ok(Scalar(json(static_cast<uint64_t>(value))), ec);
    }
    bool on_uint64(uint64_t value, string_view last, error_code &ec) {
        (void)Gathered(number_, last);
        return Ok(Scalar(json(value)), ec);
    }
    bool on_double(double, string_view last, error_code &ec) {
        // Read from the text as nlohmann reads it (Boost's own conversion may differ in the last bit); strtod needs a
        // terminated string, and a number's text is short (the small-string buffer holds most).
        numberText_.assign(Gathered(number_, last));
        const double value = std::strtod(numberText_.c_str(), nullptr);
        if (!std::isfinite(value)) return Ok(false, ec);  // nlohmann refuses a number that overflows a double
        return Ok(Scalar(json(value)), ec);
    }
    bool on_bool(bool value, error_code &ec) { return Ok(Scalar(json(value)), ec); }
    bool on_null(error_code &ec) { return Ok(Scalar(json(nullptr)), ec); }
    bool on_comment_part(string_view, error_code &ec) { return Ok(false, ec); }  // comments are not JSON
    bool on_comment(string_view, error_code &ec) { return Ok(false, ec); }

  private:
    enum class Mode { Outside, Members, Build, Skip, Done };

    /** A container being built. */
    struct Open {
        json *container;
        std::size_t next;  // an array: the index its next element takes; an object: where its members start in seen_
        bool rebuilt;      // built over a value of the same type
    };
    // An object built over is one of at most this many members: finding a member in its list of seen ones is a scan.
    static constexpr std::size_t kMaxRebuiltMembers = 32;

    /** A handler that refuses must say why, or the parser would take the refusal for success. */
    static bool Ok(bool accepted, error_code &ec) {
        if (!accepted) ec = boost::json::error::syntax;
        return accepted;
    }

    /**
     * The whole of a string, key or number: `last` itself when it came in one part (no copy), else the gathered parts
     * (valid until the next value that came in parts).
     */
    string_view Gathered(std::string &parts, string_view last) {
        if (parts.empty()) return last;
        parts.append(last);
        gathered_.swap(parts);
        parts.clear();
        return gathered_;
    }

    bool Key(string_view k) {
        switch (mode_) {
            case Mode::Build: {
                // A key given twice: the last value wins, as in nlohmann's DOM (built over the first). One search, and
                // the key's string is made only for a new member.
                Open &open = stack_.back();
                auto &object = open.container->get_ref<json::object_t &>();
                auto at = object.lower_bound(k);
                if (at == object.end() || at->first != k) at = object.emplace_hint(at, json::string_t(k), nullptr);
                member_ = &at->second;
                if (open.rebuilt && std::find(seen_.begin() + open.next, seen_.end(), member_) == seen_.end()) {
                    seen_.push_back(member_);
                }
                return true;
            }
            case Mode::Members: slot_ = router_->Route(k); return true;
            case Mode::Skip: return true;
            case Mode::Outside:
            case Mode::Done: return false;
        }
        return false;
    }

    bool String(string_view value) {
        // A place that already holds a string (a routed slot kept from document to document, a member built over)
        // takes the new one into its buffer: no allocation once it has grown.
        json *place = mode_ == Mode::Members ? slot_ : mode_ == Mode::Build ? NextPlace() : nullptr;
        if (!place || !place->is_string()) return Scalar(json(json::string_t(value)), place);
        place->get_ref<json::string_t &>().assign(value);
        return true;
    }

    /**
     * A scalar: the document itself, a routed member, or a value of the container being built (at `place` when the
     * caller has taken it already with NextPlace).
     */
    bool Scalar(json &&value, json *place = nullptr) {
        switch (mode_) {
            case Mode::Outside:
                if (router_) return false;  // a scalar is not an object
                *document_ = std::move(value);
                mode_ = Mode::Done;
                return true;
            case Mode::Members:
                if (slot_) *slot_ = std::move(value);
                return true;
            case Mode::Build: *(place ? place : NextPlace()) = std::move(value); return true;
            case Mode::Skip: return true;
            case Mode::Done: return false;
        }
        return false;
    }

    /** Where the next value of the container being built goes: the member whose key came, or the array's next element.
     */
    json *NextPlace() {
        Open &open = stack_.back();
        if (!open.container->is_array()) return member_;
        auto &array = open.container->get_ref<json::array_t &>();
        if (open.next == array.size()) array.emplace_back();
        return &array[open.next++];
    }

    bool StartContainer(json::value_t type) {
        switch (mode_) {
            case Mode::Outside:
                if (router_) {
                    if (type != json::value_t::object) return false;  // an array is not an object
                    mode_ = Mode::Members;
                    return true;
                }
                return BuildInto(*document_, type);
            case Mode::Members:
                if (slot_) return BuildInto(*slot_, type);
                mode_ = Mode::Skip;
                skipDepth_ = 1;
                return true;
            case Mode::Build: return BuildInto(*NextPlace(), type);
            case Mode::Skip: ++skipDepth_; return true;
            case Mode::Done: return false;
        }
        return false;
    }

    bool BuildInto(json &target, json::value_t type) {
        // Built over what is there when it has the type (an object only when small: its members are tracked in a list).
        const bool rebuilt =
            target.type() == type && (type == json::value_t::array || target.size() <= kMaxRebuiltMembers);
        if (!rebuilt) target = json(type);
        stack_.push_back({&target, type == json::value_t::object ? seen_.size() : 0, rebuilt});
        mode_ = Mode::Build;
        return true;
    }

    /** At a container's end: what the value built over had and the new text did not is removed. */
    void RemoveWhatWasNotSeen(const Open &open) {
        if (open.container->is_array()) {
            auto &array = open.container->get_ref<json::array_t &>();
            array.erase(array.begin() + static_cast<std::ptrdiff_t>(open.next), array.end());
            return;
        }
        if (!open.rebuilt) return;
        auto &object = open.container->get_ref<json::object_t &>();
        const auto seenBegin = seen_.begin() + static_cast<std::ptrdiff_t>(open.next);
        if (object.size() != static_cast<std::size_t>(seen_.end() - seenBegin)) {
            for (auto at = object.begin(); at != object.end();) {
                at = std::find(seenBegin, seen_.end(), &at->second) == seen_.end() ? object.erase(at) : std::next(at);
            }
        }
        seen_.erase(seenBegin, seen_.end());
    }

    bool EndContainer() {
        switch (mode_) {
            case Mode::Build:
                RemoveWhatWasNotSeen(stack_.back());
                stack_.pop_back();
                if (stack_.empty()) mode_ = router_ ? Mode::Members : Mode::Done;
                return true;
            case Mode::Skip:
                if (--skipDepth_ == 0) mode_ = Mode::Members;
                return true;
            case Mode::Members:
                mode_ = Mode::Done;  // the top-level object ended
                return true;
            case Mode::Outside:
            case Mode::Done: return false;
        }
        return false;
    }

    json *document_ = nullptr;
    MemberRouter *router_ = nullptr;
    Mode mode_ = Mode::Outside;
    std::vector<Open> stack_;         // the open containers being built, innermost last
    std::vector<const json *> seen_;  // of the objects being built over: the members the text has given so far
    json *member_ = nullptr;          // in an object being built: the member whose value comes next
    json *slot_ = nullptr;            // in the top-level object: where the router put the member whose value comes next
    int skipDepth_ = 0;
    std::string text_;        // the parts of a string or key that came in more than one
    std::string number_;      // the parts of a number that came in more than one
    std::string gathered_;    // the last value gathered from parts
    std::string numberText_;  // a double's text, terminated for strtod
};

boost::json::parse_options StrictOptions() {
    boost::json::parse_options options;  // no comments, no trailing commas, UTF-8 checked: strict JSON
    options.max_depth = JsonReader::kMaxDepth;
    return options;
}

/** nlohmann skips a UTF-8 byte-order mark at the start of the text. */
string_view WithoutByteOrderMark(string_view text) {
    constexpr string_view kMark = "\xEF\xBB\xBF";
    return text.substr(0, kMark.size()) == kMark ? text.substr(kMark.size()) : text;
}

}  // namespace

struct JsonReader::Parser {
    boost::json::basic_parser<DomBuilder> parser{StrictOptions()};

    bool Run(string_view text, json *document, MemberRouter *router) {
        text = WithoutByteOrderMark(text);
        parser.reset();
        parser.handler().Begin(document, router);
        error_code ec;
        const std::size_t used = parser.write_some(/*more=*/false, text.data(), text.size(), ec);
        return !ec && used == text.size() && parser.done();
    }
};

JsonReader::JsonReader() : parser_(std::make_unique<Parser>()) {}

JsonReader::~JsonReader() = default;

bool JsonReader::Read(string_view text, json &out) { return parser_->Run(text, &out, nullptr); }

bool JsonReader::ReadMembers(string_view text, MemberRouter &router) { return parser_->Run(text, nullptr, &router); }

}  // namespace svcpp::core::net
