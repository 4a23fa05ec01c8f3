// Maps (Svcpp_Properties <-> a plain JS object of strings), u64 spans (<-> arrays of bigint) and handle arrays
// passed in as spans. Inputs are held by a value that owns the memory the C view points into, for the call.
#pragma once

#include <string>
#include <vector>

#include "addon.hpp"
#include "handles.hpp"

namespace svcpp_node {

/** A JS map argument converted for one call: owns the UTF-8 bytes the Svcpp_Properties view points into. */
class PropertiesArg {
  public:
    /** Own enumerable string keys of a non-array object; every value must be a string (TypeError otherwise). */
    explicit PropertiesArg(const Napi::Value &v);
    PropertiesArg(const PropertiesArg &) = delete;
    PropertiesArg &operator=(const PropertiesArg &) = delete;
    /** {0, NULL, NULL} when empty. */
    Svcpp_Properties View();

  private:
    std::vector<std::string> keys_, values_;
    std::vector<Svcpp_String> keyViews_, valueViews_;
};

/** A JS object with the borrowed map's entries (a callback argument: copied, nothing freed). */
Napi::Value BorrowProperties(Napi::Env env, const Svcpp_Properties &props);
/** A JS object with a result map's entries; the map is released with Svcpp_FreeProperties. */
Napi::Value TakeProperties(Napi::Env env, Svcpp_Properties &props);

/** An array of bigints or non-negative safe integers (each as U64Arg; TypeError when not an array). */
std::vector<uint64_t> U64ArrayArg(const Napi::Value &v);
inline Svcpp_UInt64Span U64SpanView(std::vector<uint64_t> &ids) {
    return Svcpp_UInt64Span{ids.empty() ? nullptr : ids.data(), ids.size()};
}
/** A JS array of bigints copied from a borrowed span. */
Napi::Value BorrowU64Span(Napi::Env env, const Svcpp_UInt64Span &span);
/** A JS array of bigints from a result span, whose buffer is freed with Svcpp_Free. */
Napi::Value TakeU64Span(Napi::Env env, Svcpp_UInt64Span &span);

/** The handle structs of a JS array of handles of type H (the library copies the elements; JS keeps its own). */
template <class H>
std::vector<H> HandleArrayArg(Napi::Env env, const Napi::Value &v) {
    if (!v.IsArray()) throw Napi::TypeError::New(env, "expected an array of handles");
    Napi::Array array = v.As<Napi::Array>();
    std::vector<H> handles;
    handles.reserve(array.Length());
    for (uint32_t i = 0; i < array.Length(); ++i) handles.push_back(*UnwrapHandle<H>(env, array.Get(i)));
    return handles;
}

template <class Span, class H>
Span SpanView(std::vector<H> &handles) {
    return Span{handles.empty() ? nullptr : handles.data(), handles.size()};
}

}  // namespace svcpp_node
