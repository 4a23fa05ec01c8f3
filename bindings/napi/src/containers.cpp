#include "containers.hpp"

namespace svcpp_node {

PropertiesArg::PropertiesArg(const Napi::Value &v) {
    Napi::Env env = v.Env();
    if (!v.IsObject() || v.IsArray() || v.IsFunction())
        throw Napi::TypeError::New(env, "expected an object of string values");
    Napi::Object object = v.As<Napi::Object>();
    // Own enumerable string keys only (Object.keys): inherited or symbol keys are not entries of a map.
    napi_value names = nullptr;
    napi_status status = napi_get_all_property_names(
        env, object, napi_key_own_only, static_cast<napi_key_filter>(napi_key_enumerable | napi_key_skip_symbols),
        napi_key_numbers_to_strings, &names);
    NAPI_THROW_IF_FAILED_VOID(env, status);
    Napi::Array keys(env, names);
    const uint32_t n = keys.Length();
    keys_.reserve(n);
    values_.reserve(n);
    for (uint32_t i = 0; i < n; ++i) {
        Napi::Value key = keys.Get(i);
        Napi::Value value = object.Get(key);
        keys_.push_back(key.As<Napi::String>().Utf8Value());
        if (!value.IsString())
            throw Napi::TypeError::New(env, "expected a string value for key \"" + keys_.back() + "\"");
        values_.push_back(value.As<Napi::String>().Utf8Value());
    }
    for (uint32_t i = 0; i < n; ++i) {
        keyViews_.push_back(svcpp_node::View(keys_[i]));
        valueViews_.push_back(svcpp_node::View(values_[i]));
    }
}

Svcpp_Properties PropertiesArg::View() {
    if (keys_.empty()) return Svcpp_Properties{};
    return Svcpp_Properties{keyViews_.size(), keyViews_.data(), valueViews_.data()};
}

Napi::Value BorrowProperties(Napi::Env env, const Svcpp_Properties &props) {
    Napi::Object object = Napi::Object::New(env);
    for (size_t i = 0; i < props.size; ++i) {
        // DefineProperty, not Set: a "__proto__" key must become an entry, not the object's prototype.
        object.DefineProperty(Napi::PropertyDescriptor::Value(
            BorrowString(env, props.keys[i]), BorrowString(env, props.values[i]), napi_default_jsproperty));
    }
    return object;
}

Napi::Value TakeProperties(Napi::Env env, Svcpp_Properties &props) {
    struct Freer {
        Svcpp_Properties &p;
        ~Freer() {
            Svcpp_FreeProperties(p);
            p = Svcpp_Properties{};
        }
    } freer{props};
    return BorrowProperties(env, props);
}

std::vector<uint64_t> U64ArrayArg(const Napi::Value &v) {
    if (!v.IsArray()) throw Napi::TypeError::New(v.Env(), "expected an array of bigints");
    Napi::Array array = v.As<Napi::Array>();
    std::vector<uint64_t> ids;
    ids.reserve(array.Length());
    for (uint32_t i = 0; i < array.Length(); ++i) ids.push_back(U64Arg(array.Get(i)));
    return ids;
}

Napi::Value BorrowU64Span(Napi::Env env, const Svcpp_UInt64Span &span) {
    Napi::Array array = Napi::Array::New(env, span.size);
    for (size_t i = 0; i < span.size; ++i) array.Set(static_cast<uint32_t>(i), Napi::BigInt::New(env, span.ptr[i]));
    return array;
}

Napi::Value TakeU64Span(Napi::Env env, Svcpp_UInt64Span &span) {
    struct Freer {
        Svcpp_UInt64Span &s;
        ~Freer() {
            Svcpp_Free(s.ptr);
            s = Svcpp_UInt64Span{};
        }
    } freer{span};
    return BorrowU64Span(env, span);
}

}  // namespace svcpp_node
