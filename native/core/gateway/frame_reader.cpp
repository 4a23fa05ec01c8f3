#include "gateway/frame_reader.hpp"

#include "net/json_reader.hpp"
#include "net/json_text.hpp"

namespace svcpp::core::gateway {

namespace {

using nlohmann::json;

/** The envelope forgotten; `data` is left for the next `d` to be built over (net/json_reader.hpp) or cleared. */
void ResetEnvelope(Frame &frame) {
    frame.op.reset();
    frame.seq.reset();
    frame.hasType = false;
    frame.type.clear();  // keeps its capacity
    frame.dataSkipped = false;
}

/** The envelope's fields as the session reads them: `op` and `s` only as integers, `t` only as a string. */
void TakeEnvelope(const json &op, const json &seq, const json &type, Frame &frame) {
    if (op.is_number_integer()) frame.op = op.get<int64_t>();  // past INT64_MAX too, cast as get<int64_t>() casts
    if (seq.is_number_integer()) frame.seq = seq.get<int64_t>();
    if (type.is_string()) {
        frame.hasType = true;
        frame.type.assign(type.get_ref<const std::string &>());
    }
}

/**
 * Routes the frame object's members: op, s and t into the router's own slots (kept from frame to frame, so a type's
 * string reuses its buffer), d into the frame — built over the previous frame's — unless it is a dispatch whose type
 * nobody handles, the rest nowhere.
 */
class EnvelopeRouter final : public net::MemberRouter {
  public:
    explicit EnvelopeRouter(const FrameReader::WantsData &wantsData) : wantsData_(wantsData) {}

    void Begin(Frame &frame) {
        frame_ = &frame;
        op_ = nullptr;
        seq_ = nullptr;
        if (!type_.is_string()) type_ = nullptr;  // a string keeps its buffer; hasType_ says whether this frame set it
        hasType_ = false;
        hasData_ = false;
        reread_ = false;
    }

    /** A key that decided whether `d` was built came again after `d` was skipped: the frame must be read whole. */
    bool MustReread() const { return reread_; }

    void Finish() {
        const json noType;
        TakeEnvelope(op_, seq_, hasType_ ? type_ : noType, *frame_);
        if (!hasData_) frame_->data = nullptr;  // no `d`: null, as documented
    }

    json *Route(std::string_view key) override {
        if (key == "op" || key == "t") {
            if (frame_->dataSkipped) reread_ = true;
            if (key == "op") return &op_;
            hasType_ = true;
            return &type_;
        }
        if (key == "s") return &seq_;
        if (key == "d") {
            frame_->dataSkipped = wantsData_ && op_.is_number_integer() && op_.get<int64_t>() == 0 && hasType_ &&
                                  type_.is_string() && !wantsData_(type_.get_ref<const std::string &>());
            hasData_ = !frame_->dataSkipped;
            if (frame_->dataSkipped) frame_->data = nullptr;
            return hasData_ ? &frame_->data : nullptr;
        }
        return nullptr;
    }

  private:
    const FrameReader::WantsData &wantsData_;
    Frame *frame_ = nullptr;
    json op_, seq_, type_;
    bool hasType_ = false;  // a `t` member was read in this frame (type_ may hold an earlier frame's string otherwise)
    bool hasData_ = false;  // a `d` member was built in this frame (frame_->data holds the previous frame's otherwise)
    bool reread_ = false;
};

}  // namespace

struct FrameReader::Envelope {
    explicit Envelope(const WantsData &wantsData) : router(wantsData) {}
    net::JsonReader json;
    EnvelopeRouter router;
};

FrameReader::FrameReader(WantsData wantsData)
    : wantsData_(std::move(wantsData)), envelope_(std::make_unique<Envelope>(wantsData_)) {}

FrameReader::~FrameReader() = default;

bool FrameReader::Read(std::string_view text, Frame &frame) {
    const std::string_view readable = net::WithLoneSurrogatesReplaced(text, unescaped_);
    ResetEnvelope(frame);
    envelope_->router.Begin(frame);
    if (!envelope_->json.ReadMembers(readable, envelope_->router)) return false;
    if (!envelope_->router.MustReread()) {
        envelope_->router.Finish();
        return true;
    }
    // Only a frame that repeats `op` or `t` after an unwanted `d` gets here (never the platform's): read it whole.
    ResetEnvelope(frame);
    frame.data = nullptr;
    json whole;
    if (!envelope_->json.Read(readable, whole)) return false;
    const json none;
    const auto member = [&whole, &none](const char *key) -> const json & {
        const auto found = whole.find(key);
        return found != whole.end() ? *found : none;
    };
    TakeEnvelope(member("op"), member("s"), member("t"), frame);
    if (const auto d = whole.find("d"); d != whole.end()) frame.data = std::move(*d);
    return true;
}

}  // namespace svcpp::core::gateway
