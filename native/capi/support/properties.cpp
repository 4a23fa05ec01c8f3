#include "support/properties.hpp"

#include <cstdlib>
#include <new>
#include <string>

#include "runtime/abi_error.hpp"
#include "support/strings.hpp"

namespace svcpp::capi {

using core::AbiError;
using core::Errc;

core::Properties InProperties(Svcpp_Properties props, const char *what, MapLimits limits) {
    const std::string name(what);
    if (props.size && (!props.keys || !props.values)) {
        throw AbiError(Errc::NullArgument, name + ": keys or values is NULL but size is " + std::to_string(props.size));
    }
    if (limits.maxKeys && props.size > limits.maxKeys) {
        throw AbiError(Errc::InvalidArgument, name + ": " + std::to_string(props.size) + " keys, the limit is " +
                                                  std::to_string(limits.maxKeys));
    }
    core::Properties copy;
    for (size_t i = 0; i < props.size; ++i) {
        const std::string at = name + "[" + std::to_string(i) + "]";
        std::string key = InString(props.keys[i], (at + " key").c_str(), limits.maxKey);
        std::string value = InString(props.values[i], (at + " value").c_str(), limits.maxValue);
        // The key itself stays out of the message: metadata keys are the host's data, not ours to log.
        if (!copy.emplace(std::move(key), std::move(value)).second)
            throw AbiError(Errc::InvalidArgument, at + ": duplicate key");
    }
    return copy;
}

void ReleaseProperties(Svcpp_Properties props) noexcept {
    for (size_t i = 0; i < props.size; ++i) {
        if (props.keys) std::free(props.keys[i].ptr);
        if (props.values) std::free(props.values[i].ptr);
    }
    std::free(props.keys);
    std::free(props.values);
}

void OutProperties(const core::Properties &value, Svcpp_Properties *out, const char *what) {
    if (!out) throw AbiError(Errc::NullArgument, std::string(what) + " is NULL");
    if (value.empty()) {
        *out = Svcpp_Properties{};
        return;
    }
    // calloc: every string starts {NULL, 0}, so a failure half-way releases exactly what was made.
    Svcpp_Properties made{value.size(), static_cast<Svcpp_String *>(std::calloc(value.size(), sizeof(Svcpp_String))),
                          static_cast<Svcpp_String *>(std::calloc(value.size(), sizeof(Svcpp_String)))};
    try {
        if (!made.keys || !made.values) throw std::bad_alloc();
        size_t i = 0;
        for (const auto &[k, v] : value) {
            OutString(k, &made.keys[i], what);
            OutString(v, &made.values[i], what);
            ++i;
        }
    } catch (...) {
        ReleaseProperties(made);
        throw;
    }
    *out = made;
}

BorrowedProperties::BorrowedProperties(const core::Properties &value) {
    keys_.reserve(value.size());
    values_.reserve(value.size());
    for (const auto &[k, v] : value) {
        keys_.push_back(Borrow(k));
        values_.push_back(Borrow(v));
    }
}

Svcpp_Properties BorrowedProperties::View() {
    if (keys_.empty()) return Svcpp_Properties{};
    return Svcpp_Properties{keys_.size(), keys_.data(), values_.data()};
}

}  // namespace svcpp::capi
